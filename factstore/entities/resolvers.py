"""T4 resolvers beyond the offline rule (:mod:`factstore.entities.resolution`): a model on an
Ollama server, and cassettes that record any resolver once and replay it without it.

**OllamaResolver** makes ONE chat call per T4 decision. The prompt
(``prompts/resolve.txt``) gives the mention, its claim (context), its type and the
one-valued relations the claim states about it, and every candidate of the snapshot: id,
canonical name, aliases, type, profile and salient facts, name-fit tier, and the positive
distinction the rule check found. The answer is decoded against a JSON schema whose
``entity_id`` is an enum of exactly the supplied ids plus ``"new"``. Failure modes:

- **the model cannot be asked** (server unreachable, model not pulled, timeout, a server
  error, an HTTP answer that is not a chat response): :class:`~factstore.errors.ExtractorError`,
  the same typed error the Ollama extractor raises. The resolver runs inside the capture's
  write transaction, so the capture writes nothing and can simply be retried; silently
  resolving every mention by rules while the audit names the model would misfile a whole
  import.
- **the model answered, but unusably** (not JSON, wrong shape, an id that is not a supplied
  candidate, ``new`` without naming a positive distinction): never an error mid-write. The
  decision falls back to :class:`~factstore.entities.resolution.RuleResolver` (deterministic,
  match-biased) and the reason says why, starting ``fallback to rules/t4-v1``, so an audit
  can count them (``resolve()`` would refuse a foreign id anyway; the resolver catches it
  first so the reason names the failure).

**Cassettes** (:class:`RecordingResolver`, :class:`ReplayResolver`). Candidate ids are
UUIDs minted per store, so a decision is recorded by the chosen candidate's *position* in
a canonical order of the candidates (sorted by name, aliases and type, ties kept in the
rule check's order) together with its name, and mapped back to the current snapshot's id
on replay. The key hashes what the decision depends on and what is the same in every fresh
store fed the same captures: the resolver's name, its prompt version, the mention's name,
type, context and one-valued relations, and the candidates' names, aliases and types in the
canonical order. Not ids, and not profiles, mention counts or similarities, which depend on
when profiles were last rebuilt. One JSON object per line, keys sorted::

    {"candidates": [{"aliases": [...], "name": "Priya Patel", "type": "Person"}],
     "context": "...", "decision": {"choice": 0, "confidence": 0.9, "name": "Priya Patel",
     "reason": "..."}, "key": "<sha256>", "mention": "Priya", "mention_type": "Person",
     "model": "ollama/llama3.1:8b/resolve-v1", "prompt_version": "resolve-v1+...",
     "recorded_at": "..."}

``choice`` is a position, ``"new"``, or ``"outside"`` for a recorded decision that named no
supplied candidate (replayed as an id no snapshot holds, so ``resolve()`` refuses it again).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from factstore.embedders.ollama import resolve_host
from factstore.entities.resolution import Decision, Mention, Resolver, RuleResolver, Scored
from factstore.errors import ExtractorError, InvalidInput
from factstore.extractors.replay import append_entry, read_entries
from factstore.ollama_errors import ollama_errors

__all__ = [
    "PROMPT_VERSION",
    "RESOLVER_CHOICES",
    "OllamaResolver",
    "RecordingResolver",
    "ReplayResolver",
    "decision_key",
    "load_resolve_template",
    "parse_decision",
    "prompt_version",
    "read_resolver_cassette",
    "render_resolve_prompt",
    "resolve_schema",
    "resolver_from_name",
]

PROMPT_RESOURCE = "prompts/resolve.txt"
#: Bumped by hand when the decision's meaning changes (fields, the rule); the template's
#: hash is added by :func:`prompt_version`, so any edit of the wording changes it too.
PROMPT_VERSION = "resolve-v1"
#: The ``choice`` of a decision that names no supplied candidate (see the module doc).
OUTSIDE = "outside"
#: A new entity.
NEW = "new"
#: Bounds on what one candidate contributes to the prompt: the snapshot is bounded
#: (Settings.entity_candidates), and so is each candidate's text, so the prompt is too.
MAX_PROFILE = 600
MAX_SALIENT = 5
MAX_ALIASES = 12
MAX_CONTEXT = 2000
MAX_REASON = 1000

RESOLVER_CHOICES: tuple[str, ...] = ("rules", "ollama", "ollama:<model>")

_PLACEHOLDER = re.compile(r"\{(mention|mention_type|context|anchors|count|candidates)\}")
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n(.*)\n\s*```\s*$", re.DOTALL)


# -- the prompt ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def load_resolve_template() -> str:
    """The T4 prompt template shipped with the package (entities/prompts/resolve.txt)."""
    return resources.files("factstore.entities").joinpath(PROMPT_RESOURCE).read_text("utf-8")


def prompt_version() -> str:
    """PROMPT_VERSION plus the template's hash: what a cassette key records, so recordings
    made under another wording are a miss for a strict replay."""
    digest = hashlib.sha256(load_resolve_template().encode("utf-8")).hexdigest()
    return f"{PROMPT_VERSION}+{digest[:12]}"


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _anchors(anchors: Mapping[str, Any]) -> str:
    parts = []
    for predicate in sorted(anchors):
        value = anchors[predicate]
        values = sorted(value) if isinstance(value, set | frozenset | list | tuple) else [value]
        parts.append(f"{predicate} {', '.join(str(v) for v in values)}")
    return "; ".join(parts) or "none"


def render_candidate(position: int, scored: Scored) -> str:
    """One candidate's block of the prompt (``position`` counts from 1)."""
    c = scored.candidate
    aliases = list(c.aliases[:MAX_ALIASES])
    more = len(c.aliases) - len(aliases)
    lines = [
        f"Candidate {position}",
        f"  id: {c.entity_id}",
        f"  canonical name: {c.canonical_name}",
        "  also known as: " + (", ".join(aliases) + (f" (and {more} more)" if more else "")
                               if aliases else "no other names"),
        f"  type: {c.entity_type}",
        f"  name fit: tier {scored.fit.tier or '?'}, {scored.fit.why} ({scored.fit.score:.2f})",
        f"  already mentioned in this document: {'yes' if c.in_document else 'no'}",
        f"  mentions so far: {c.mentions}",
        f"  profile: {_clip(c.profile, MAX_PROFILE) if c.profile else 'none yet'}",
    ]
    if c.salient:
        lines.append("  salient facts:")
        lines.extend(f"    - {_clip(s, MAX_PROFILE)}" for s in c.salient[:MAX_SALIENT])
    else:
        lines.append("  salient facts: none")
    lines.append(f"  relations held once at a time: {_anchors(c.anchors)}")
    lines.append("  similarity of the claim to its profile: "
                 + ("not measured (no profile vector)" if scored.t3 is None
                    else f"{scored.t3:.2f}"))
    lines.append(f"  positive distinction found: {scored.distinct or 'none'}")
    return "\n".join(lines)


def render_resolve_prompt(template: str, mention: Mention, candidates: Sequence[Scored]) -> str:
    """Fill the template in one regex pass (not str.format: the template holds literal JSON
    braces, and a claim that itself contains "{candidates}" is never substituted into)."""
    values = {
        "mention": mention.name,
        "mention_type": mention.entity_type or "not said",
        "context": _clip(mention.context, MAX_CONTEXT),
        "anchors": _anchors(mention.anchors),
        "count": str(len(candidates)),
        "candidates": "\n\n".join(render_candidate(i, s) for i, s in enumerate(candidates, 1)),
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def resolve_schema(candidates: Sequence[Scored]) -> dict[str, Any]:
    """The JSON schema sent as ``format``: ``entity_id`` is one of exactly these candidates'
    ids or "new". ``reason`` comes first so a model that decodes in property order says why
    before it commits."""
    ids = list(dict.fromkeys(s.candidate.entity_id for s in candidates))
    return {
        "type": "object",
        "properties": {
            "reason": {"type": "string"},
            "entity_id": {"type": "string", "enum": [*ids, NEW]},
            "distinction": {"type": ["string", "null"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "required": ["reason", "entity_id", "distinction", "confidence"],
    }


# -- the answer ------------------------------------------------------------------------------


def _preview(content: object) -> str:
    return repr(str(content)[:120])


def _confidence(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return round(min(1.0, max(0.0, float(value))), 3)


def _text(value: object) -> str | None:
    return _clip(value, MAX_REASON) if isinstance(value, str) and value.strip() else None


def parse_decision(content: object, candidates: Sequence[Scored]) -> Decision | str:
    """The model's decision, or why it is unusable (the caller falls back on that reason).

    A choice of "new" must name a positive distinction (``distinction``): "new" without one
    is the unsupported split the match bias forbids, so it is unusable, not obeyed.
    """
    if not isinstance(content, str) or not content.strip():
        return "answered nothing"
    body = content.strip()
    fenced = _FENCE.match(body)  # a server that ignores `format` may fence the JSON
    if fenced:
        body = fenced.group(1)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        return f"answered something that is not JSON ({exc.msg}): {_preview(content)}"
    if not isinstance(data, dict):
        return f"answered JSON that is not an object: {_preview(content)}"
    choice = data.get("entity_id")
    if not isinstance(choice, str) or not choice.strip():
        return f"answered no entity_id: {_preview(content)}"
    choice = choice.strip()
    reason = _text(data.get("reason")) or "no reason given"
    confidence = _confidence(data.get("confidence"))
    if choice.lower() == NEW:
        distinction = _text(data.get("distinction"))
        if distinction is None:
            return "answered new without naming a positive distinction"
        return Decision(None, f"new: {distinction} ({reason})", confidence)
    chosen = next((s for s in candidates if s.candidate.entity_id == choice), None)
    if chosen is None:
        return f"named {_clip(choice, 80)!r}, which is not a supplied candidate"
    overrode = (f"; over the rule check's distinction ({chosen.distinct})"
                if chosen.distinct else "")
    return Decision(choice, f"match: {reason}{overrode}", confidence)


def _fallback(mention: Mention, candidates: Sequence[Scored], who: str,
              failure: str) -> Decision:
    rule = RuleResolver().decide(mention, candidates)
    return Decision(rule.entity_id,
                    f"fallback to {RuleResolver.name} because {who} {failure}: {rule.reason}",
                    rule.confidence)


# -- the Ollama resolver ---------------------------------------------------------------------


class OllamaResolver:
    """T4 by a chat model on an Ollama server: one call per decision (see the module doc for
    what each failure does). ``name`` is ``ollama/<model>/resolve-v1``; ``last_failure`` is
    the most recent fallback's cause, or None (per instance, overwritten on each call)."""

    def __init__(self, model: str = "llama3.1:8b", host: str | None = None,
                 timeout: float = 60, options: dict[str, Any] | None = None) -> None:
        if not isinstance(model, str) or not model.strip():
            raise InvalidInput(f"model must be a non-empty Ollama model name, got {model!r}")
        # Imported here so importing factstore.entities does not pull in pydantic/httpx.
        import ollama

        self.model = model.strip()
        self.name = f"ollama/{self.model}/{PROMPT_VERSION}"
        self.prompt_version = prompt_version()
        self.host = resolve_host(host)
        self.timeout = timeout
        # Deterministic decoding: the same snapshot gets the same decision, and a retried
        # write transaction (which calls decide again) agrees with the first attempt.
        self.options: dict[str, Any] = {"temperature": 0, "seed": 0, **(options or {})}
        self.last_failure: str | None = None
        self._client = ollama.Client(host=self.host, timeout=timeout)

    def __repr__(self) -> str:
        return f"OllamaResolver(model={self.model!r}, host={self.host!r})"

    def prompt_for(self, mention: Mention, candidates: Sequence[Scored]) -> str:
        """The exact prompt sent for this decision."""
        return render_resolve_prompt(load_resolve_template(), mention, candidates)

    def raw_call(self, mention: Mention, candidates: Sequence[Scored]) -> str:
        """Ask the model and return its raw answer, unparsed. ExtractorError when the model
        cannot be asked (see the module doc)."""
        with ollama_errors(ExtractorError, host=self.host, model=self.model,
                           timeout=self.timeout, doing="chat", answer="a chat response",
                           timeout_advice="raise timeout=..., or use a smaller model"):
            response = self._client.chat(
                model=self.model,
                messages=[{"role": "user", "content": self.prompt_for(mention, candidates)}],
                format=resolve_schema(candidates),
                options=self.options,
                stream=False,
            )
        content = response.message.content
        return content if content is not None else ""

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        """One supplied candidate's id, or new (None); falls back to the rule on an unusable
        answer, raises ExtractorError when the model cannot be asked."""
        self.last_failure = None
        if not candidates:  # resolve() never asks about nothing; no call spent on it
            return Decision(None, "new: there is no candidate", 1.0)
        parsed = parse_decision(self.raw_call(mention, candidates), candidates)
        if isinstance(parsed, str):
            self.last_failure = parsed
            return _fallback(mention, candidates, self.name, parsed)
        return parsed


# -- cassettes -------------------------------------------------------------------------------


def _descriptor(scored: Scored) -> dict[str, Any]:
    c = scored.candidate
    return {"name": c.canonical_name, "aliases": sorted(c.aliases), "type": c.entity_type}


def canonical_order(candidates: Sequence[Scored]) -> list[Scored]:
    """The candidates sorted by name, aliases and type, which every fresh store agrees on
    (the rule check's order breaks its last ties by id, a UUID that differs per store).
    The sort is stable: candidates alike in all three keep the rule check's order, so a
    position among them still means "the better ranked"."""
    return sorted(candidates, key=lambda s: (s.candidate.canonical_name,
                                             tuple(sorted(s.candidate.aliases)),
                                             s.candidate.entity_type))


def decision_key(model: str, version: str, mention: Mention,
                 candidates: Sequence[Scored]) -> str:
    """sha256 hex of the canonical JSON of what a recorded decision is filed under (see the
    module doc); ``candidates`` in any order."""
    canonical = json.dumps({
        "model": model, "prompt_version": version, "mention": mention.name,
        "mention_type": mention.entity_type, "context": mention.context,
        "anchors": {k: str(v) for k, v in sorted(mention.anchors.items())},
        "candidates": [_descriptor(s) for s in canonical_order(candidates)],
    }, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _encode(decision: Decision, ordered: Sequence[Scored]) -> dict[str, Any]:
    out: dict[str, Any] = {"reason": decision.reason, "confidence": decision.confidence}
    if decision.entity_id is None:
        out["choice"] = NEW
        return out
    position = next((i for i, s in enumerate(ordered)
                     if s.candidate.entity_id == decision.entity_id), None)
    if position is None:
        out["choice"] = OUTSIDE
    else:
        out["choice"] = position
        out["name"] = ordered[position].candidate.canonical_name
    return out


def _decode(recorded: Mapping[str, Any], ordered: Sequence[Scored], where: str) -> Decision:
    choice = recorded.get("choice")
    reason = recorded.get("reason") if isinstance(recorded.get("reason"), str) else ""
    confidence = _confidence(recorded.get("confidence"))
    if choice == NEW:
        return Decision(None, reason, confidence)
    if choice == OUTSIDE:
        # Not an id any store holds: resolve() refuses it again, as it did when recorded.
        return Decision(f"{OUTSIDE}-snapshot", reason, confidence)
    if isinstance(choice, bool) or not isinstance(choice, int) or \
            not 0 <= choice < len(ordered) or \
            ordered[choice].candidate.canonical_name != recorded.get("name"):
        # The key covers the names in this order, so this is a hand-edited or corrupt line.
        raise ExtractorError(f"{where}: the recorded choice {choice!r} "
                             f"({recorded.get('name')!r}) is not a candidate of this snapshot; "
                             "re-record it")
    return Decision(ordered[choice].candidate.entity_id, reason, confidence)


def read_resolver_cassette(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every recorded decision in a resolver cassette, in file order; InvalidInput for a
    malformed line."""
    return read_entries(path, {"key": str, "model": str, "prompt_version": str,
                               "decision": dict}, "a recorded decision")


class RecordingResolver:
    """Wraps ``inner``: every decision is the inner resolver's, appended to ``path``.

    ``name`` is the inner resolver's, so the audit files the decision under the real
    resolver. A re-recording that decides the same appends nothing (a retried write
    transaction decides again); a different decision is appended and wins on replay.
    """

    def __init__(self, inner: Resolver, path: str | os.PathLike[str]) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.prompt_version: str = getattr(inner, "prompt_version", "") or ""
        self.path = Path(path)
        self._lock = threading.Lock()
        self._recorded: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            for entry in read_resolver_cassette(self.path):
                self._recorded[entry["key"]] = entry["decision"]

    def __repr__(self) -> str:
        return f"RecordingResolver({self.inner!r}, {str(self.path)!r})"

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        """The inner resolver's decision, recorded on the way out (nothing is recorded when
        it raises: a failed capture has no decision to replay)."""
        decision = self.inner.decide(mention, candidates)
        ordered = canonical_order(candidates)
        key = decision_key(self.name, self.prompt_version, mention, candidates)
        encoded = _encode(decision, ordered)
        with self._lock:
            if self._recorded.get(key) != encoded:
                append_entry(self.path, {
                    "key": key, "model": self.name, "prompt_version": self.prompt_version,
                    "mention": mention.name, "mention_type": mention.entity_type,
                    "context": mention.context,
                    "candidates": [_descriptor(s) for s in ordered], "decision": encoded})
                self._recorded[key] = encoded
        return decision


class ReplayResolver:
    """Answers ``decide`` from a resolver cassette; a decision with no recording is an
    ExtractorError naming its key (like a replayed extractor's miss, the capture then
    writes nothing).

    ``model`` picks whose decisions to replay; it may be omitted when the cassette holds one
    resolver's. ``prompt_version`` defaults to the one recorded for that resolver (so a
    recording replays whatever wording produced it); pass :func:`prompt_version` () to
    insist on the current template, making an older recording a miss.
    """

    def __init__(self, path: str | os.PathLike[str], model: str | None = None, *,
                 prompt_version: str | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise InvalidInput(f"no resolver cassette at {self.path}; record one first (open "
                               "the store with resolver=RecordingResolver(OllamaResolver(...), "
                               "path))")
        entries = read_resolver_cassette(self.path)
        models = sorted({e["model"] for e in entries})
        if model is None and len(models) > 1:
            raise InvalidInput(f"{self.path} holds decisions of {', '.join(models)}; say which "
                               "to replay (model=...)")
        if model is not None and models and model not in models:
            raise InvalidInput(f"{self.path} has no decisions of {model!r}; it has "
                               f"{', '.join(models)}")
        self.model: str | None = model if model is not None else (models[0] if models else None)
        mine = [e for e in entries if e["model"] == self.model]
        versions = sorted({e["prompt_version"] for e in mine})
        if prompt_version is None and len(versions) > 1:
            raise InvalidInput(f"{self.path} holds decisions of {self.model} under prompt "
                               f"versions {', '.join(versions)}; say which (prompt_version=...)")
        self.prompt_version: str = prompt_version if prompt_version is not None else (
            versions[0] if versions else "")
        self.name = f"replay/{self.model or self.path.stem}"
        self._by_key: dict[str, dict[str, Any]] = {}
        for entry in mine:  # file order, so the last recording of a key wins
            self._by_key[entry["key"]] = entry["decision"]

    def __repr__(self) -> str:
        return f"ReplayResolver({str(self.path)!r}, model={self.model!r})"

    def __len__(self) -> int:
        """How many distinct decisions this replayer can answer from."""
        return len(self._by_key)

    def __bool__(self) -> bool:
        # Always true, even when empty: the store picks its resolver with
        # ``resolver or RuleResolver()``, and an empty cassette must still be the resolver
        # (a miss is an error), never a silent switch to the rules.
        return True

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        """The recorded decision, its candidate mapped to this snapshot's id."""
        key = decision_key(self.model or "", self.prompt_version, mention, candidates)
        recorded = self._by_key.get(key)
        if recorded is None:
            names = ", ".join(s.candidate.canonical_name for s in canonical_order(candidates))
            raise ExtractorError(
                f"{self.path} has no decision of {self.model or 'any resolver'} under key "
                f"{key} (mention {mention.name!r} in {_preview(mention.context)}, candidates "
                f"[{names}]); record it by opening the store with "
                f"resolver=RecordingResolver(<the live resolver>, {str(self.path)!r})")
        return _decode(recorded, canonical_order(candidates), f"{self.path} key {key}")


# -- by name ---------------------------------------------------------------------------------


def resolver_from_name(spec: str) -> Resolver:
    """Build a T4 resolver from a short spec: 'rules' (the offline default), 'ollama' (the
    Ollama resolver's default model) or 'ollama:<model>'."""
    if not isinstance(spec, str):
        raise InvalidInput(f"resolver spec must be a string, got {type(spec).__name__}; use "
                           f"one of {', '.join(RESOLVER_CHOICES)}")
    cleaned = spec.strip()
    lowered = cleaned.lower()
    if lowered in ("rules", RuleResolver.name):
        return RuleResolver()
    if lowered == "ollama":
        return OllamaResolver()
    if lowered.startswith("ollama:") and cleaned[len("ollama:"):].strip():
        # Ollama model tags are case-sensitive, so keep the original spelling.
        return OllamaResolver(model=cleaned[len("ollama:"):].strip())
    raise InvalidInput(f"unknown resolver {spec!r}; use one of {', '.join(RESOLVER_CHOICES)}")

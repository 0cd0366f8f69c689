"""Draw the hand-judged sample of compiled timeline facts (``compiled_sample_judged.jsonl``).

Every capture of the project's knowledge-update set (both splits) and every turn of the
real archives (LoCoMo conversations 0-4 as ``Speaker: text`` said at their session's date,
QMSum meetings as ``Speaker: text``, and the READMEs of the Python packages installed beside
factstore (their PyPI long descriptions: Markdown and reStructuredText with code and HTML),
both said 2026-06-10 for lack of a date) goes through the
offline compiler and the reconciliation the store runs (on an empty store, with the
built-in attribute registry: keys from aliases and value classes; a draft that only ends a
value, or whose key only a stored value could give, writes nothing); from the facts it
would write, a fixed-seed sample is drawn: 50 from the
project set, up to 30 from LoCoMo, 20 from QMSum, the rest of 100 from the READMEs. Each line is one compiled
fact with its quote; a person then adds ``verdict`` (``correct`` / ``wrong``) and ``why``.

    python evals/data/make_compiled_sample.py ../shared/datasets > /tmp/sample.jsonl
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from evals.loaders import load_locomo, load_qmsum
from evals.suites.knowledge_update import load as load_updates
from factstore.compiler.offline import ParserCompiler
from factstore.compiler.reconcile import reconcile
from factstore.compiler.subjects import timeline_subject
from factstore.compiler.vocabulary import ALIAS_KEYS, BY_KEY

SEED = 3301
QUOTAS = {"project": 50, "locomo": 30, "qmsum": 20, "readme": 0}
UNDATED = datetime(2026, 6, 10, 9, tzinfo=UTC)


def _captures(datasets: Path):
    for item in load_updates(Path(__file__).with_name("knowledge_updates.jsonl")):
        for capture in item["captures"]:
            said = datetime.fromisoformat(capture["said_at"])
            yield "project", f"{item['id']}", capture["text"], said
    for conv in load_locomo(datasets / "locomo"):
        for session in conv.sessions:
            said = session.when.replace(tzinfo=UTC) if session.when else UNDATED
            for turn in session.turns:
                yield "locomo", f"{conv.sample_id}:{turn.dia_id}", \
                    f"{turn.speaker}: {turn.text}", said
    for meeting in load_qmsum(datasets / "qmsum" / "val"):
        for turn in meeting.turns:
            yield "qmsum", f"{meeting.meeting_id}:{turn.dia_id}", \
                f"{turn.speaker}: {turn.text}", UNDATED
    for name, body in _readmes():
        yield "readme", name, body, UNDATED


def _readmes():
    """The installed distributions' long descriptions, by name (at most 20,000 characters
    each: a README's opening states what the package is)."""
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata.get("Name")
        body = dist.metadata.get_payload() or dist.metadata.get("Description") or ""
        if name and len(body) > 200:
            found[name.lower()] = body[:20000]
    return sorted(found.items())


def main(datasets: Path) -> None:
    compiler = ParserCompiler()
    registry = {**ALIAS_KEYS, **{key: key for key in BY_KEY}}

    def subject_of(ref, attribute):
        spec = BY_KEY.get(attribute or "")
        return timeline_subject(ref, member_holds=bool(spec and spec.member_holds),
                                owner="person/owner")

    found: dict[str, list[dict]] = {name: [] for name in QUOTAS}
    for source, ref, text, said in _captures(datasets):
        drafts = compiler.compile(text, said).drafts
        planned, _, _ = reconcile(drafts, observed=said, subject_of=subject_of, existing=(),
                                  registry=registry)
        for plan in planned:
            fact = plan.fact
            found[source].append({
                "source": source, "ref": ref, "said_at": said.date().isoformat(),
                "subject": fact["subject"], "attribute": fact["attribute"],
                "value": fact["value"], "unit": fact.get("unit"),
                "valid_from": fact.get("valid_from"), "quote": fact["quote"]})
    rng = random.Random(SEED)
    short = 0
    for source, quota in QUOTAS.items():
        # LoCoMo's chat compiles to few facts: what it cannot fill, the READMEs make up
        take = min(quota + (short if source == "readme" else 0), len(found[source]))
        short += quota - take
        print(f"{source}: {len(found[source])} compiled facts, {take} drawn", file=sys.stderr)
        for row in rng.sample(found[source], take):
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets"))

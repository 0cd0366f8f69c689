"""Redaction of secrets from fact text before storage (seed 002 §4: "secrets do not belong
in a fact").

Every text field of a written fact passes through :func:`redact`. A secret is replaced by
``[REDACTED:<kind>]`` and the kinds are reported, so the store can record *that* something
was removed (and what sort of thing) without keeping it.

The detectors are deliberately shaped, not entropy guesses: each matches a credential
format (a key prefix, a PEM block, a JWT) or a credential assignment (``password=...``).
Ordinary prose, Windows paths, version strings, UUIDs and git SHAs must pass untouched,
because a fact store that mangles "v2.3.1" or a commit id loses real information.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from factstore.timelines.format_v1 import WrittenFact

MARKER_PREFIX = "[REDACTED:"

#: The text fields redaction runs over. The subject is left out: its schema pattern
#: (a kind and a slug of [a-z0-9-]) cannot carry any of the formats below.
TEXT_FIELDS = ("attribute", "value", "unit", "source", "quote")


def _marker(kind: str) -> str:
    return f"{MARKER_PREFIX}{kind}]"


# Each format detector: (kind, compiled pattern); the whole match is replaced.
# Order matters: the specific formats run first so a "token: ghp_..." is reported as a
# github-token, and a "Bearer eyJ..." as a jwt; the later, generic detectors skip text that
# is already a marker.
_TOKEN_DETECTORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # A PEM private key block; an unterminated block (a truncated paste) runs to the end,
    # since half a key is still a key.
    ("private-key", re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----"
        r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY-----|.*\Z)", re.DOTALL)),
    # header.payload.signature, base64url; a JSON header always encodes to 'eyJ'.
    ("jwt", re.compile(
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*")),
    ("github-token", re.compile(
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})")),
    ("slack-token", re.compile(r"(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}")),
    # OpenAI (sk-..., sk-proj-...) and Anthropic (sk-ant-...) keys: long random tails.
    ("api-key", re.compile(r"(?<![A-Za-z0-9_-])sk-(?:ant-)?[A-Za-z0-9_-]{20,}")),
    ("google-api-key", re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])")),
    ("aws-access-key-id", re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")),
)

# "Bearer <token>": the word alone is prose ("the bearer of bad news"), so the token must
# look like one: 16+ token characters with a digit, or 32+ of them.
_BEARER = re.compile(r"\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)", re.IGNORECASE)

# scheme://user:password@host — the password part only.
_URL_PASSWORD = re.compile(r"\b([a-z][a-z0-9+.-]*://[^\s:/@]+:)([^\s@/]+)(@)", re.IGNORECASE)

# A credential assignment. The key must END in one of the words (DB_PASSWORD, client_secret,
# aws_secret_access_key, auth_token), so max_tokens=, token_count: or secretary: are not
# credentials. The value is a quoted string or a run of non-space characters.
_ASSIGNMENT = re.compile(
    r"""(?<![A-Za-z0-9])
    (?P<key>[A-Za-z0-9_.-]*?
        (?P<word>password|passwd|client[_-]?secret|secret[_-]?key|secret
                 |api[_-]?key|access[_-]?key|private[_-]?key|token))
    (?P<sep>["']?\s*[:=]\s*)
    (?:(?P<quote>["'])(?P<quoted>[^"'\n]+)(?P=quote)|(?P<bare>[^\s,;"'}\]]+))
    """, re.IGNORECASE | re.VERBOSE)

_WORD_KINDS = (("passw", "password"), ("secret", "secret"), ("api", "api-key"),
               ("access", "secret"), ("private", "private-key"), ("token", "token"))


def _assignment_kind(word: str) -> str:
    lowered = word.lower()
    for needle, kind in _WORD_KINDS:
        if needle in lowered:
            return kind
    return "secret"


def _looks_like_prose(match: re.Match[str]) -> bool:
    """Whether 'password: reset it via the portal' is a sentence rather than a credential.

    Only for a bare key word followed by ':' and an unquoted value: config-style keys
    (DB_PASSWORD, client_secret) and '=' are credentials whatever follows. A plain word
    that the sentence carries on after is prose; a value with digits or symbols, or one
    that ends the line, is treated as the secret (a false alarm costs a word, a miss leaks
    a password).
    """
    if "=" in match["sep"] or match["bare"] is None:
        return False
    if not re.fullmatch(r"[A-Za-z]+", match["key"]):
        return False
    if not re.fullmatch(r"[A-Za-z]+", match["bare"]):
        return False
    return re.match(r"[ \t]+[A-Za-z]", match.string[match.end():]) is not None


def _bearer_token_shaped(token: str) -> bool:
    return (len(token) >= 16 and any(c.isdigit() for c in token)) or len(token) >= 32


def redact(text: str) -> tuple[str, tuple[str, ...]]:
    """Replace every secret in ``text`` with ``[REDACTED:<kind>]``.

    Returns the redacted text and the kinds found (sorted, each once), e.g.
    ``("api-key", "password")``; ``(text, ())`` when there was nothing to redact.
    """
    if not isinstance(text, str):
        raise TypeError(f"redact takes a str, got {type(text).__name__}")
    kinds: set[str] = set()

    for kind, pattern in _TOKEN_DETECTORS:
        def whole(match: re.Match[str], kind: str = kind) -> str:
            kinds.add(kind)
            return _marker(kind)
        text = pattern.sub(whole, text)

    def bearer(match: re.Match[str]) -> str:
        if not _bearer_token_shaped(match[2]):
            return match[0]
        kinds.add("bearer-token")
        return match[1] + _marker("bearer-token")
    text = _BEARER.sub(bearer, text)

    def url(match: re.Match[str]) -> str:
        if match[2].startswith(MARKER_PREFIX):
            return match[0]
        kinds.add("url-password")
        return match[1] + _marker("url-password") + match[3]
    text = _URL_PASSWORD.sub(url, text)

    def assignment(match: re.Match[str]) -> str:
        group = "quoted" if match["quoted"] is not None else "bare"
        # A value a specific detector already replaced stops at the marker's ']'.
        if match[group].startswith(MARKER_PREFIX) or _looks_like_prose(match):
            return match[0]
        kind = _assignment_kind(match["word"])
        kinds.add(kind)
        # Keep the key, separator and quotes; replace only the value.
        offset = match.start()
        return (match[0][: match.start(group) - offset] + _marker(kind)
                + match[0][match.end(group) - offset:])
    text = _ASSIGNMENT.sub(assignment, text)

    return text, tuple(sorted(kinds))


def redact_fields(fact: WrittenFact) -> tuple[WrittenFact, tuple[dict, ...]]:
    """Run :func:`redact` over every text field of a written fact.

    Returns the fact with secrets replaced and one record per field that changed, in field
    order: ``{"field": "quote", "kinds": ["password"]}``. Records carry kinds only, never
    the removed text.
    """
    changes: dict[str, str] = {}
    records: list[dict] = []
    for name in TEXT_FIELDS:
        original = getattr(fact, name)
        if original is None:
            continue
        cleaned, kinds = redact(original)
        if kinds:
            changes[name] = cleaned
            records.append({"field": name, "kinds": list(kinds)})
    return (dataclasses.replace(fact, **changes) if changes else fact), tuple(records)

"""Redaction of secrets from every text before it enters the store (seed 002 §4: "secrets
do not belong in a fact"; issue 9).

One stage for everything: captures (before extraction and embedding, so the verbatim-quote
rule checks against the redacted source), statements, quotes and topics an extractor
returns, timeline fields, imported records, notes and reasoning. A secret is replaced by
``[REDACTED:<kind>]`` and the kinds are reported, so the store records *that* something was
removed (and what sort of thing) without keeping it. :func:`fit` keeps a redacted field
within its limit (a marker can be longer than the secret it replaced).

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
#: What a field cut to its limit ends with.
TRUNCATED = "…"

#: The text fields of a timeline fact redaction runs over, with their storage limits. The
#: subject is left out: its schema pattern (a kind and a slug of [a-z0-9-]) cannot carry any
#: of the formats below.
TEXT_FIELDS = ("attribute", "value", "unit", "source", "quote")
FIELD_LIMITS = {"attribute": 64, "value": 2000, "unit": 32, "source": 512, "quote": 2000}


# Prefilters: a literal each detector (or group of detectors) cannot match without, so text
# that holds none of them skips those detectors (most text holds no secret: redaction of an
# import's every field was most of its client time). Each is searched with the flags of the
# detectors it stands for, so case-folding agrees, and each is a superset: a miss proves
# the detectors would have left the text unchanged.
_TOKEN_PREFIXES = re.compile(
    r"-----BEGIN |eyJ|gh[pousr]_|github_pat_|xox|sk-|AIza|AKIA|ASIA|sk_|rk_|glpat-|npm_|"
    r"pypi-AgE|SG\.|ya29\.|do[opr]_v1_|shp|SK|key-|hf_|AGE-SECRET-KEY-1")
_BEARER_WORD = re.compile(r"bearer", re.IGNORECASE)
_ASSIGNMENT_WORDS = re.compile(r"passw|secret|api|access|private|token", re.IGNORECASE)
_SAID_WORDS = re.compile(r"pass|pin", re.IGNORECASE)


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
    ("stripe-key", re.compile(r"(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}")),
    ("gitlab-token", re.compile(r"(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}")),
    ("npm-token", re.compile(r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])")),
    ("pypi-token", re.compile(r"(?<![A-Za-z0-9_-])pypi-AgE[A-Za-z0-9_-]{50,}")),
    ("sendgrid-key", re.compile(r"(?<![A-Za-z0-9_.])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")),
    ("google-oauth-token", re.compile(r"(?<![A-Za-z0-9_.])ya29\.[A-Za-z0-9_-]{20,}")),
    ("digitalocean-token", re.compile(r"(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}")),
    ("shopify-token", re.compile(r"(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}")),
    ("twilio-key", re.compile(r"(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])")),
    ("mailgun-key", re.compile(r"(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9])")),
    ("huggingface-token", re.compile(r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}")),
    ("age-secret-key", re.compile(r"AGE-SECRET-KEY-1[0-9A-Z]{50,}")),
)

# A bare AWS secret access key: 40 characters of base64 with upper, lower and digits (a git
# SHA is lowercase hex, so it never matches).
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=]))"
                         r"(?=[^ ]*[A-Z])(?=[^ ]*[a-z])(?=[^ ]*[0-9])[A-Za-z0-9/+]{40}")
# A payment card number: 13-19 digits, plain or in groups split by spaces or dashes; only a
# number that passes the Luhn check and starts like a card is redacted.
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9])|3(?:0[0-5]|[68])|35)")
# "my password is hunter2", "the passcode was 4412": a credential said in prose.
_SAID = re.compile(r"\b(?P<word>password|passwd|passcode|passphrase|pin(?:\s+code)?)\s+"
                   r"(?:is|was|=|:)\s+(?P<value>[^\s,;]+)", re.IGNORECASE)

# "Bearer <token>": the word alone is prose ("the bearer of bad news"), so the token must
# look like one: 16+ token characters with a digit, or 32+ of them.
_BEARER = re.compile(r"\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)", re.IGNORECASE)

# scheme://user:password@host — the password part only (the user may be empty:
# redis://:pw@host).
_URL_PASSWORD = re.compile(r"\b([a-z][a-z0-9+.-]*://[^\s:/@]*:)([^\s@/]+)(@)", re.IGNORECASE)

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


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _prose_value(match: re.Match[str]) -> bool:
    """'the password is stored in vault' is a sentence, not a password: a plain lowercase
    word that the sentence carries on after."""
    value = match["value"]
    return (value.isalpha() and value.islower()
            and re.match(r"[ \t]+[A-Za-z]", match.string[match.end():]) is not None)


def redact(text: str) -> tuple[str, tuple[str, ...]]:
    """Replace every secret in ``text`` with ``[REDACTED:<kind>]``.

    Returns the redacted text and the kinds found (sorted, each once), e.g.
    ``("api-key", "password")``; ``(text, ())`` when there was nothing to redact.
    """
    if not isinstance(text, str):
        raise TypeError(f"redact takes a str, got {type(text).__name__}")
    kinds: set[str] = set()

    for kind, pattern in _TOKEN_DETECTORS if _TOKEN_PREFIXES.search(text) else ():
        def whole(match: re.Match[str], kind: str = kind) -> str:
            kinds.add(kind)
            return _marker(kind)
        text = pattern.sub(whole, text)

    def bearer(match: re.Match[str]) -> str:
        if not _bearer_token_shaped(match[2]):
            return match[0]
        kinds.add("bearer-token")
        return match[1] + _marker("bearer-token")
    if _BEARER_WORD.search(text):
        text = _BEARER.sub(bearer, text)

    def url(match: re.Match[str]) -> str:
        if match[2].startswith(MARKER_PREFIX):
            return match[0]
        kinds.add("url-password")
        return match[1] + _marker("url-password") + match[3]
    if "://" in text:
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
    if _ASSIGNMENT_WORDS.search(text):
        text = _ASSIGNMENT.sub(assignment, text)

    def said(match: re.Match[str]) -> str:
        if match["value"].startswith(MARKER_PREFIX) or _prose_value(match):
            return match[0]
        kinds.add("password")
        return match[0][: match.start("value") - match.start()] + _marker("password")
    if _SAID_WORDS.search(text):
        text = _SAID.sub(said, text)

    def card(match: re.Match[str]) -> str:
        digits = re.sub(r"[ -]", "", match[0])
        if not (13 <= len(digits) <= 19 and _CARD_PREFIX.match(digits) and _luhn(digits)):
            return match[0]
        kinds.add("card-number")
        return _marker("card-number")
    text = _CARD.sub(card, text)

    def aws(match: re.Match[str]) -> str:
        kinds.add("aws-secret-key")
        return _marker("aws-secret-key")
    text = _AWS_SECRET.sub(aws, text)

    return text, tuple(sorted(kinds))


def fit(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut with a marker when a redaction made it too
    long (never a database CHECK failure)."""
    if len(text) <= limit:
        return text
    return text[: limit - len(TRUNCATED)] + TRUNCATED


def redact_text(text: str | None, limit: int | None = None) -> tuple[str | None, tuple[str, ...]]:
    """:func:`redact` that passes None through and keeps the result within ``limit``."""
    if text is None:
        return None, ()
    cleaned, kinds = redact(text)
    if kinds and limit is not None:
        cleaned = fit(cleaned, limit)
    return cleaned, kinds


def redact_json(value: object) -> tuple[object, tuple[str, ...]]:
    """Every string inside a JSON-like value (dicts, lists, keys too) redacted."""
    kinds: set[str] = set()

    def walk(node: object) -> object:
        if isinstance(node, str):
            cleaned, found = redact(node)
            kinds.update(found)
            return cleaned
        if isinstance(node, dict):
            return {walk(k): walk(v) for k, v in node.items()}
        if isinstance(node, list | tuple):
            return [walk(v) for v in node]
        return node

    return walk(value), tuple(sorted(kinds))


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
        cleaned, kinds = redact_text(original, FIELD_LIMITS[name])
        if kinds:
            changes[name] = cleaned
            records.append({"field": name, "kinds": list(kinds)})
    return (dataclasses.replace(fact, **changes) if changes else fact), tuple(records)

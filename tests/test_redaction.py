"""Redaction of secrets in fact text (seed 002 §4): each kind replaced and reported, the key
name of an assignment kept, and no false positives on ordinary text."""

from __future__ import annotations

import pytest

from factstore.redaction import redact, redact_fields
from factstore.timelines.format_v1 import WrittenFact

# Fakes with the right shape; none is a live credential.
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3x9Vb0xYz\n"
       "QWERTYasdfgh1234567890\n-----END RSA PRIVATE KEY-----")
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
       "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
GOOGLE = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
OPENAI = "sk-proj-" + "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji0Hg9Fe"
ANTHROPIC = "sk-ant-" + "api03-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0"
SLACK = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"


@pytest.mark.parametrize(("secret", "kind"), [
    (PEM, "private-key"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
     "-----END OPENSSH PRIVATE KEY-----", "private-key"),
    ("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
     "-----END PRIVATE KEY-----", "private-key"),
    (AWS, "aws-access-key-id"),
    ("ASIA" + "Y3FDSNDKFKSIDJSW", "aws-access-key-id"),
    (GITHUB, "github-token"),
    ("gho_" + "16C7e42F292c6912E7710c838347Ae178B4a", "github-token"),
    ("ghu_" + "16C7e42F292c6912E7710c838347Ae178B4a", "github-token"),
    ("ghs_" + "16C7e42F292c6912E7710c838347Ae178B4a", "github-token"),
    ("ghr_" + "16C7e42F292c6912E7710c838347Ae178B4a", "github-token"),
    ("github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github-token"),
    (SLACK, "slack-token"),
    ("xoxp-" + "2048-4096-8192-abcdef123456", "slack-token"),
    (OPENAI, "api-key"),
    ("sk-" + "T3BlbkFJ0123456789abcdefghijklmn", "api-key"),
    (ANTHROPIC, "api-key"),
    (GOOGLE, "google-api-key"),
    (JWT, "jwt"),
])
def test_each_token_format_is_redacted(secret: str, kind: str) -> None:
    text = f"the deploy used {secret} yesterday"
    redacted, kinds = redact(text)
    assert redacted == f"the deploy used [REDACTED:{kind}] yesterday"
    assert kinds == (kind,)


def test_bearer_token_keeps_the_scheme_word() -> None:
    redacted, kinds = redact("curl -H 'Authorization: Bearer a1b2c3d4e5f6g7h8i9j0' x")
    assert redacted == "curl -H 'Authorization: Bearer [REDACTED:bearer-token]' x"
    assert kinds == ("bearer-token",)


def test_bearer_jwt_is_reported_as_jwt() -> None:
    redacted, kinds = redact(f"Authorization: Bearer {JWT}")
    assert redacted == "Authorization: Bearer [REDACTED:jwt]"
    assert kinds == ("jwt",)


@pytest.mark.parametrize(("text", "expected", "kind"), [
    ("password=hunter2", "password=[REDACTED:password]", "password"),
    ("passwd: hunter2", "passwd: [REDACTED:password]", "password"),
    ("DB_PASSWORD=correcthorse", "DB_PASSWORD=[REDACTED:password]", "password"),
    ("Password: correcthorse", "Password: [REDACTED:password]", "password"),
    ("secret=s3cr3t!", "secret=[REDACTED:secret]", "secret"),
    ("client_secret=abc123XYZ", "client_secret=[REDACTED:secret]", "secret"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key = "
     "[REDACTED:secret]", "secret"),
    ("api_key=0123456789abcdef", "api_key=[REDACTED:api-key]", "api-key"),
    ("X-API-KEY: 0123456789abcdef", "X-API-KEY: [REDACTED:api-key]", "api-key"),
    ("token: 9f8e7d6c5b4a", "token: [REDACTED:token]", "token"),
    ("GITHUB_TOKEN=abc", "GITHUB_TOKEN=[REDACTED:token]", "token"),
    ('{"password": "hunter 2"}', '{"password": "[REDACTED:password]"}', "password"),
    ("secret='two words'", "secret='[REDACTED:secret]'", "secret"),
])
def test_assignments_keep_the_key_and_redact_the_value(text: str, expected: str,
                                                       kind: str) -> None:
    assert redact(text) == (expected, (kind,))


def test_assignment_to_a_known_token_reports_the_token_kind() -> None:
    redacted, kinds = redact(f"token: {GITHUB}")
    assert redacted == "token: [REDACTED:github-token]"
    assert kinds == ("github-token",)


def test_url_password() -> None:
    redacted, kinds = redact("DATABASE_URL is postgres://app:pa55word@db:5432/main")
    assert redacted == "DATABASE_URL is postgres://app:[REDACTED:url-password]@db:5432/main"
    assert kinds == ("url-password",)


def test_unterminated_private_key_block_is_redacted_to_the_end() -> None:
    redacted, kinds = redact("key: -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBx")
    assert redacted == "key: [REDACTED:private-key]"
    assert kinds == ("private-key",)


def test_several_secrets_several_kinds_sorted_once_each() -> None:
    text = (f"api_key={OPENAI[:3]}zzz then password=hunter2 and password=letmein1, "
            f"plus {AWS}")
    redacted, kinds = redact(text)
    assert kinds == ("api-key", "aws-access-key-id", "password")
    assert "hunter2" not in redacted and "letmein1" not in redacted and AWS not in redacted
    assert redacted.count("[REDACTED:password]") == 2


def test_text_around_a_private_key_is_kept() -> None:
    redacted, kinds = redact(f"before\n{PEM}\nafter")
    assert redacted == "before\n[REDACTED:private-key]\nafter"


@pytest.mark.parametrize("text", [
    "my shoe size is now 41",
    "Nick moved to Berlin in 2026 and wears 41 EU.",
    "The password policy changed: passwords now need 12 characters.",
    "Password: reset it through the portal, not by mail.",
    "the session token: expired yesterday, so log in again",
    "She kept the secret: nobody knew until the launch.",
    "Set max_tokens=1024 and token_count: 512 for the run.",
    "the secretary: Jane Doe",
    "He was the bearer of bad news.",
    "Bearer authentication is what the API expects.",
    "Authorization: Bearer <token>",
    r"the runner reads C:\ops\sample\runner.env at start",
    r"C:\Users\nick\AppData\Local\Temp\build-2026.log",
    "/etc/passwd: No such file or directory",
    "upgraded from v2.3.1 to 2.4.0-rc.1+build.5; python 3.11.7",
    "request id 550e8400-e29b-41d4-a716-446655440000 failed",
    "fixed in 3f786850e387550fdab836ed7e6dc881de23001b (short 3f78685)",
    "the task-force-for-hyphenated-compound-words met",
    "ask-me-anything-session-for-the-whole-team-2026",
    "see https://example.com:8443/docs?page=2 and ssh://git@github.com:org/repo",
    "AKIA is a prefix; AKIA1234 is too short to be a key id",
    "I use jj, ripgrep and a sk-8 board",
])
def test_no_false_positives(text: str) -> None:
    assert redact(text) == (text, ())


def test_empty_text() -> None:
    assert redact("") == ("", ())


def test_redact_rejects_non_text() -> None:
    with pytest.raises(TypeError):
        redact(None)  # type: ignore[arg-type]


# --- redact_fields -------------------------------------------------------------------------


def test_redact_fields_runs_over_every_text_field() -> None:
    fact = WrittenFact(
        subject="system/ci", attribute="deploy_key", value=f"uses {GITHUB}",
        unit="password=hunter2", source=f"chat:{AWS}", quote="my password: hunter2 and "
        f"token {JWT}", valid_from="2026", confidence=0.5)
    cleaned, records = redact_fields(fact)
    assert cleaned.value == "uses [REDACTED:github-token]"
    assert cleaned.unit == "password=[REDACTED:password]"
    assert cleaned.source == "chat:[REDACTED:aws-access-key-id]"
    assert cleaned.quote == "my password: [REDACTED:password] and token [REDACTED:jwt]"
    # Untouched fields survive as they were.
    assert (cleaned.subject, cleaned.attribute, cleaned.valid_from, cleaned.confidence) == (
        "system/ci", "deploy_key", "2026", 0.5)
    assert records == (
        {"field": "value", "kinds": ["github-token"]},
        {"field": "unit", "kinds": ["password"]},
        {"field": "source", "kinds": ["aws-access-key-id"]},
        {"field": "quote", "kinds": ["jwt", "password"]},
    )


def test_redact_fields_covers_the_attribute() -> None:
    fact = WrittenFact(subject="me", attribute=f"key_{AWS}", value="x")
    cleaned, records = redact_fields(fact)
    assert cleaned.attribute == "key_[REDACTED:aws-access-key-id]"
    assert records == ({"field": "attribute", "kinds": ["aws-access-key-id"]},)


def test_redact_fields_without_secrets_returns_the_same_fact() -> None:
    fact = WrittenFact(subject="person/nick", attribute="shoe_size", value="41", unit="EU",
                       quote="my shoe size is now 41")
    cleaned, records = redact_fields(fact)
    assert cleaned == fact and records == ()


# --- the corpus every entry point is audited with (tests/test_secrets_audit.py) -----------

from tests.secrets_corpus import NOT_SECRETS, SECRETS  # noqa: E402


@pytest.mark.parametrize(("kind", "text", "needle"), SECRETS,
                         ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(SECRETS)])
def test_every_secret_shape_is_redacted(kind: str, text: str, needle: str) -> None:
    redacted, kinds = redact(f"note: {text} (end)")
    assert needle not in redacted
    assert kind in kinds
    assert f"[REDACTED:{kind}]" in redacted


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_text_is_untouched(text: str) -> None:
    assert redact(text) == (text, ())


@pytest.mark.parametrize("digits", ["4111111111111112", "5555555555554445", "378282246310006"])
def test_card_shaped_numbers_failing_luhn_are_kept(digits: str) -> None:
    assert redact(f"ref {digits}") == (f"ref {digits}", ())


def test_a_redaction_that_overflows_its_field_is_cut_with_a_marker() -> None:
    from factstore.redaction import FIELD_LIMITS, TRUNCATED
    fact = WrittenFact(subject="me", attribute="pin", value="x", unit="pw=a password=b secret=c",
                       cardinality=None, valid_from=None, valid_to=None, observed_at=None,
                       source="s", quote="q", confidence=None)
    cleaned, records = redact_fields(fact)
    assert len(cleaned.unit) == FIELD_LIMITS["unit"] and cleaned.unit.endswith(TRUNCATED)
    assert records[0]["field"] == "unit"

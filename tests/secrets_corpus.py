"""Secret shapes for the redaction tests: (kind, text as someone would write it, the part
that must never be stored). Fakes with the right shape; none is a live credential. The
prefixes are split from the tails so no scanner mistakes this file for a leak."""

from __future__ import annotations

PEM_BODY = "MIIEowIBAAKCAQEA7bq3x9Vb0xYzQWERTYasdfgh1234567890"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
       "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

#: (kind, text, needle): the needle is what redaction must remove.
SECRETS: tuple[tuple[str, str, str], ...] = (
    ("private-key", f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----",
     PEM_BODY),
    ("jwt", f"the session token is {JWT} for now", JWT),
    ("github-token", "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"),
    ("github-token", "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvw",
     "11ABCDEFG0123456789_abcdefghijklmnopqrstuvw"),
    ("slack-token", "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOp", "1234567890123-AbCdEfGhIjKlMnOp"),
    ("api-key", "sk-proj-" + "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji0Hg9Fe", "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji0Hg9Fe"),
    ("api-key", "sk-ant-" + "api03-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0"),
    ("google-api-key", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
    ("aws-access-key-id", "AKIA" + "IOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"),
    ("aws-secret-key", f"the AWS secret is {AWS_SECRET} on the box", AWS_SECRET),
    ("stripe-key", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"),
    ("stripe-key", "rk_test_" + "51Hq2kLmNoPqRsTuVwXyZ012", "51Hq2kLmNoPqRsTuVwXyZ012"),
    ("gitlab-token", "glpat-" + "xY9zA8bC7dE6fG5hI4jK", "xY9zA8bC7dE6fG5hI4jK"),
    ("npm-token", "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("pypi-token", "pypi-AgE" + "IcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejEyMzQ1",
     "IcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejEyMzQ1"),
    ("sendgrid-key", "SG." + "ngeVfQFYQlKU0ufo8x5d1A.TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr",
     "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"),
    ("google-oauth-token", "ya29." + "a0AfH6SMBx7hQ2kLmNoPqRsTuVwXyZ", "a0AfH6SMBx7hQ2kLmNoPqRsTuVwXyZ"),
    ("digitalocean-token", "dop_v1_" + "a" * 32 + "0123456789abcdef" * 2, "0123456789abcdef" * 2),
    ("shopify-token", "shpat_" + "0123456789abcdef0123456789ABCDEF", "0123456789abcdef0123456789ABCDEF"),
    ("twilio-key", "SK" + "0123456789abcdef0123456789abcdef", "SK0123456789abcdef0123456789abcdef"),
    ("mailgun-key", "key-" + "0123456789abcdef0123456789abcdef", "key-0123456789abcdef0123456789abcdef"),
    ("huggingface-token", "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345", "AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    ("age-secret-key", "AGE-SECRET-KEY-1" + "QYZ8" * 14, "QYZ8" * 14),
    ("bearer-token", "Authorization: Bearer a1b2c3d4e5f6g7h8i9j0zz", "a1b2c3d4e5f6g7h8i9j0zz"),
    ("url-password", "postgres://deploy:Hx7pQ2mWz9@db.internal:5432/app", "Hx7pQ2mWz9"),
    ("url-password", "redis://:Rp4sW0rdZ8@cache.internal:6379", "Rp4sW0rdZ8"),
    ("password", "DB_PASSWORD=correct-horse-battery-7", "correct-horse-battery-7"),
    ("password", "my password is Tr0ub4dor&3xyz", "Tr0ub4dor&3xyz"),
    ("password", "the wifi passcode was 88213377", "88213377"),
    ("secret", "client_secret: 'qW3eR5tY7uI9oP'", "qW3eR5tY7uI9oP"),
    ("api-key", "X-API-KEY: 9c1f0e2d3b4a59687766aa", "9c1f0e2d3b4a59687766aa"),
    ("card-number", "card 4111 1111 1111 1111 exp 12/29", "4111 1111 1111 1111"),
    ("card-number", "charged 5555555555554444 twice", "5555555555554444"),
    ("card-number", "amex 3782-822463-10005 on file", "3782-822463-10005"),
)

#: Ordinary text that must come through untouched.
NOT_SECRETS: tuple[str, ...] = (
    "Upgrade to v2.3.1 before Friday.",
    "The commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it.",
    "Request id 123e4567-e89b-12d3-a456-426614174000 timed out.",
    "Order 1234567812345678 shipped.",  # 16 digits, fails Luhn
    "Call +44 20 7946 0958 after 5pm.",
    "ISBN 978-3-16-148410-0 is the second edition.",
    "The password policy is stored in the wiki.",
    "Reset your password via the portal.",
    "max_tokens=4096 and token_count: 12",
    "C:\\Users\\nick\\AppData\\Local\\Temp",
    "The bearer of bad news arrived at 10:30.",
    "Timestamp 2026-01-01T00:00:00Z, build 20260101.3",
    "base64 of hello is aGVsbG8=",
)

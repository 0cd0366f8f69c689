"""Entity ids: UUIDv7 (RFC 9562), time-ordered, so ids sort in creation order and index
well. Python 3.11's uuid module has no uuid7; this is the RFC's layout: 48 bits of Unix
milliseconds, the version, 12 random bits, the variant, 62 random bits."""

from __future__ import annotations

import os
import time
import uuid


def uuid7(ms: int | None = None) -> uuid.UUID:
    """A new UUIDv7 (``ms``: the Unix time in milliseconds it carries, default now)."""
    ms = int(time.time() * 1000) if ms is None else ms
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms & (2**48 - 1)) << 80
    value |= 0x7 << 76
    value |= (rand >> 62 & 0xFFF) << 64
    value |= 0b10 << 62
    value |= rand & (2**62 - 1)
    return uuid.UUID(int=value)

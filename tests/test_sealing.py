"""The sealed-value envelope and the master key (factstore/sealing.py): pure, no database."""

from __future__ import annotations

import base64
import os
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.errors import FactStoreError, SealError
from factstore.sealing import (
    KEY_BYTES,
    Envelope,
    is_sealed,
    load_master_key,
    new_data_key,
    open_sealed,
    seal,
    unwrap_key,
    wrap_key,
)

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
BINDING = {"scope": "team:ops", "row_id": 42, "version": 1, "field": "value"}


def _sealed(text: str = "Oslo", key: bytes = KEY, **binding) -> str:
    sealed = seal(key, text, **{**BINDING, **binding})
    assert sealed is not None
    return sealed


def _flip(sealed: str, index: int) -> str:
    raw = bytearray(base64.b64decode(sealed.removeprefix("fs1:")))
    raw[index] ^= 0x01
    return "fs1:" + base64.b64encode(bytes(raw)).decode()


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Oslo", "", "München – 東京 🚀", "a\x00b\nc", "x" * 10_000])
def test_seal_then_open_gives_the_text_back(text: str) -> None:
    sealed = _sealed(text)
    assert is_sealed(sealed)
    assert text not in sealed or text == ""
    assert open_sealed(KEY, sealed, **BINDING) == text


def test_none_stays_none_both_ways() -> None:
    assert seal(KEY, None, **BINDING) is None
    assert open_sealed(KEY, None, **BINDING) is None


def test_a_row_id_given_as_text_is_the_same_binding() -> None:
    assert open_sealed(KEY, _sealed("x"), **{**BINDING, "row_id": "42"}) == "x"


def test_every_seal_uses_a_new_nonce() -> None:
    first, second = _sealed("same"), _sealed("same")
    assert first != second
    assert Envelope.parse(first, "a").nonce != Envelope.parse(second, "b").nonce
    assert open_sealed(KEY, first, **BINDING) == open_sealed(KEY, second, **BINDING) == "same"


def test_the_envelope_is_prefix_nonce_ciphertext_and_tag() -> None:
    sealed = _sealed("abc")
    assert sealed.startswith("fs1:")
    envelope = Envelope.parse(sealed, "it")
    assert len(envelope.nonce) == 24
    assert len(envelope.ciphertext) == len("abc") + 16
    assert envelope.encode() == sealed


def test_is_sealed_recognises_only_envelopes() -> None:
    assert is_sealed(_sealed())
    assert not is_sealed("Oslo")
    assert not is_sealed(None)
    assert not is_sealed(b"fs1:AAAA")


def test_new_data_keys_are_random_32_bytes() -> None:
    keys = {new_data_key() for _ in range(20)}
    assert len(keys) == 20
    assert all(len(k) == KEY_BYTES == 32 for k in keys)


# -- failures -------------------------------------------------------------------------------


def test_a_seal_error_is_a_factstore_error() -> None:
    assert issubclass(SealError, FactStoreError)


def test_a_wrong_key_fails_loudly() -> None:
    with pytest.raises(SealError, match="did not open.*wrong key"):
        open_sealed(OTHER_KEY, _sealed(), **BINDING)


@pytest.mark.parametrize(("part", "other"), [
    ("scope", "team:dev"),
    ("row_id", 43),
    ("row_id", "42 "),
    ("version", 2),
    ("field", "unit"),
])
def test_each_part_of_the_binding_is_checked(part: str, other: object) -> None:
    with pytest.raises(SealError, match="wrong binding") as caught:
        open_sealed(KEY, _sealed(), **{**BINDING, part: other})
    assert caught.value.__cause__ is not None  # chained, but a SealError is what comes out


def test_parts_that_concatenate_alike_are_different_bindings() -> None:
    sealed = _sealed(scope="a|b", row_id="c")
    for scope, row_id in [("a", "b|c"), ("a|b|c", ""), ('a|b","c', "")]:
        with pytest.raises(SealError):
            open_sealed(KEY, sealed, **{**BINDING, "scope": scope, "row_id": row_id})


@pytest.mark.parametrize("index", [0, 23, 24, 26, -16, -1], ids=[
    "nonce-first", "nonce-last", "ciphertext-first", "ciphertext-last", "tag-first",
    "tag-last"])
def test_a_flipped_byte_anywhere_fails(index: int) -> None:
    sealed = _sealed("abc")
    with pytest.raises(SealError, match="tampered"):
        open_sealed(KEY, _flip(sealed, index), **BINDING)


@pytest.mark.parametrize(("text", "message"), [
    ("Oslo", "not a sealed value"),
    ("", "not a sealed value"),
    ("fs1:", "truncated"),
    ("fs1:!!!!", "not base64"),
    ("fs1:QUJD", "truncated"),
    ("fs1:é", "not base64"),
    ("fs1:" + base64.b64encode(b"\x00" * 40).decode(), "did not open"),
    ("FS1:" + base64.b64encode(b"\x00" * 40).decode(), "not a sealed value"),
])
def test_garbage_fails_with_a_seal_error(text: str, message: str) -> None:
    with pytest.raises(SealError, match=message):
        open_sealed(KEY, text, **BINDING)


def test_a_truncated_envelope_fails() -> None:
    sealed = _sealed("a longer value than the tag")
    for cut in (1, 4, 8, len(sealed) - 10):
        with pytest.raises(SealError):
            open_sealed(KEY, sealed[:-cut], **BINDING)


def test_a_value_that_is_not_text_fails() -> None:
    with pytest.raises(SealError, match="not a sealed value"):
        open_sealed(KEY, b"fs1:AAAA", **BINDING)  # type: ignore[arg-type]
    with pytest.raises(SealError, match="only text"):
        seal(KEY, 42, **BINDING)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", [b"", b"short", bytes(33), "x" * 32])
def test_a_key_of_the_wrong_size_fails(key) -> None:
    with pytest.raises(SealError, match="32 bytes"):
        seal(key, "x", **BINDING)
    with pytest.raises(SealError, match="32 bytes"):
        open_sealed(key, _sealed(), **BINDING)
    with pytest.raises(SealError, match="32 bytes"):
        wrap_key(key, KEY, scope="s", version=1)
    with pytest.raises(SealError, match="32 bytes"):
        wrap_key(KEY, key, scope="s", version=1)


# -- wrapped data keys ----------------------------------------------------------------------


def test_wrap_then_unwrap_gives_the_data_key_back() -> None:
    data_key = new_data_key()
    wrapped = wrap_key(KEY, data_key, scope="team:ops", version=3)
    assert is_sealed(wrapped)
    assert base64.b64encode(data_key).decode() not in wrapped
    assert unwrap_key(KEY, wrapped, scope="team:ops", version=3) == data_key
    assert wrap_key(KEY, data_key, scope="team:ops", version=3) != wrapped


@pytest.mark.parametrize(("master", "scope", "version"), [
    (OTHER_KEY, "team:ops", 3),
    (KEY, "team:dev", 3),
    (KEY, "team:ops", 4),
])
def test_unwrap_with_another_master_scope_or_version_fails(master, scope, version) -> None:
    wrapped = wrap_key(KEY, new_data_key(), scope="team:ops", version=3)
    with pytest.raises(SealError, match="did not open"):
        unwrap_key(master, wrapped, scope=scope, version=version)


def test_a_wrapped_key_is_not_a_sealed_value_and_back() -> None:
    # The two AADs differ, so neither opens as the other even under one key.
    wrapped = wrap_key(KEY, OTHER_KEY, scope="team:ops", version=1)
    with pytest.raises(SealError):
        open_sealed(KEY, wrapped, scope="team:ops", row_id=1, version=1, field="value")
    with pytest.raises(SealError):
        unwrap_key(KEY, _sealed(scope="team:ops", version=1), scope="team:ops", version=1)


def test_a_tampered_wrap_fails() -> None:
    wrapped = wrap_key(KEY, new_data_key(), scope="s", version=1)
    with pytest.raises(SealError, match="tampered"):
        unwrap_key(KEY, _flip(wrapped, 30), scope="s", version=1)


# -- properties -----------------------------------------------------------------------------

_scopes = st.text(max_size=30)
_row_ids = st.one_of(st.integers(min_value=0, max_value=2**63 - 1), st.text(max_size=20))
_versions = st.integers(min_value=0, max_value=2**31 - 1)
_fields = st.text(max_size=30)


@settings(max_examples=200, deadline=None)
@given(text=st.text(), scope=_scopes, row_id=_row_ids, version=_versions, field=_fields)
def test_property_any_text_round_trips(text, scope, row_id, version, field) -> None:
    binding = {"scope": scope, "row_id": row_id, "version": version, "field": field}
    sealed = seal(KEY, text, **binding)
    assert is_sealed(sealed)
    assert open_sealed(KEY, sealed, **binding) == text


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=50), scope=_scopes, row_id=_row_ids, version=_versions,
       field=_fields, data=st.data())
def test_property_any_changed_binding_part_fails(text, scope, row_id, version, field,
                                                 data) -> None:
    binding = {"scope": scope, "row_id": row_id, "version": version, "field": field}
    sealed = seal(KEY, text, **binding)
    part = data.draw(st.sampled_from(sorted(binding)), label="part")
    strategy = {"scope": _scopes, "row_id": _row_ids, "version": _versions,
                "field": _fields}[part]
    # row_id 7 and "7" are one binding (it is bound as text), so compare as text
    other = data.draw(strategy.filter(lambda v: str(v) != str(binding[part])), label="other")
    with pytest.raises(SealError):
        open_sealed(KEY, sealed, **{**binding, part: other})


@settings(max_examples=100, deadline=None)
@given(garbage=st.text())
def test_property_garbage_never_opens_and_never_raises_anything_else(garbage) -> None:
    for candidate in (garbage, "fs1:" + garbage):
        with pytest.raises(SealError):
            open_sealed(KEY, candidate, **BINDING)


# -- the master key -------------------------------------------------------------------------


@pytest.fixture()
def no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTSTORE_MASTER_KEY", raising=False)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_master_key_from_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FACTSTORE_MASTER_KEY", base64.b64encode(KEY).decode())
    assert load_master_key(tmp_path, create=False) == KEY
    assert load_master_key(tmp_path, create=True) == KEY
    assert not (tmp_path / "master.key").exists()  # the environment wins; no file is made


def test_the_environment_wins_over_a_key_file(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("FACTSTORE_MASTER_KEY", raising=False)
    from_file = load_master_key(tmp_path, create=True)
    monkeypatch.setenv("FACTSTORE_MASTER_KEY", base64.b64encode(KEY).decode() + "\n")
    assert load_master_key(tmp_path, create=False) == KEY != from_file


@pytest.mark.parametrize(("value", "message"), [
    ("not base64!", "not base64"),
    ("QUJ", "not base64"),
    ("QUJD=", "holds 3 bytes, not 32"),
    (base64.b64encode(bytes(16)).decode(), "holds 16 bytes, not 32"),
    (base64.b64encode(bytes(33)).decode(), "holds 33 bytes, not 32"),
])
def test_a_bad_master_key_in_the_environment_says_how_to_make_one(monkeypatch, tmp_path,
                                                                  value, message) -> None:
    monkeypatch.setenv("FACTSTORE_MASTER_KEY", value)
    with pytest.raises(SealError, match=message) as caught:
        load_master_key(tmp_path, create=True)
    assert "FACTSTORE_MASTER_KEY" in str(caught.value)
    assert "base64.b64encode(os.urandom(32))" in str(caught.value)
    assert not (tmp_path / "master.key").exists()


def test_a_key_file_is_made_0600_and_reused(no_env_key, tmp_path: Path) -> None:
    key = load_master_key(tmp_path, create=True)
    path = tmp_path / "master.key"
    assert len(key) == 32
    assert _mode(path) == 0o600
    assert base64.b64decode(path.read_text().strip()) == key
    assert load_master_key(tmp_path, create=True) == key
    assert load_master_key(tmp_path, create=False) == key
    assert [p.name for p in tmp_path.iterdir()] == ["master.key"]  # no temporary file left


def test_a_key_file_is_0600_whatever_the_umask(no_env_key, tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        load_master_key(tmp_path, create=True)
    finally:
        os.umask(old)
    assert _mode(tmp_path / "master.key") == 0o600


def test_racing_creators_agree_on_one_key(no_env_key, tmp_path: Path) -> None:
    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: load_master_key(tmp_path, create=True), range(16)))
    assert len(keys) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["master.key"]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_key_file_others_may_read_is_refused(no_env_key, tmp_path: Path, mode: int) -> None:
    load_master_key(tmp_path, create=True)
    path = tmp_path / "master.key"
    path.chmod(mode)
    for create in (False, True):
        with pytest.raises(SealError, match="chmod 600"):
            load_master_key(tmp_path, create=create)
    path.chmod(0o600)
    assert len(load_master_key(tmp_path, create=False)) == 32


def test_no_key_and_no_create_fails(no_env_key, tmp_path: Path) -> None:
    with pytest.raises(SealError, match="no master key.*FACTSTORE_MASTER_KEY"):
        load_master_key(tmp_path, create=False)
    assert not (tmp_path / "master.key").exists()


@pytest.mark.parametrize("content", ["", "not base64!\n", base64.b64encode(bytes(8)).decode(),
                                     "é"])
def test_a_bad_key_file_fails(no_env_key, tmp_path: Path, content: str) -> None:
    path = tmp_path / "master.key"
    path.write_text(content, encoding="utf-8")
    path.chmod(0o600)
    with pytest.raises(SealError, match="master.key") as caught:
        load_master_key(tmp_path, create=True)
    assert "os.urandom(32)" in str(caught.value)
    assert path.read_text(encoding="utf-8") == content  # never replaced


def test_a_key_file_that_is_a_folder_fails(no_env_key, tmp_path: Path) -> None:
    (tmp_path / "master.key").mkdir(mode=0o700)
    with pytest.raises(SealError, match="not a regular file"):
        load_master_key(tmp_path, create=True)


def test_home_none_is_factstore_home(no_env_key, monkeypatch, tmp_path: Path) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("FACTSTORE_HOME", str(home))
    key = load_master_key(None, create=True)
    assert (home / "master.key").is_file()
    assert load_master_key(str(home), create=False) == key
    assert load_master_key(home, create=False) == key


def test_home_none_defaults_to_dot_factstore(no_env_key, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("FACTSTORE_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    key = load_master_key(None, create=True)
    assert base64.b64decode((tmp_path / ".factstore" / "master.key").read_text()) == key


def test_a_key_from_the_file_seals_and_opens(no_env_key, tmp_path: Path) -> None:
    master = load_master_key(tmp_path, create=True)
    data_key = new_data_key()
    wrapped = wrap_key(master, data_key, scope="s", version=1)
    again = unwrap_key(load_master_key(tmp_path, create=False), wrapped, scope="s", version=1)
    sealed = seal(data_key, "v", scope="s", row_id=1, version=1, field="value")
    assert open_sealed(again, sealed, scope="s", row_id=1, version=1, field="value") == "v"

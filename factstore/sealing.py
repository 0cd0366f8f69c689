"""The sealed-value envelope: XChaCha20-Poly1305 with the binding in the AAD (seed 002 §6).

Why only some columns: in a sealed scope the value, unit, quote and source of a fact are
sealed, but its subject and attribute stay plaintext, so a timeline is still selected (and
indexed) without decrypting anything; only the rows it returns are opened.

The envelope: a sealed column holds ``fs1:`` followed by base64 of a random 24-byte nonce
and the ciphertext (with its 16-byte tag). The version prefix makes a sealed string
recognisable (``is_sealed``) and leaves room for another format later. The additional data
(AAD) binds the envelope to ``("factstore/v1", scope, str(row_id), key version, column)``,
encoded as a JSON list so no two bindings encode alike; a value copied to another row,
column or scope, or opened with another key version or key, fails to open instead of
reading as someone else's value. Every failure is a SealError naming what failed; no
garbage and no raw PyNaCl exception ever comes out. None (a missing unit) stays None.

Each scope's data keys (32 random bytes per key version) are stored wrapped by the master
key with the same envelope and AAD ``("factstore/key/v1", scope, version)``. The master key
is never in the database: ``FACTSTORE_MASTER_KEY`` (base64 of 32 bytes) or the file
``<home>/master.key`` (base64 text, mode 0600; a file others may read is refused).
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from nacl import bindings
from nacl.exceptions import CryptoError
from nacl.utils import random as random_bytes

from factstore.errors import SealError

__all__ = ["KEY_BYTES", "MASTER_KEY_ENV", "Envelope", "is_sealed", "load_master_key",
           "new_data_key", "open_sealed", "seal", "unwrap_key", "wrap_key"]

KEY_BYTES = bindings.crypto_aead_xchacha20poly1305_ietf_KEYBYTES  # 32
MASTER_KEY_ENV = "FACTSTORE_MASTER_KEY"
_NONCE = bindings.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES  # 24
_TAG = bindings.crypto_aead_xchacha20poly1305_ietf_ABYTES  # 16
_PREFIX = "fs1:"
_VALUE_AAD = "factstore/v1"
_KEY_AAD = "factstore/key/v1"
_KEY_FILE = "master.key"
_MAKE_ONE = ('make one with: python -c "import base64,os;'
             'print(base64.b64encode(os.urandom(32)).decode())"')


# -- the envelope ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Envelope:
    """The parts of a sealed string: ``fs1:`` + base64(nonce + ciphertext)."""

    nonce: bytes
    ciphertext: bytes  # with its authentication tag

    def encode(self) -> str:
        return _PREFIX + base64.b64encode(self.nonce + self.ciphertext).decode("ascii")

    @classmethod
    def parse(cls, text: object, what: str) -> Envelope:
        """The envelope ``text`` holds; SealError when it is not one (``what`` names it)."""
        if not is_sealed(text):
            raise SealError(f"{what} is not a sealed value (no {_PREFIX} envelope)")
        assert isinstance(text, str)
        try:
            raw = base64.b64decode(text[len(_PREFIX):], validate=True)
        except (binascii.Error, ValueError) as exc:
            raise SealError(f"{what} is not a sealed value: its envelope is not base64") from exc
        if len(raw) < _NONCE + _TAG:
            raise SealError(f"{what} is not a sealed value: its envelope is truncated "
                            f"({len(raw)} bytes, at least {_NONCE + _TAG} expected)")
        return cls(raw[:_NONCE], raw[_NONCE:])


def is_sealed(text: object) -> bool:
    """Whether ``text`` is a sealed envelope (not whether it opens)."""
    return isinstance(text, str) and text.startswith(_PREFIX)


def _aad(*parts: object) -> bytes:
    # A JSON list cannot be read two ways: no part can pretend to be two, whatever it holds.
    return json.dumps([str(p) for p in parts], separators=(",", ":")).encode("utf-8")


def _check_key(key: object, what: str) -> bytes:
    if not isinstance(key, bytes) or len(key) != KEY_BYTES:
        size = f"{len(key)} bytes" if isinstance(key, bytes) else type(key).__name__
        raise SealError(f"{what} must be {KEY_BYTES} bytes, got {size}")
    return key


def _encrypt(key: bytes, plaintext: bytes, aad: bytes) -> str:
    nonce = random_bytes(_NONCE)  # random per value: 24 bytes make a collision negligible
    ciphertext = bindings.crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext, aad, nonce,
                                                                     key)
    return Envelope(nonce, ciphertext).encode()


def _decrypt(key: bytes, text: object, aad: bytes, what: str) -> bytes:
    envelope = Envelope.parse(text, what)
    try:
        return bindings.crypto_aead_xchacha20poly1305_ietf_decrypt(
            envelope.ciphertext, aad, envelope.nonce, key)
    except CryptoError as exc:
        raise SealError(f"{what} did not open: a wrong key, a wrong binding (scope, row, key "
                        "version, column) or a tampered value") from exc


# -- values ---------------------------------------------------------------------------------


def new_data_key() -> bytes:
    """A fresh random data key (32 bytes)."""
    return random_bytes(KEY_BYTES)


def seal(data_key: bytes, plaintext: str | None, *, scope: str, row_id: int | str,
         version: int, field: str) -> str | None:
    """``plaintext`` sealed for this scope, row, key version and column (None stays None)."""
    if plaintext is None:
        return None
    if not isinstance(plaintext, str):
        raise SealError(f"only text is sealed; {field} of row {row_id} in {scope} is a "
                        f"{type(plaintext).__name__}")
    return _encrypt(_check_key(data_key, "a data key"), plaintext.encode("utf-8"),
                    _aad(_VALUE_AAD, scope, row_id, version, field))


def open_sealed(data_key: bytes, sealed: str | None, *, scope: str, row_id: int | str,
                version: int, field: str) -> str | None:
    """The plaintext of an envelope sealed with exactly this key and binding (None stays
    None); SealError otherwise."""
    if sealed is None:
        return None
    what = f"{field} of row {row_id} in {scope} (key v{version})"
    raw = _decrypt(_check_key(data_key, "a data key"), sealed,
                   _aad(_VALUE_AAD, scope, row_id, version, field), what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:  # authentic, so sealed by something other than seal()
        raise SealError(f"{what} opened but is not UTF-8 text") from exc


# -- data keys ------------------------------------------------------------------------------


def wrap_key(master: bytes, data_key: bytes, *, scope: str, version: int) -> str:
    """A data key sealed by the master key, bound to its scope and version."""
    return _encrypt(_check_key(master, "the master key"), _check_key(data_key, "a data key"),
                    _aad(_KEY_AAD, scope, version))


def unwrap_key(master: bytes, wrapped: str, *, scope: str, version: int) -> bytes:
    """The data key a wrap holds; SealError for another master key, scope or version."""
    what = f"the key v{version} of {scope}"
    key = _decrypt(_check_key(master, "the master key"), wrapped,
                   _aad(_KEY_AAD, scope, version), what)
    return _check_key(key, f"{what} (unwrapped)")


# -- the master key -------------------------------------------------------------------------


def load_master_key(home: str | os.PathLike[str] | None, *, create: bool) -> bytes:
    """The master key: ``FACTSTORE_MASTER_KEY`` when set (an empty value counts as unset,
    like ``FACTSTORE_HOME``), else ``<home>/master.key``, made (mode 0600) when ``create``
    and missing. ``home`` None is $FACTSTORE_HOME or ./.factstore. A key file that group
    or others may read is refused; no key at all is a SealError."""
    env = os.environ.get(MASTER_KEY_ENV)
    if env:
        return _decode_master(env, MASTER_KEY_ENV)
    # Imported here: the pure envelope code needs no database driver to load.
    from factstore.store.server import factstore_home  # the home folder's one definition
    path = Path(factstore_home(home)) / _KEY_FILE
    if create:
        _create_key_file(path)  # no-op when it exists
    return _read_key_file(path)


def _decode_master(text: str, where: str) -> bytes:
    try:
        key = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SealError(f"{where} is not base64 of {KEY_BYTES} bytes; {_MAKE_ONE}") from exc
    if len(key) != KEY_BYTES:
        raise SealError(f"{where} holds {len(key)} bytes, not {KEY_BYTES}; {_MAKE_ONE}")
    return key


def _read_key_file(path: Path) -> bytes:
    # Checked on the open file, not the path, so the file read is the file checked.
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        raise SealError(f"no master key: set {MASTER_KEY_ENV} or restore {path} (sealed "
                        "values cannot be opened without it)") from None
    except OSError as exc:
        raise SealError(f"the master key file {path} cannot be read: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SealError(f"the master key file {path} is not a regular file")
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            raise SealError(f"the master key file {path} is open to group or others (mode "
                            f"{mode:o}); chmod 600 {path}")
        data = os.read(fd, 4096)  # a key file is 45 bytes; never read a huge file whole
    finally:
        os.close(fd)
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise SealError(f"{path} is not base64 of {KEY_BYTES} bytes; {_MAKE_ONE}") from exc
    return _decode_master(text, str(path))


def _create_key_file(path: Path) -> None:
    """Make ``path`` with a new key unless it exists. The key is written to a private
    temporary file (O_EXCL, mode 0600: never readable by others, even briefly) and linked
    into place, so no reader sees a half-written key and a racing creator's key is kept."""
    if path.exists():
        return
    line = (base64.b64encode(new_data_key()).decode("ascii") + "\n").encode("ascii")
    temp = path.with_name(f".{path.name}.{os.getpid()}.{random_bytes(6).hex()}")
    try:
        _write_private(temp, line)
        try:
            os.link(temp, path)  # fails, keeping the other key, if it exists by now
        except FileExistsError:
            return
        except OSError:  # a filesystem without hard links: create in place instead
            try:
                _write_private(path, line)
            except FileExistsError:
                return
        _sync_dir(path.parent)
    except OSError as exc:
        raise SealError(f"the master key file {path} could not be made: {exc}") from exc
    finally:
        temp.unlink(missing_ok=True)


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(handle.fileno(), 0o600)  # exactly 0600, whatever the umask
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())  # a lost key after a crash loses every sealed value


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""Scope methods, mixed into Store: list scopes, seal one, rotate its key, forget it.
Owner only: each acts on a whole scope, whoever wrote in it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from factstore import sealing
from factstore.errors import InvalidInput
from factstore.principals import split_scope
from factstore.store import forgetting, sealed
from factstore.store.forgetting import ForgetReport


@dataclass(frozen=True)
class ScopeInfo:
    """A scope as listed: its rows and, if sealed, its live key version."""

    scope: str
    facts: int
    documents: int
    key_version: int | None

    @property
    def sealed(self) -> bool:
        return self.key_version is not None


@dataclass(frozen=True)
class KeyChange:
    """A scope sealed or its key rotated: the live key version and the rows (re)sealed."""

    scope: str
    key_version: int
    rows_sealed: int
    retired_versions: tuple[int, ...] = ()


class ScopeTools:
    """Sealing, rotation and forgetting; mixed into Store."""

    def _scope_arg(self, scope: Any) -> str:
        self._owner_only("acting on a whole scope")  # type: ignore[attr-defined]
        if not isinstance(scope, str):
            raise InvalidInput(f"scope must be a stored scope such as 'acme/user-nick', got "
                               f"{type(scope).__name__}")
        split_scope(scope)
        return scope

    def scopes(self) -> list[ScopeInfo]:
        """Every scope that holds rows or a key, with its counts and key version."""
        self._owner_only("listing scopes")  # type: ignore[attr-defined]
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute(
                "SELECT s.scope, (SELECT count(*) FROM facts WHERE access_scope = s.scope) AS f, "
                "(SELECT count(*) FROM documents WHERE access_scope = s.scope) AS d, "
                "(SELECT max(version) FROM scope_keys WHERE access_scope = s.scope AND "
                "retired_at IS NULL) AS v FROM (SELECT DISTINCT access_scope AS scope FROM "
                "facts UNION SELECT access_scope FROM documents UNION SELECT access_scope "
                "FROM scope_keys) s ORDER BY 1")
            return [ScopeInfo(r["scope"], r["f"], r["d"], r["v"]) for r in cur.fetchall()]

    def seal_scope(self, scope: str) -> KeyChange:
        """Seal a scope: make its data key (wrapped by the master key, which is made under
        the home if there is none and FACTSTORE_MASTER_KEY is unset) and seal the rows it
        holds already. From now on its writes are sealed before they commit."""
        scope = self._scope_arg(scope)
        master = self._master_key(create=True)  # type: ignore[attr-defined]
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT 1 FROM scope_keys WHERE access_scope = %s FOR UPDATE", (scope,))
            if cur.fetchone() is not None:
                raise InvalidInput(f"scope {scope} is sealed already; rotate_key makes a new "
                                   "key version")
            _add_key(cur, master, scope, 1)
            return KeyChange(scope, 1, sealed.seal_pending(cur, sealed.required(), scope, 1))

    def rotate_key(self, scope: str) -> KeyChange:
        """Re-seal every sealed row of a scope under a new key version; the old versions are
        then destroyed, so a leaked old key opens nothing."""
        scope = self._scope_arg(scope)
        master = self._master_key()  # type: ignore[attr-defined]
        with self._tx() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT version FROM scope_keys WHERE access_scope = %s ORDER BY version "
                        "FOR UPDATE", (scope,))
            versions = [r["version"] for r in cur.fetchall()]
            if not versions:
                raise InvalidInput(f"scope {scope} is not sealed; seal_scope seals it")
            new = versions[-1] + 1
            _add_key(cur, master, scope, new)
            keyring = sealed.required()
            count = sum(sealed.reseal(cur, keyring, scope, old, new) for old in versions)
            count += sealed.seal_pending(cur, keyring, scope, new)
            cur.execute("DELETE FROM scope_keys WHERE access_scope = %s AND version <> %s",
                        (scope, new))
            return KeyChange(scope, new, count, tuple(versions))

    def forget_scope(self, scope: str) -> ForgetReport:
        """Delete every row of a scope (facts, documents, claims, evidence, history,
        conflicts, the entity layer, and other scopes' rows that name them) and destroy its
        keys. The one deletion the store makes; it cannot be undone."""
        scope = self._scope_arg(scope)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return forgetting.forget(cur, scope)


def _add_key(cur: Any, master: bytes, scope: str, version: int) -> None:
    wrapped = sealing.wrap_key(master, sealing.new_data_key(), scope=scope, version=version)
    cur.execute("INSERT INTO scope_keys (access_scope, version, wrapped, created_at) "
                "VALUES (%s, %s, %s, %s)", (scope, version, wrapped, datetime.now(UTC)))

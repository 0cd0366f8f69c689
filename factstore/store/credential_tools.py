"""Credential methods, mixed into Store: make, list and revoke tokens, and turn a token into
the principal a server runs a request as. Only the owner manages credentials."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from factstore.errors import AccessDenied, InvalidToken
from factstore.principals import LOCAL_WORKSPACE, Principal
from factstore.store import credentials as credential_sql
from factstore.store import server
from factstore.store.credentials import TokenCreated, TokenInfo


class CredentialTools:
    """Tokens and principals; mixed into Store (which provides _tx and principal)."""

    principal: Principal
    user_id: str

    def _owner_only(self, what: str) -> None:
        if not self.principal.owner:
            raise AccessDenied(f"{what} needs an owner credential (the local admin token)")

    def create_token(self, user: str, *, workspace: str = LOCAL_WORKSPACE,
                     scopes: list[str] | None = None, owner: bool = False,
                     label: str | None = None) -> TokenCreated:
        """A new token for ``user`` in ``workspace``, granted ``scopes`` (default: the user's
        personal scope and the workspace's shared memory; ``['user-nick']`` alone makes a
        token that may not read or write shared memory). The token is in the result only."""
        self._owner_only("creating a token")
        with self._tx() as cur:  # type: ignore[attr-defined]
            return credential_sql.create(cur, user, workspace, scopes, owner, label,
                                         datetime.now(UTC))

    def list_tokens(self) -> list[TokenInfo]:
        """Every credential, revoked ones included, without secrets."""
        self._owner_only("listing tokens")
        with self._tx() as cur:  # type: ignore[attr-defined]
            return credential_sql.list_all(cur)

    def revoke_token(self, token_id: str) -> TokenInfo:
        """Revoke a token (kept listed with when it was revoked); its next call is refused."""
        self._owner_only("revoking a token")
        with self._tx() as cur:  # type: ignore[attr-defined]
            return credential_sql.revoke(cur, token_id, datetime.now(UTC))

    def authenticate(self, token: str) -> Principal:
        """The principal a token stands for; InvalidToken when it is not a live token."""
        self._owner_only("checking a token")
        with self._tx() as cur:  # type: ignore[attr-defined]
            return credential_sql.authenticate(cur, token)

    def admin_token_path(self, home: str | os.PathLike[str] | None = None) -> Path:
        """Where the local admin token is kept: ``<home>/admin-token``."""
        return credential_sql.admin_token_path(server.factstore_home(home))

    def local_admin_token(self, home: str | os.PathLike[str] | None = None) -> str:
        """The local owner token, kept in ``<home>/admin-token`` (mode 0600): read, or made
        when missing or no longer valid (a new database under the same home)."""
        self._owner_only("the admin token")
        path = self.admin_token_path(home)
        token = credential_sql.read_token_file(path)
        if token is not None:
            try:
                if self.authenticate(token).owner:
                    return token
            except InvalidToken:
                pass
        made = self.create_token(self.user_id if _plain(self.user_id) else "owner",
                                 owner=True, label="local admin")
        credential_sql.write_token_file(Path(path), made.token)
        return made.token


def _plain(user: Any) -> bool:
    return isinstance(user, str) and credential_sql.USER_ID.match(user) is not None

"""Credentials: a token names a principal (seed 002 §6).

A token is ``fst_<id>_<secret>``. The store keeps only the SHA-256 of the secret, so a
leaked table leaks no token; the token itself is shown once, when it is made. A revoked
token stays listed (who had access, until when), never deleted.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from factstore.errors import InvalidInput, InvalidToken, NotFound
from factstore.principals import (
    SHARED,
    Principal,
    check_scope_name,
    check_workspace,
    fold,
    personal_scope,
    split_scope,
)

__all__ = ["ADMIN_TOKEN_FILE", "TokenCreated", "TokenInfo", "admin_token_path",
           "authenticate", "create", "list_all", "revoke"]

ADMIN_TOKEN_FILE = "admin-token"
_TOKEN = re.compile(r"^fst_(tok-[0-9a-f]{12})_([A-Za-z0-9_-]{20,100})$")
USER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


@dataclass(frozen=True)
class TokenInfo:
    """A credential as listed: never its secret."""

    id: str
    user: str
    workspace: str
    scopes: tuple[str, ...]
    owner: bool
    label: str | None
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class TokenCreated:
    """A new credential: ``token`` is shown this once and kept nowhere."""

    token_id: str
    token: str
    principal: Principal


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _info(row: dict[str, Any]) -> TokenInfo:
    return TokenInfo(row["id"], row["user_id"], row["workspace"], tuple(row["scopes"]),
                     row["owner"], row["label"], row["created_at"], row["revoked_at"])


def principal_of(info: TokenInfo) -> Principal:
    return Principal(user=info.user, workspace=info.workspace, scopes=info.scopes,
                     owner=info.owner, token_id=info.id)


def granted_scopes(user: str, workspace: str, scopes: Any) -> tuple[str, ...]:
    """The stored scopes a token is granted: its user's personal scope and the workspace's
    shared memory by default; named scopes (``channel-ops`` or ``acme/channel-ops``) are
    folded with the token's workspace, and one of another workspace is refused."""
    if scopes is None:
        return (personal_scope(workspace, user), fold(workspace, SHARED))
    if isinstance(scopes, str) or not isinstance(scopes, list | tuple) or not scopes:
        raise InvalidInput("scopes must be a non-empty list such as ['user-nick', "
                           "'shared-main', 'channel-ops'], or left out for the defaults")
    folded = []
    for scope in scopes:
        if isinstance(scope, str) and "/" in scope:
            owner_ws, _ = split_scope(scope)
            if owner_ws != workspace:
                raise InvalidInput(f"scope {scope!r} belongs to workspace {owner_ws!r}, not "
                                   f"{workspace!r}: a token reads one workspace")
            folded.append(scope)
        else:
            folded.append(fold(workspace, check_scope_name(scope)))
    return tuple(dict.fromkeys(folded))


def create(cur: Any, user: Any, workspace: Any, scopes: Any, owner: bool, label: Any,
           at: datetime) -> TokenCreated:
    if not isinstance(user, str) or not USER_ID.match(user):
        raise InvalidInput(f"user {str(user)[:40]!r} is not a user id: 1-64 letters, digits, "
                           "'.', '_', '@' or '-'")
    check_workspace(workspace)
    if not isinstance(owner, bool):
        raise InvalidInput(f"owner must be true or false, got {owner!r}")
    if label is not None and (not isinstance(label, str) or len(label) > 200):
        raise InvalidInput("label must be text of at most 200 characters")
    granted = () if owner else granted_scopes(user, workspace, scopes)
    token_id = "tok-" + secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    cur.execute("INSERT INTO credentials (id, secret_hash, user_id, workspace, scopes, owner, "
                "label, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (token_id, _digest(secret), user, workspace, list(granted), owner, label, at))
    principal = Principal(user=user, workspace=workspace, scopes=granted, owner=owner,
                          token_id=token_id)
    return TokenCreated(token_id, f"fst_{token_id}_{secret}", principal)


def authenticate(cur: Any, token: Any) -> Principal:
    """The principal of a live token; InvalidToken for anything else (one message for
    unknown, wrong and revoked, so a guess learns nothing)."""
    match = _TOKEN.match(token) if isinstance(token, str) else None
    if match is None:
        raise InvalidToken("no valid token: send 'Authorization: Bearer fst_...' (make one "
                           "with `factstore tokens create`)")
    cur.execute("SELECT * FROM credentials WHERE id = %s", (match.group(1),))
    row = cur.fetchone()
    if (row is None or row["revoked_at"] is not None
            or not hmac.compare_digest(row["secret_hash"], _digest(match.group(2)))):
        raise InvalidToken(f"token {match.group(1)} is unknown, wrong or revoked; ask an owner "
                           "for a new one (`factstore tokens create`)")
    return principal_of(_info(row))


def list_all(cur: Any) -> list[TokenInfo]:
    cur.execute("SELECT * FROM credentials ORDER BY created_at, id")
    return [_info(r) for r in cur.fetchall()]


def revoke(cur: Any, token_id: Any, at: datetime) -> TokenInfo:
    if not isinstance(token_id, str) or not re.match(r"^tok-[0-9a-f]{12}$", token_id):
        raise InvalidInput(f"{str(token_id)[:40]!r} is not a token id (tok- and 12 hex digits; "
                           "`factstore tokens list` shows them)")
    cur.execute("UPDATE credentials SET revoked_at = coalesce(revoked_at, %s) WHERE id = %s "
                "RETURNING *", (at, token_id))
    row = cur.fetchone()
    if row is None:
        raise NotFound(f"no token {token_id}; `factstore tokens list` shows them")
    return _info(row)


def admin_token_path(home: Path) -> Path:
    return home / ADMIN_TOKEN_FILE


def read_token_file(path: Path) -> str | None:
    """The token in a 0600 file, or None when there is none."""
    try:
        return path.read_text().strip() or None
    except FileNotFoundError:
        return None


def write_token_file(path: Path, token: str) -> None:
    """Write a token readable by its owner only (created 0600, never briefly wider)."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(token + "\n")
    os.replace(tmp, path)

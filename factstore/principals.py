"""Who is asking, and which scopes they may read (seed 002 §6).

A credential maps to a principal: a user in a workspace, and the scopes it was granted.
Scopes are ``user-<id>`` (personal), ``channel-<name>`` and ``shared-<name>``, each folded
with the workspace id (``acme/user-nick``), so two workspaces never share a row. No caller
ever names a scope for a read: the principal's scopes are the read. A write lands in the
principal's personal scope, or with ``shared: true`` in the workspace's shared memory
(``<workspace>/shared-main``), which the principal must have been granted.

The store opened in-process (the library, the CLI without a server, the notebooks, the
batch jobs) acts as the local owner: ``LOCAL_WORKSPACE``, reading every scope, as the
database owner it is. A narrowed principal is what a token gives.

Pure: names and folding, no database.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from factstore.errors import AccessDenied, InvalidInput

__all__ = [
    "LOCAL_WORKSPACE", "SHARED", "Principal", "check_scope_name", "check_workspace", "fold",
    "local_owner", "personal_scope", "scope_kind", "shared_scope", "split_scope",
]

LOCAL_WORKSPACE = "local"
#: the workspace's shared memory, where ``shared: true`` writes land
SHARED = "shared-main"
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_LOCAL = re.compile(r"^(user|channel|shared)-[a-z0-9][a-z0-9-]{0,63}$")
_SLUG = re.compile(r"[^a-z0-9-]+")


def _slug(name: str) -> str:
    """A scope-safe name. Case folds (as a user's ``me`` subject does); a long name, or one
    with characters a scope cannot hold, keeps a digest, so two users never fold into one."""
    slug = _SLUG.sub("-", name.lower()).strip("-")
    if slug and len(slug) <= 48 and slug == name.lower():
        return slug
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return f"{slug[:39].strip('-')}-{digest}".strip("-")


def check_workspace(workspace: object) -> str:
    """A workspace id: 1-64 of a-z, 0-9 and '-', starting with a letter or digit."""
    if not isinstance(workspace, str) or not _NAME.match(workspace):
        raise InvalidInput(f"workspace {str(workspace)[:40]!r} is not a workspace id: use 1-64 "
                           "lowercase letters, digits and '-', e.g. 'acme'")
    return workspace


def check_scope_name(scope: object) -> str:
    """A scope inside a workspace: user-<id>, channel-<name> or shared-<name>."""
    if not isinstance(scope, str) or not _LOCAL.match(scope):
        raise InvalidInput(f"scope {str(scope)[:60]!r} is not a scope: use user-<id>, "
                           "channel-<name> or shared-<name> (lowercase letters, digits, '-')")
    return scope


def fold(workspace: str, scope: str) -> str:
    """The stored scope: the workspace id and the scope, so no two workspaces share one."""
    return f"{check_workspace(workspace)}/{check_scope_name(scope)}"


def split_scope(folded: str) -> tuple[str, str]:
    """(workspace, scope) of a stored scope; InvalidInput when it is not one."""
    workspace, sep, scope = str(folded).partition("/")
    if not sep:
        raise InvalidInput(f"scope {str(folded)[:60]!r} is not a stored scope "
                           "(<workspace>/<user|channel|shared>-<name>)")
    return check_workspace(workspace), check_scope_name(scope)


def personal_scope(workspace: str, user: str) -> str:
    """The user's personal scope in the workspace."""
    return fold(workspace, "user-" + _slug(user))


def shared_scope(workspace: str) -> str:
    """The workspace's shared memory."""
    return fold(workspace, SHARED)


def scope_kind(folded: str | None) -> str | None:
    """'personal', 'channel' or 'shared' for a stored scope (None for None)."""
    if folded is None:
        return None
    scope = folded.partition("/")[2] or folded
    return {"user": "personal", "channel": "channel"}.get(scope.partition("-")[0], "shared")


@dataclass(frozen=True)
class Principal:
    """A user in a workspace and the scopes it may read (and so write).

    ``owner`` is the database owner: it reads every scope and manages credentials, keys
    and forgetting. A token's principal is narrowed: it reads exactly ``scopes``.
    """

    user: str
    workspace: str
    scopes: tuple[str, ...]
    owner: bool = False
    #: the credential it came from (None in-process)
    token_id: str | None = None

    @property
    def personal(self) -> str:
        """Where a write lands unless it is shared."""
        return personal_scope(self.workspace, self.user)

    @property
    def shared(self) -> str:
        """Where ``shared: true`` writes land."""
        return shared_scope(self.workspace)

    @property
    def home(self) -> str:
        """Where a call's rows land by default: the personal scope, or for a credential
        without one (a channel's bot) its first scope."""
        if self.owner or self.personal in self.scopes or not self.scopes:
            return self.personal
        return self.scopes[0]

    def may_read(self, folded: str) -> bool:
        return self.owner or folded in self.scopes

    def write_scope(self, shared: bool) -> str:
        """The scope a write lands in; AccessDenied when shared memory was not granted."""
        target = self.shared if shared else self.home
        if not self.may_read(target):
            what = "the workspace's shared memory" if shared else "its personal scope"
            raise AccessDenied(f"this credential may not write {what} ({target}); ask an "
                               "owner for a token granting it"
                               + (", or write without shared: true" if shared else ""))
        return target


def local_owner(user: str) -> Principal:
    """The in-process store: the local workspace's owner, acting as ``user``."""
    return Principal(user=user, workspace=LOCAL_WORKSPACE, scopes=(), owner=True)

"""uv workspaces: which members `uv sync` installs with a project (read from parsed
`pyproject.toml` tables; nothing is run), for launches in the project (`project.plugins`) and
for a Dockerfile's `RUN uv sync`.

uv's documentation (concepts/projects/workspaces): a `[tool.uv.workspace]` table makes its
folder the workspace root; `members` and `exclude` are globs of folders, each holding a
`pyproject.toml`; the root is a member too. "`uv run` and `uv sync` operate on the workspace
root by default", and a dependency is "provided by the workspace" when `[tool.uv.sources]`
says `{ workspace = true }` (the root's sources apply to every member unless the member gives
its own). So a plain `uv sync` installs the project, the members its dependencies and default
groups (`dev`, or `[tool.uv] default-groups`) name with a workspace source, and, transitively,
the members those depend on (their dependencies only: groups are the project's own). Every other
member is installed only by `uv sync --all-packages` or `--package NAME`, which a file of the
tree does not say: it is not counted. A workspace root without a `[project]` table (a virtual
workspace) has nothing of its own to sync, and `uv sync` there installs every member (uv pull
request 4636, "Sync all packages in a virtual workspace").

concepts/projects/sync: "If the project does not define a build system, it will not be
installed" (`[tool.uv] package = true` or `false` decides instead): such a member brings its
dependencies but never its own entry points.
"""

from __future__ import annotations

import posixpath
import re
from fnmatch import fnmatchcase
from typing import Callable, Iterator

from ..records import record
from .packaging import table

Listing = Callable[[str], "frozenset[str]"]  # the names in a folder
Tables = Callable[[str], "dict | None"]  # a folder's parsed pyproject.toml

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


@record(unsafe_hash=True)
class Member:
    """A workspace member `uv sync` installs with the project: its folder, and why."""

    folder: str
    reason: str


@record(unsafe_hash=True)
class Groups:
    """The dependency groups a sync takes: the defaults (`--no-default-groups` drops them),
    `--group NAME`, `--all-groups`, less `--no-dev` / `--no-group NAME`."""

    defaults: bool = True
    include: frozenset[str] = frozenset()
    exclude: frozenset[str] = frozenset()
    every: bool = False

    def chosen(self, data: dict | None) -> list[str]:
        groups = table(data, "dependency-groups")
        defaults = table(data, "tool", "uv").get("default-groups", ["dev"])
        named = list(groups) if defaults == "all" else [group for group in defaults if isinstance(group, str)]
        taken = list(groups) if self.every else [*(named if self.defaults else []), *self.include]
        return [group for group in taken if group not in self.exclude]


DEFAULT_GROUPS = Groups()


def workspace_table(data: dict | None) -> dict | None:
    found = table(data, "tool", "uv", "workspace")
    return found if found and isinstance(found.get("members"), list) else None


def members(root: str, workspace: dict, listing: Listing) -> list[str]:
    """The member folders of the workspace rooted at `root` (the root first)."""
    found = [root]
    excluded = [pattern for pattern in workspace.get("exclude") or [] if isinstance(pattern, str)]
    for pattern in workspace.get("members") or []:
        if not isinstance(pattern, str) or pattern.startswith("/") or ".." in pattern.split("/"):
            continue
        for folder in _glob(root, [part for part in pattern.split("/") if part not in ("", ".")], listing):
            relative = posixpath.relpath(folder, root)
            if "pyproject.toml" in listing(folder) and not any(fnmatchcase(relative, p.strip("/")) for p in excluded):
                found.append(posixpath.normpath(folder))
    return list(dict.fromkeys(found))


def _glob(folder: str, parts: list[str], listing: Listing, depth: int = 0) -> Iterator[str]:
    if not parts:
        yield folder
        return
    head, rest = parts[0], parts[1:]
    if head == "**":
        yield from _glob(folder, rest, listing, depth)
        if depth < 8:
            for name in sorted(listing(folder)):
                yield from _glob(posixpath.join(folder, name), parts, listing, depth + 1)
        return
    for name in sorted(listing(folder)):
        if fnmatchcase(name, head):
            yield from _glob(posixpath.join(folder, name), rest, listing, depth)


def installs_itself(data: dict | None) -> bool:
    """Whether syncing installs the project itself (and so its entry points)."""
    package = table(data, "tool", "uv").get("package")
    return package if isinstance(package, bool) else "build-system" in (data or {})


def all_members(root: str, folders: list[str], tables: Tables) -> list[Member]:
    """The members `uv sync` in a virtual workspace root installs: all of them."""
    reason = f"`uv sync` in the virtual workspace root {posixpath.basename(root) or root} installs every member"
    return [Member(folder, reason) for folder in folders if folder != root and installs_itself(tables(folder))]


def installed_members(project: str, root: str, folders: list[str], tables: Tables, groups: Groups = DEFAULT_GROUPS) -> list[Member]:
    """The members besides `project` that a `uv sync` of `project` installs (a plain one unless
    `groups` says otherwise)."""
    by_name = {}
    for folder in folders:
        name = table(tables(folder), "project").get("name")
        if isinstance(name, str):
            by_name[name_key(name)] = folder
    root_sources = table(tables(root), "tool", "uv", "sources")
    found: dict[str, Member] = {}
    pending: list[tuple[str, Groups | None]] = [(project, groups)]
    while pending:
        folder, chosen = pending.pop()
        data = tables(folder)
        sources = {**root_sources, **table(data, "tool", "uv", "sources")}
        for requirement in _requirements(data, chosen):
            name = name_key(requirement)
            member = by_name.get(name)
            source = sources.get(name) or next((v for k, v in sources.items() if name_key(k) == name), None)
            if member is None or member == project or member in found or not _from_workspace(source):
                continue
            found[member] = Member(member, f"`{requirement.strip()}` of {posixpath.basename(folder) or folder}")
            pending.append((member, None))
    return [member for member in found.values() if installs_itself(tables(member.folder))]


def _requirements(data: dict | None, groups: Groups | None) -> Iterator[str]:
    """The names a project depends on: `[project] dependencies`, and (for the project being
    synced) the dependency groups the sync takes."""
    names = list(table(data, "project").get("dependencies") or [])
    if groups is not None:
        uv = table(data, "tool", "uv")
        chosen = groups.chosen(data)
        names += [item for group in chosen for item in table(data, "dependency-groups").get(group) or [] if isinstance(item, str)]
        names += list(uv.get("dev-dependencies") or []) if "dev" in chosen else []
    for requirement in names:
        match = _NAME.match(requirement) if isinstance(requirement, str) else None
        if match is not None:
            yield match.group(1)


def _from_workspace(source: object) -> bool:
    entries = source if isinstance(source, list) else [source]
    return any(isinstance(entry, dict) and entry.get("workspace") is True for entry in entries)


def name_key(name: str) -> str:
    """A project name as uv compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()

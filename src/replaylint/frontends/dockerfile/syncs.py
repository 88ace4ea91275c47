"""`RUN uv sync` in a Dockerfile: the project it syncs (the working directory, or `--project` /
`--directory`), traced back to a folder of the build context, and the logits-processor plugins
of the project and of the uv workspace members the sync installs (`frontends.workspaces`).

uv's `sync` options as its documentation gives them: a plain sync installs the project and the
members it depends on; `--all-packages` every member; `--package NAME` that member and those it
depends on; `--no-install-project`, `--no-install-workspace` and `--no-install-package NAME`
leave them out (their dependencies still come). A project without a build system is not
installed itself. Members are read from the folders the workspace names without a glob and
from `uv.lock` (`[[package]] source = { editable = "packages/ban" }`): a Dockerfile cannot list
the build context's folders, so a glob member the lock does not name stays unknown (silent).

The environment is `UV_PROJECT_ENVIRONMENT` when absolute, else the project's `.venv`
(`--active`: `VIRTUAL_ENV`): the engine sees it through a `PATH` that names its `bin`.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import replace
from typing import Callable

from ...model import Plugin, Span
from .. import packaging
from ..workspaces import Groups, Member, all_members, installed_members, installs_itself, members, name_key, workspace_table
from .sites import prefix_sites
from .stages import Stage

Read = Callable[[str], "str | None"]


def synced_folder(stage: Stage, options: dict[str, str]) -> str | None:
    """The image folder `uv sync` syncs."""
    folder = options.get("--project") or options.get("--directory") or "."
    if not folder.startswith("/") and stage.workdir is None:
        return None
    return posixpath.normpath(posixpath.join(stage.workdir or "/", folder))


def sync_sites(stage: Stage, folder: str, options: dict[str, str]) -> tuple[str, ...]:
    """The `site-packages` of the environment `uv sync` writes."""
    name = "VIRTUAL_ENV" if "--active" in options else "UV_PROJECT_ENVIRONMENT"
    variable = stage.env.get(name)
    if variable is not None:
        value = variable.value or ""
        return prefix_sites(value) if value.startswith("/") else ()
    return () if "--active" in options else prefix_sites(posixpath.join(folder, ".venv"))


def synced_plugins(
    root: str, read: Read, declared: Callable[[str], list[Plugin]], options: dict[str, str], skipped: list[str], how: str, at: Span
) -> list[Plugin]:
    """The plugins a `uv sync` of the context folder `root` installs (`declared`: those a
    folder's packaging declares)."""
    tables: dict[str, dict | None] = {}

    def pyproject(folder: str) -> dict | None:
        if folder not in tables:
            text = read(os.path.join(folder, "pyproject.toml"))
            tables[folder] = None if text is None else packaging.read_toml(text)
        return tables[folder]

    data = pyproject(root)
    if data is None or "--no-install-workspace" in options:
        return []
    workspace = workspace_table(data)
    folders = _member_folders(root, workspace, read) if workspace is not None else [root]
    chosen = _chosen(root, data, folders, pyproject, options)
    skipped_names = {name_key(name) for name in skipped}
    found = []
    for member in chosen:
        name = packaging.table(pyproject(member.folder), "project").get("name")
        if isinstance(name, str) and name_key(name) in skipped_names:
            continue
        for plugin in declared(member.folder):
            found.append(replace(plugin, installed_by=f"{how} ({member.reason})", installed_at=at))
    return found


def _chosen(root: str, data: dict, folders: list[str], pyproject: Callable[[str], dict | None], options: dict[str, str]) -> list[Member]:
    if "--all-packages" in options or ("project" not in data and "--package" not in options):
        every = all_members(root, folders, pyproject)
        own = [Member(root, "the project")] if "project" in data and installs_itself(data) and "--no-install-project" not in options else []
        return own + every
    project = root
    if "--package" in options:
        wanted = name_key(options["--package"])
        project = next((f for f in folders if name_key(str(packaging.table(pyproject(f), "project").get("name", ""))) == wanted), "")
        if not project:
            return []
    own = [] if "--no-install-project" in options or not installs_itself(pyproject(project)) else [Member(project, "the project")]
    return own + installed_members(project, root, folders, pyproject, _groups(options))


def _groups(options: dict[str, str]) -> Groups:
    include = frozenset(filter(None, [options.get("--group")]))
    exclude = frozenset(filter(None, [options.get("--no-group"), "dev" if "--no-dev" in options else None]))
    return Groups("--no-default-groups" not in options, include, exclude, "--all-groups" in options)


def _member_folders(root: str, workspace: dict, read: Read) -> list[str]:
    """The member folders named without a glob, and those `uv.lock` records."""
    known = {posixpath.normpath(pattern) for pattern in workspace.get("members") or [] if isinstance(pattern, str)}
    lock = packaging.read_toml(read(os.path.join(root, "uv.lock")) or "")
    for package in lock.get("package") or []:
        source = package.get("source") if isinstance(package, dict) else None
        for kind in ("editable", "virtual", "directory"):
            path = source.get(kind) if isinstance(source, dict) else None
            if isinstance(path, str) and not path.startswith("/") and ".." not in path.split("/"):
                known.add(posixpath.normpath(path))
    literal = {path for path in known if not any(char in path for char in "*?[")}
    return members(root, workspace, _listing(root, literal, read))


def _listing(root: str, folders: set[str], read: Read) -> Callable[[str], frozenset[str]]:
    """A folder listing that knows only `folders` (relative to `root`) and their pyproject.toml."""

    def names(folder: str) -> frozenset[str]:
        relative = posixpath.relpath(folder, root)
        found = {
            path.split("/")[0] if relative == "." else path[len(relative) + 1 :].split("/")[0] for path in folders if _below(path, relative)
        }
        if relative in folders and read(os.path.join(folder, "pyproject.toml")) is not None:
            found.add("pyproject.toml")
        return frozenset(found)

    return names


def _below(path: str, folder: str) -> bool:
    return path != "." and (folder == "." or path.startswith(folder + "/"))

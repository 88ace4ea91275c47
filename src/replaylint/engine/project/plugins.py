"""The `vllm.logits_processors` plugins installed with a launch's project (`ProjectPins.plugins`):
those its nearest package folder declares (a `pyproject.toml` with only tool settings is not a
package), those of the folders it depends on (`[tool.uv.sources]`, Poetry paths), the uv
workspace members a plain `uv sync` installs with it (`workspaces`), and those of the folders
the requirements files of the walk install (`-e ./plugins/ban`). Folders are read only inside
the walk's top folder (the repository); `frontends.packaging` reads the packaging.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Protocol

from ...files import display
from ...frontends import packaging
from ...frontends.workspaces import all_members, installed_members, members, workspace_table
from ...model import LineIndex, Plugin, Span
from .requirements import logical_lines


class ProjectFiles(Protocol):
    """What the plugins are read through: the run's `ProjectPins`, which lists each folder and
    reads each file once."""

    def _listing(self, directory: str) -> frozenset[str]: ...

    def _parent(self, directory: str) -> str | None: ...

    def _requirement_files(self, directory: str, names: frozenset[str]) -> list[str]: ...

    def _text(self, path: str) -> str | None: ...


class ProjectPlugins:
    """Plugins by launching folder, reading files through the run's `ProjectPins` (each folder
    listed and each file read once)."""

    def __init__(self, files: ProjectFiles) -> None:
        self.files = files
        self._found: dict[str, tuple[Plugin, ...]] = {}
        self._tables: dict[str, dict | None] = {}

    def plugins(self, directory: str) -> tuple[Plugin, ...]:
        if directory not in self._found:
            walk: list[str] = []
            current: str | None = directory
            while current is not None:
                walk.append(current)
                current = self.files._parent(current)
            found: list[Plugin] = []
            package = None
            for current in walk:
                names = self.files._listing(current)
                if package is None and any(self._is_package(os.path.join(current, name)) for name in packaging.PACKAGING if name in names):
                    package = current
                    found += self.folder_plugins(current, "declared by the launch's own project")
                    found += self._dependency_plugins(current, walk[-1])
                    found += self._workspace_plugins(current, walk[walk.index(current) :])
                for requirements in self.files._requirement_files(current, names):
                    found += self._required_plugins(requirements, walk[-1])
            if package is None:
                found += self._workspace_plugins(None, walk)
            self._found[directory] = tuple(dict.fromkeys(found))
        return self._found[directory]

    def folder_plugins(self, folder: str, installed_by: str, installed_at: Span | None = None) -> list[Plugin]:
        """The plugins the packaging files of `folder` declare, installed by `installed_by`."""
        found = []
        for name in packaging.PACKAGING:
            path = os.path.join(folder, name)
            text = self.files._text(path) if name in self.files._listing(folder) else None
            declared = packaging.declared(display(path), text or "")
            found += [replace(plugin, installed_by=installed_by, installed_at=installed_at) for plugin in declared]
        return found

    def _dependency_plugins(self, project: str, top: str) -> list[Plugin]:
        """The plugins of the folders the project's `pyproject.toml` depends on (uv, Poetry)."""
        path = os.path.join(project, "pyproject.toml")
        text = self.files._text(path) if "pyproject.toml" in self.files._listing(project) else None
        found = []
        for folder, what in packaging.pyproject_folders(text) if text else ():
            where = os.path.normpath(os.path.join(project, folder))
            found += self.folder_plugins(where, f"a dependency of {display(path)} ({what})") if _within(where, top) else []
        return found

    def _workspace_plugins(self, project: str | None, above: list[str]) -> list[Plugin]:
        """The plugins of the uv workspace members a plain `uv sync` installs with `project`
        (`workspaces`): the workspace is the nearest folder of the walk from `project` up whose
        `[tool.uv.workspace]` takes `project` in. Without a project, a virtual workspace root
        of the walk installs all its members."""
        for root in above:
            data = self._pyproject(root)
            workspace = workspace_table(data)
            if workspace is None:
                continue
            folders = members(root, workspace, self.files._listing)
            if project is None:
                installed = all_members(root, folders, self._pyproject) if "project" not in (data or {}) else []
                synced = display(os.path.join(root, "pyproject.toml"))
            else:
                installed = installed_members(project, root, folders, self._pyproject) if project in folders else []
                synced = display(os.path.join(project, "pyproject.toml"))
            found = []
            for member in installed:
                found += self.folder_plugins(member.folder, f"a uv workspace member `uv sync` installs with {synced} ({member.reason})")
            return found
        return []

    def _pyproject(self, folder: str) -> dict | None:
        """A folder's parsed `pyproject.toml` (None when absent; empty when not TOML)."""
        if folder not in self._tables:
            text = self.files._text(os.path.join(folder, "pyproject.toml")) if "pyproject.toml" in self.files._listing(folder) else None
            self._tables[folder] = None if text is None else packaging.read_toml(text)
        return self._tables[folder]

    def _is_package(self, path: str) -> bool:
        text = self.files._text(path)
        return text is not None and packaging.is_package(path, text)

    def _required_plugins(self, path: str, top: str) -> list[Plugin]:
        text = self.files._text(path) or ""
        index = LineIndex(display(path), text)
        found = []
        for number, line in logical_lines(text):
            folder = packaging.local_folder(line)
            if folder is not None:
                where = os.path.normpath(os.path.join(os.path.dirname(path), folder))
                start = index.offset(number, 1)
                at = index.span(start, start + len(index.line_text(number).rstrip()))
                found += self.folder_plugins(where, f"installed by {display(path)}:{number} `{line}`", at) if _within(where, top) else []
        return found


def _within(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder

"""The programs of a project that may read a YAML config by path: Hydra's
`@hydra.main(config_path="conf", config_name="config")` and `OmegaConf.load("conf/x.yaml")`,
whose value flow (`frontends.python.flow.yaml_configs`) places findings in the YAML. A YAML
checked on its own (pre-commit names only the changed file) gets those findings from its
readers, and their paths become dependencies of its result (a change in a reader re-judges it).

Bounded: the programs looked at are the Python files under the folder above the YAML's (not
above the checked tree's root), nearest first, at most `MAX_FILES` over `MAX_FOLDERS` folders.
A folder is walked once per run, however many YAMLs under it are checked (a config folder's
files share it), and only a program that names Hydra or OmegaConf, a vLLM engine and the YAML's
name is handed over.
"""

from __future__ import annotations

import os

from ... import files

MAX_FOLDERS = 200
MAX_FILES = 100
_READERS = ("hydra", "OmegaConf")
_ENGINES = ("LLM", "EngineArgs")
_SKIPPED = ("node_modules", "venv", "__pycache__", "site-packages")


class ConfigReaders:
    """The Python programs near YAML configs that may read them, walked once per folder."""

    def __init__(self, roots: tuple[str, ...] | None, max_bytes: int) -> None:
        self.roots = roots  # real paths of the checked trees; None: anywhere
        self.max_bytes = max_bytes
        self._walked: dict[str, list[tuple[str, str]]] = {}  # folder: (path, text) of its readers

    def readers_of(self, path: str) -> list[str]:
        """The programs that may read the YAML at `path` (`config.yaml` or `config` named)."""
        folder = self._start(path)
        if folder not in self._walked:
            self._walked[folder] = self._walk(folder)
        name = os.path.basename(path)
        stem = os.path.splitext(name)[0]
        return [program for program, text in self._walked[folder] if name in text or f'"{stem}"' in text or f"'{stem}'" in text]

    def _start(self, path: str) -> str:
        """The folder above the YAML's, unless that leaves the checked tree (without one, the
        folder replaylint runs in)."""
        folder = os.path.dirname(path) or "."
        parent = os.path.dirname(os.path.realpath(folder))
        if not files.inside(parent, self.roots or (os.path.realpath("."),)):
            return folder
        return os.path.normpath(os.path.join(folder, os.pardir))

    def _walk(self, folder: str) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        seen = 0
        for visited, (current, folders, names) in enumerate(os.walk(folder)):
            if visited >= MAX_FOLDERS:
                break
            folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in _SKIPPED)
            for name in sorted(n for n in names if n.endswith(".py")):
                seen += 1
                if seen > MAX_FILES:
                    return found
                program = os.path.normpath(os.path.join(current, name))
                text = self._text(program)
                if text is not None and any(r in text for r in _READERS) and any(e in text for e in _ENGINES):
                    found.append((program, text))
        return found

    def _text(self, path: str) -> str | None:
        try:
            return files.decode_text(files.read_regular(path, self.max_bytes, follow=False))  # a link may lead out of the tree
        except (files.Unreadable, UnicodeError):
            return None

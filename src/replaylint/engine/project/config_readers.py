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

A framework's config judged as if a program ran it as written (`Launch.config_alone`: a NeMo-RL
config) is judged by the launches of its tree that read it, as their config or as a `defaults:`
parent, when there are any (`launchers_of`), by what they all report about it: the command
lines of shell scripts, Dockerfiles, GitHub Actions workflows and Python programs (`subprocess.run(["vllm",
"serve", "--config", ...])`) under the repository that holds it (the folder with `.git`
above it, inside the checked tree), at most `MAX_LAUNCHERS` that the prefilter lets through (of
`MAX_WALKED` read).
"""

from __future__ import annotations

import os
from typing import Any, Callable

from ... import files

MAX_FOLDERS = 200
MAX_FILES = 100
MAX_LAUNCHERS, MAX_WALKED = 20, 2000  # launchers checked, and scripts and Dockerfiles read for them
_LAUNCHER_KINDS = ("shell", "dockerfile", "python")  # command lines of programs that load a config by path
_READERS = ("hydra", "OmegaConf")
_ENGINES = ("LLM", "EngineArgs")
_SKIPPED = ("node_modules", "venv", "__pycache__", "site-packages")


class ConfigReaders:
    """The Python programs near YAML configs that may read them, walked once per folder."""

    def __init__(self, roots: tuple[str, ...] | None, max_bytes: int) -> None:
        self.roots = roots  # real paths of the checked trees; None: anywhere
        self.max_bytes = max_bytes
        self._walked: dict[str, list[tuple[str, str]]] = {}  # folder: (path, text) of its readers
        self._launchers: dict[str, tuple[list[str], list[str]]] = {}  # repository: its launchers, the folders walked

    def readers_of(self, path: str) -> list[str]:
        """The programs that may read the YAML at `path` (`config.yaml` or `config` named)."""
        folder = self._start(path)
        if folder not in self._walked:
            self._walked[folder] = self._walk(folder)
        name = os.path.basename(path)
        stem = os.path.splitext(name)[0]
        return [program for program, text in self._walked[folder] if name in text or f'"{stem}"' in text or f"'{stem}'" in text]

    def launchers_of(self, path: str) -> tuple[list[str], list[str]]:
        """The files of the repository holding `path` whose command lines may load it, and the
        folders walked for them (a file added there may be one): those under the folder above
        the config's first (`scripts/serve.sh` beside `configs/replay.yaml`), so that a large
        repository's bound is not spent elsewhere before them."""
        top = self._repository(path)
        near = self._start(path)
        if not files.inside(os.path.realpath(near), (os.path.realpath(top),)):
            near = top
        for folder in {near, top}:
            if folder not in self._launchers:
                self._launchers[folder] = self._walk_launchers(folder)
        if near == top:
            return self._launchers[top]
        (close, close_walked), (far, far_walked) = self._launchers[near], self._launchers[top]
        return list(dict.fromkeys([*close, *far]))[:MAX_LAUNCHERS], list(dict.fromkeys([*close_walked, *far_walked]))

    def _repository(self, path: str) -> str:
        """The folder above `path` that holds `.git`, else the highest one inside the checked trees."""
        folder = os.path.dirname(path) or "."
        while not os.path.exists(os.path.join(folder, ".git")):
            parent = os.path.normpath(os.path.join(folder, os.pardir))
            if parent == folder or not files.inside(os.path.realpath(parent), self.roots or (os.path.realpath("."),)):
                break
            folder = parent
        return folder

    def _walk_launchers(self, top: str) -> tuple[list[str], list[str]]:
        from ... import frontends

        found: list[str] = []
        walked: list[str] = []
        seen = 0
        for current, folders, names in os.walk(top):
            walked.append(current)
            folders[:] = sorted(f for f in folders if (f == ".github" or not f.startswith(".")) and f not in _SKIPPED)
            for name in sorted(names):
                launcher = os.path.normpath(os.path.join(current, name))
                kind = frontends.kind_for(launcher)
                if kind not in _LAUNCHER_KINDS and not (kind == "yaml" and files.in_workflows(launcher)):
                    continue
                seen += 1
                if seen > MAX_WALKED:
                    return found, walked
                text = self._text(launcher)
                if text is not None and frontends.relevant(kind, text.encode("utf-8", "surrogateescape")):
                    found.append(launcher)
            if len(walked) >= MAX_FOLDERS or len(found) >= MAX_LAUNCHERS:
                break
        return found[:MAX_LAUNCHERS], walked

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


class ReadBy:
    """What the programs and launchers of YAML configs report in them, each checked once (`check`:
    a file's check beside the one under way)."""

    def __init__(self, roots: tuple[str, ...] | None, max_bytes: int, check: Callable[[str], Any]) -> None:
        self.readers = ConfigReaders(roots, max_bytes)
        self.check = check
        self.checked: dict[str, tuple[list[Any], list[str]]] = {}  # a program: its findings, what it read (itself first)

    def placed_by_readers(self, path: str, reads: list[str], fresh: bool) -> list[Any]:
        """What the programs that read the YAML by path report in it; they and what they read
        join `reads` (`fresh`: texts are being fixed, so a program is checked again)."""
        found: list[Any] = []
        for program in self.readers.readers_of(path):
            findings, read = self._program(program, fresh)
            reads.extend(read)
            found += _placed_in(path, findings)
        return found

    def judged_by_launchers(self, path: str, own: list[Any], reads: list[str], fresh: bool, whole: bool = True) -> list[Any]:
        """A framework's config judged on its own (`Launch.config_alone`, its findings `own`) that
        launches of its tree read: what they all report about it (`_about`: a pre-commit run may
        name the config alone; launches with differing overrides agree only on what holds for
        every way it is launched, each launch's own finding stays its script's); `own` when none
        reads it. Not `whole` (`Launch.source_lines_by_launchers`): only its findings placed
        outside it (a fork's line) are the launchers'; those in it stay."""
        launchers, walked = self.readers.launchers_of(path)
        reads.extend(walked)  # (a launcher added there may read it)
        real, found = os.path.realpath(path), None
        for launcher in launchers:
            findings, read = self._program(launcher, fresh)
            if real in {os.path.realpath(name) for name in read[1:]}:
                reads.extend(read)
                about = [finding for finding in findings if _about(real, launcher, finding)]
                found = about if found is None else _common(found, about)
        if found is None or whole:
            return own if found is None else found
        kept = {_place(finding) for finding in found}
        return [finding for finding in own if os.path.realpath(finding.span.path) == real or _place(finding) in kept]

    def _program(self, program: str, fresh: bool) -> tuple[list[Any], list[str]]:
        if program not in self.checked:
            checked = self.check(program)
            self.checked[program] = (checked.findings, [program, *checked.dependencies])
        return self.checked.pop(program) if fresh else self.checked[program]


def _about(path: str, launcher: str, finding: Any) -> bool:
    """Whether a finding of `launcher`, a launch that read the config at the real path `path`,
    is the config's too: placed in it, pointing at it, or placed in the framework's source the
    launch reaches (a fork's line), not in the launcher's own command lines."""
    places = {os.path.realpath(span.path) for span in (finding.span, *finding.related)}
    return path in places or os.path.realpath(finding.span.path) != os.path.realpath(launcher)


def _common(found: list[Any], more: list[Any]) -> list[Any]:
    """The findings of `found` that `more` makes too: the same rule at the same place of the
    same file (however each launch spells its path)."""
    places = {_place(finding) for finding in more}
    return [finding for finding in found if _place(finding) in places]


def _place(finding: Any) -> tuple[str, str, int, int]:
    return finding.code, os.path.realpath(finding.span.path), finding.span.start, finding.span.end


def _placed_in(path: str, findings: list[Any]) -> list[Any]:
    real = os.path.realpath(path)
    return [finding for finding in findings if os.path.realpath(finding.span.path) == real]

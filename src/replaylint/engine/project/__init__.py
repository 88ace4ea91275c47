"""The vLLM releases a project pins, read from its dependency files.

`ProjectPins(root_hint)` is called with the path of a launching file and answers the vLLM
releases its project pins (`None`: no evidence, the caller falls back to `target-vllm` or the
newest release). It walks up from the file's directory and stops after the git top-level (a
directory holding `.git`), `root_hint`, or the filesystem root, whichever comes first. The
nearest directory holding vLLM evidence decides:

- Locks are what runs: `uv.lock`, `poetry.lock`, `pylock.toml` and `pylock.*.toml` (PEP 751),
  `requirements*.lock` (pinned requirement files). Their exact versions beat every range
  declared next to them.
- Declarations: `pyproject.toml` (`[project]` dependencies and optional-dependencies,
  `[dependency-groups]`, `[tool.uv]` dev-, constraint- and override-dependencies,
  `[tool.poetry]` dependencies and groups, `[tool.pdm]` dev-dependencies), `*requirements*.txt`
  and `requirements/*.txt` with their `-r`/`-c` includes. Constraints narrow the requirements
  they come with; uv's overrides replace them. An exact pin (`==0.31.2`) beats a range that
  admits it: `vllm>=0.30` in pyproject.toml and `vllm==0.31.2` compiled into requirements.txt
  mean 0.31.2 runs.
- A directory that declares vLLM without a lock of its own takes the nearest lock above it when
  every version locked there satisfies its declarations (a uv workspace member under the
  workspace's uv.lock).
- An unpinned `vllm` is no evidence: the walk goes on.

Ranges are judged at every release replaylint knows that they admit, each minor series at its
lowest admitted version (`>=0.31.2,<0.33` -> 0.31.2 and 0.32.0). A range admitting only releases
newer than the newest known one is judged at the lowest of them (the engine applies the newest
rules to it); a range admitting only releases before 0.28 at the highest of them (`<0.28` ->
0.27.1), where replay does not exist yet (RPL007). A range admitting both sides of 0.28
(`vllm>=0.25`) is judged only at the releases with replay: an old floor is almost always a
stale one, a fresh install resolves to a new release, and judging such a range at 0.27 would
flag every replay launch of the project. The same holds across a project's files: releases
without replay are judged only when nothing the project pins has replay.

Environment markers are not evaluated (where a launch runs is unknown): every marked
alternative counts. Specifiers are parsed here (PEP 440 as it applies to final releases, plus
poetry's `^`, `~`, `*` and `||`) rather than by `packaging`, so the answer does not depend on
what else is installed.

The same files pin the RL frameworks whose editions replaylint knows (`package_pin`: verl,
NeMo-RL, SkyRL, prime-rl, TRL, OpenRLHF): an exact version, a range, or a git ref (`nemo-rl @ git+...@v0.7.0`,
`[tool.uv.sources]` `rev`/`tag`/`branch`, the commit a lock records). The nearest directory
that says anything of the package decides, its lock before its declarations. `describe_source`
names them too, so a result cache keyed by it is invalidated when they change.

`plugins` answers the `vllm.logits_processors` entry points installed with a launch's project
(`project.plugins`: its own, its path dependencies', the uv workspace members `uv sync`
installs with it, the folders its requirements files install). `describe_source` names them.

Every directory is listed once and every file read at most once per run, whatever the number
of launching files. Files that cannot be read or parsed are skipped; one that mentions vLLM
leaves a note in `ProjectPins.notes`.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from ... import files
from ...files import display
from ...frameworks.editions import PINNED_PACKAGES
from ...model import Plugin
from ...vllm.releases import Release
from ...workspace.stamps import Stamp, stamp
from .evidence import CONSTRAIN, REQUIRE, Declared, Evidence, Found, PackagePin, Pin, declared, make_pin
from .requirements import (
    Line,
    PackageFound,
    locked_package,
    locked_versions,
    may_hold_vllm,
    normalized_name,
    pyproject_package,
    pyproject_requirements,
    requirement_line_package,
    requirement_line_spec,
    requirement_lines,
)
from .specifiers import Spec

if TYPE_CHECKING:
    from .plugins import ProjectPlugins

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    try:
        import tomli as tomllib  # type: ignore[no-redef]
    except ModuleNotFoundError:
        tomllib = None  # type: ignore[assignment]


MAX_FILE_BYTES = 32 * 1024 * 1024


# The walk -------------------------------------------------------------------------------------

_LOCKS = ("uv.lock", "poetry.lock", "pylock.toml")
_PYLOCK = re.compile(r"pylock\.[^/]+\.toml")
_REQUIREMENTS_LOCK = re.compile(r"(?i)requirements.*\.lock")
_REQUIREMENTS = re.compile(r"(?i).*requirements.*\.txt")


def governed_folder(path: str) -> str | None:
    """The folder whose launches the pin file `path` decides (their vLLM release or framework
    edition), or None for a file that pins nothing: a lock or declaration decides its own folder
    and those below it; a file of a `requirements/` folder is included by its parent's."""
    folder, name = os.path.split(path)
    if name in _LOCKS or name == "pyproject.toml" or _PYLOCK.fullmatch(name) or _REQUIREMENTS_LOCK.fullmatch(name):
        return folder or "."
    if _REQUIREMENTS.fullmatch(name) or (name.endswith(".txt") and os.path.basename(folder) == "requirements"):
        return (os.path.dirname(folder) if os.path.basename(folder) == "requirements" else folder) or "."
    return None


class ProjectPins:
    """The vLLM releases the project of a launching file pins (see the module docstring).

    `pins(path)` -> releases or None; `pins.pin_for(path)` -> `Pin` (releases and sources) or
    None; `pins.describe_source(path)` -> `uv.lock: vllm 0.31.2` or None; `pins.notes`: broken
    pin files that mention vLLM. One instance per run: it caches every directory and file.
    `texts` maps absolute paths to the texts of files being edited, read instead of the disk.
    """

    def __init__(self, root_hint: str | None = None, texts: dict[str, str] | None = None) -> None:
        self.root_hint = os.path.abspath(root_hint) if root_hint else None
        self.texts = dict(texts or {})
        self.notes: list[str] = []
        self.stamps: dict[str, Stamp] = {}  # every folder listed and file read: what the answers rest on
        self._notes_in: dict[str, list[str]] = {}  # the notes each folder's evidence left
        self._pins: dict[str, Pin | None] = {}
        self._locks: dict[str, Pin | None] = {}
        self._names: dict[str, frozenset[str]] = {}
        self._texts: dict[str, str | None] = {}
        self._lines: dict[str, tuple[Line, ...]] = {}
        self._parsed: dict[str, dict | None] = {}
        self._packages: dict[tuple[str, str], PackagePin | None] = {}
        self._plugin_finder: ProjectPlugins | None = None

    def __call__(self, path: str) -> tuple[Release, ...] | None:
        pin = self.pin_for(path)
        return pin.releases if pin else None

    def pin_for(self, path: str) -> Pin | None:
        """The pin of the project holding the file `path`."""
        return self.pin_in(os.path.dirname(os.path.abspath(path)))

    def describe_source(self, path: str) -> str | None:
        """The vLLM pin and the framework pins of the file's project, as text (a cache key)."""
        pin = self.pin_for(path)
        parts = [pin.describe()] if pin else []
        parts += [found.describe() for found in (self.package_pin(path, package) for package in PINNED_PACKAGES) if found]
        parts += [f"plugin {plugin.name} = {plugin.target} at {plugin.span.path}:{plugin.span.start_line}" for plugin in self.plugins(path)]
        return "; ".join(parts) or None

    # logits-processor plugins

    def plugins(self, path: str) -> tuple[Plugin, ...]:
        """The `vllm.logits_processors` plugins installed with the project of the file `path`
        (`project.plugins`)."""
        if self._plugin_finder is None:
            from .plugins import ProjectPlugins

            self._plugin_finder = ProjectPlugins(self)
        return self._plugin_finder.plugins(os.path.dirname(os.path.abspath(path)))

    def package_pin(self, path: str, package: str) -> PackagePin | None:
        """What the project of the file `path` pins of `package` (an RL framework)."""
        return self._package_in(os.path.dirname(os.path.abspath(path)), normalized_name(package))

    def _package_in(self, directory: str, package: str) -> PackagePin | None:
        key = (directory, package)
        if key not in self._packages:
            found = self._package_evidence(directory, package)
            parent = self._parent(directory) if found is None else None
            self._packages[key] = found if found is not None or parent is None else self._package_in(parent, package)
        return self._packages[key]

    def _package_evidence(self, directory: str, package: str) -> PackagePin | None:
        names = self._listing(directory)
        locks = [name for name in _LOCKS if name in names] + sorted(name for name in names if _PYLOCK.fullmatch(name))
        found: list[PackageFound] = []
        for name in locks:
            path = os.path.join(directory, name)
            data = self._toml(path, package)
            found += list(locked_package(data, package, display(path))) if data else []
        if not found:
            if "pyproject.toml" in names:
                path = os.path.join(directory, "pyproject.toml")
                data = self._toml(path, package)
                found += list(pyproject_package(data, package, display(path))) if data else []
            for path in self._requirement_files(directory, names):
                shown = display(path)
                for line in self._requirement_lines(path):
                    requirement = requirement_line_package(line.text, package, f"{shown}:{line.number}") if line.kind == REQUIRE else None
                    found += [requirement] if requirement is not None else []
        if not found:
            return None
        exact = [item.spec.exact() for item in found if item.spec is not None]
        return PackagePin(
            package,
            tuple(str(release) for release in exact if release is not None),
            tuple(item.spec for item in found if item.spec is not None and item.spec.exact() is None),
            tuple(item.ref for item in found if item.ref is not None),
            tuple(dict.fromkeys(item.source for item in found)),
        )

    def notes_for(self, path: str) -> list[str]:
        """The notes the evidence of the file's folder and those above it left (asked after
        `pin_for(path)`)."""
        current: str | None = os.path.dirname(os.path.abspath(path))
        found: list[str] = []
        while current is not None:
            found += self._notes_in.get(current, [])
            current = self._parent(current)
        return found

    def pin_in(self, directory: str) -> Pin | None:
        """The pin of the project holding `directory` (for `show-settings`)."""
        directory = os.path.abspath(directory)
        chain = []
        current: str | None = directory
        while current is not None and current not in self._pins:
            chain.append(current)
            current = self._parent(current)
        for here in reversed(chain):
            parent = self._parent(here)
            above_pin = self._pins.get(parent) if parent else None
            above_lock = self._locks.get(parent) if parent else None
            before = len(self.notes)
            evidence = self._evidence(here)
            self._notes_in[here] = self.notes[before:]
            self._locks[here] = evidence.lock or above_lock
            self._pins[here] = _decide(evidence, above_pin, above_lock)
        return self._pins[directory]

    # directories

    def _listing(self, directory: str) -> frozenset[str]:
        if directory not in self._names:
            self.stamps[directory] = stamp(directory)
            try:
                self._names[directory] = frozenset(os.listdir(directory))
            except OSError:
                self._names[directory] = frozenset()
        return self._names[directory]

    def _parent(self, directory: str) -> str | None:
        if ".git" in self._listing(directory) or directory == self.root_hint:
            return None
        parent = os.path.dirname(directory)
        return None if parent == directory else parent

    def _evidence(self, directory: str) -> Evidence:
        names = self._listing(directory)
        return Evidence(self._lock(directory, names), self._declared(directory, names))

    def _lock(self, directory: str, names: frozenset[str]) -> Pin | None:
        locks = [name for name in _LOCKS if name in names]
        locks += sorted(name for name in names if _PYLOCK.fullmatch(name))
        releases, sources = [], []
        for name in locks:
            path = os.path.join(directory, name)
            data = self._toml(path)
            for version in locked_versions(data) if data else ():
                releases.append(Release.parse(version))
                sources.append(f"{display(path)}: vllm {version}")
        for name in sorted(name for name in names if _REQUIREMENTS_LOCK.fullmatch(name)):
            for found in self._requirements(os.path.join(directory, name)):
                if found.role == REQUIRE and found.spec.exact():
                    releases.append(found.spec.exact())
                    sources.append(found.source)
        return make_pin([release for release in releases if release], sources)

    def _declared(self, directory: str, names: frozenset[str]) -> Declared | None:
        groups: list[list[Found]] = []
        if "pyproject.toml" in names:
            path = os.path.join(directory, "pyproject.toml")
            data = self._toml(path)
            groups.append(list(pyproject_requirements(data, display(path))) if data else [])
        for path in self._requirement_files(directory, names):
            groups.append(self._requirements(path))
        result, empty = declared([group for group in groups if group])
        for spec in empty:
            self.notes.append(f"{display(directory)}: a vLLM requirement admits no release ({_describe_spec(spec)}); it is ignored")
        return result

    def _requirement_files(self, directory: str, names: frozenset[str]) -> list[str]:
        paths = [os.path.join(directory, name) for name in sorted(names) if _REQUIREMENTS.fullmatch(name)]
        if "requirements" in names:
            nested = os.path.join(directory, "requirements")
            paths += [os.path.join(nested, name) for name in sorted(self._listing(nested)) if name.endswith(".txt")]
        return [path for path in paths if os.path.isfile(path)]

    # files

    def _text(self, path: str) -> str | None:
        if path not in self._texts:
            edited = self.texts.get(os.path.abspath(path))
            self._texts[path] = edited if edited is not None else self._read(path)
        return self._texts[path]

    def _read(self, path: str) -> str | None:
        self.stamps[path] = stamp(path)
        try:
            data = files.read_regular(path, MAX_FILE_BYTES)
        except files.TooLarge as error:
            self._note(f"{display(path)}: {error.reason}; its vLLM pins are ignored")
            return None
        except files.Unreadable as error:
            if not error.missing:
                self._note(f"{display(path)}: {error.reason}; its vLLM pins are ignored")
            return None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            if b"vllm" in files.as_utf8(data).lower():
                self._note(f"{display(path)}: not UTF-8; its vLLM pins are ignored")
            return None

    def _toml(self, path: str, package: str = "vllm") -> dict | None:
        """The parsed file, when it mentions `package` (parsed once per run)."""
        text = self._text(path)
        lowered = text.lower() if text is not None else ""
        if package not in lowered and package.replace("-", "_") not in lowered:
            return None
        if path not in self._parsed:
            self._parsed[path] = self._parse_toml(path, text)  # type: ignore[arg-type]
        return self._parsed[path]

    def _parse_toml(self, path: str, text: str) -> dict | None:
        if tomllib is None:
            self._note(f"{display(path)}: reading TOML on Python 3.10 needs `tomli`; its pins are ignored")
            return None
        from ...toml_document import loads  # a number too long is a TOMLDecodeError there

        try:
            return loads(text)
        except tomllib.TOMLDecodeError as error:
            self._note(f"{display(path)}: not valid TOML ({error}); its pins are ignored")
            return None

    def _requirements(self, path: str, role: str = REQUIRE, seen: set[str] | None = None) -> list[Found]:
        """The vLLM requirements of a requirements file and the files it includes."""
        seen = set() if seen is None else seen
        path = os.path.normpath(path)
        if path in seen:
            return []
        seen.add(path)
        found: list[Found] = []
        text = self._text(path)
        if text is None or not may_hold_vllm(text):
            return found
        for line in self._requirement_lines(path):
            if line.kind == REQUIRE:
                # (a line that does not name vLLM is another package's, or a wheel or URL of one)
                spec = requirement_line_spec(line.text) if "vllm" in line.text.lower() else None
                if spec is not None:
                    found.append(Found(spec, f"{display(path)}:{line.number}: {line.text}", role))
            elif "://" not in line.text:
                included_role = CONSTRAIN if line.kind == "constrain" or role == CONSTRAIN else REQUIRE
                found += self._requirements(os.path.join(os.path.dirname(path), line.text), included_role, seen)
        return found

    def _requirement_lines(self, path: str) -> tuple[Line, ...]:
        if path not in self._lines:
            text = self._text(path)
            self._lines[path] = requirement_lines(text) if text else ()
        return self._lines[path]

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)


def _describe_spec(spec: Spec) -> str:
    return " || ".join(",".join(f"{clause.op}{clause.version}" for clause in clauses) for clauses in spec.alternatives)


def _decide(evidence: Evidence, above_pin: Pin | None, above_lock: Pin | None) -> Pin | None:
    """A directory's pin: its lock, else its declarations (locked above when consistent), else
    what holds for its parent."""
    if evidence.lock is not None:
        return evidence.lock
    if evidence.declared is None:
        return above_pin
    if above_lock is not None and evidence.declared.admits_all(above_lock.releases):
        return above_lock
    return evidence.declared.pin

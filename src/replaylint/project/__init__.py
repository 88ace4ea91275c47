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

Every directory is listed once and every file read at most once per run, whatever the number
of launching files. Files that cannot be read or parsed are skipped; one that mentions vLLM
leaves a note in `ProjectPins.notes`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from .vllm.releases import FIRST_WITH_MASK, LAST_WITHOUT_MASK, NEWEST, RELEASES, Release

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    try:
        import tomli as tomllib  # type: ignore[no-redef]
    except ModuleNotFoundError:
        tomllib = None  # type: ignore[assignment]

MAX_FILE_BYTES = 32 * 1024 * 1024
PATCHES_TRIED = 21  # patch releases 0..20 of each known series are tried against a range


# Versions and specifiers ---------------------------------------------------------------------

_VERSION = re.compile(
    r"v?(?:\d+!)?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>alpha|beta|preview|pre|rc|a|b|c)[-_.]?(?P<pre_n>\d+)?)?"
    r"(?P<post>-(?P<post_implicit>\d+)|[-_.]?(?:post|rev|r)[-_.]?(?P<post_n>\d+)?)?"
    r"(?P<dev>[-_.]?dev[-_.]?(?P<dev_n>\d+)?)?"
    r"(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?",
    re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_FINAL = 3

Key = tuple  # (release without trailing zeros, pre, post, dev): orders as PEP 440 does


def _strip_zeros(release: tuple[int, ...]) -> tuple[int, ...]:
    end = len(release)
    while end and release[end - 1] == 0:
        end -= 1
    return release[:end]


def version_key(text: str) -> Key | None:
    """A PEP 440 version as a sortable key; None when `text` is not a version."""
    match = _VERSION.fullmatch(text.strip())
    if match is None:
        return None
    release = _strip_zeros(tuple(int(part) for part in match["release"].split(".")))
    if match["pre"]:
        pre = (_PRE_RANK[match["pre"].lower()], int(match["pre_n"] or 0))
    elif match["dev"] and not match["post"]:
        pre = (-1, 0)  # 1.0.dev1 sorts before 1.0a1
    else:
        pre = (_FINAL, 0)
    post = int(match["post_implicit"] or match["post_n"] or 0) if match["post"] else -1
    dev = (0, int(match["dev_n"] or 0)) if match["dev"] else (1, 0)
    return (release, pre, post, dev)


def _release_key(release: Release) -> Key:
    return (_strip_zeros((release.major, release.minor, release.patch)), (_FINAL, 0), -1, (1, 0))


def _release_parts(text: str) -> tuple[int, ...]:
    match = re.match(r"v?(?:\d+!)?(\d+(?:\.\d+)*)", text.strip())
    return tuple(int(part) for part in match.group(1).split(".")) if match else ()


def _prefix_matches(release: Release, prefix: tuple[int, ...]) -> bool:
    parts = (release.major, release.minor, release.patch) + (0,) * max(0, len(prefix) - 3)
    return parts[: len(prefix)] == prefix


@dataclass(frozen=True)
class Clause:
    """One PEP 440 comparison: `>=0.30`, `==0.31.*`, `~=0.31.0`."""

    op: str
    version: str

    def admits(self, release: Release) -> bool:
        if self.op == "===":
            return self.version.strip() == str(release)
        if self.version.endswith(".*"):
            matches = _prefix_matches(release, _release_parts(self.version[:-2]))
            return matches if self.op == "==" else not matches
        candidate, bound = _release_key(release), version_key(self.version)
        if self.op == "~=":
            prefix = _release_parts(self.version)[:-1]
            return candidate >= bound and _prefix_matches(release, prefix)
        return _COMPARE[self.op](candidate, bound)

    @property
    def release(self) -> Release | None:
        """The release this clause names (`>=1` -> 1.0.0); None for `===` text that is none."""
        parts = _release_parts(self.version.removesuffix(".*"))
        return Release(*(parts + (0, 0))[:3]) if parts else None


_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}
_CLAUSE = re.compile(r"\s*(~=|===|==|!=|<=|>=|<|>)\s*([^\s,;()]+)\s*")


def parse_clause(text: str) -> Clause | None:
    """`>=0.30` -> Clause; None when it is not a valid PEP 440 comparison."""
    match = _CLAUSE.fullmatch(text)
    if match is None:
        return None
    op, version = match.groups()
    if op == "===":
        return Clause(op, version)
    wildcard = version.endswith(".*") and op in ("==", "!=")
    plain = version[:-2] if wildcard else version
    if version_key(plain) is None or (op == "~=" and len(_release_parts(plain)) < 2):
        return None
    return Clause(op, version)


@dataclass(frozen=True)
class Spec:
    """The versions a requirement admits: any one of `alternatives`, each a conjunction.

    PEP 508 gives one alternative; poetry's `||` gives several. An empty alternative admits
    every version: the requirement is unpinned.
    """

    alternatives: tuple[tuple[Clause, ...], ...]

    @property
    def pinned(self) -> bool:
        return bool(self.alternatives) and all(self.alternatives)

    def admits(self, release: Release) -> bool:
        return any(all(clause.admits(release) for clause in clauses) for clauses in self.alternatives)

    def intersect(self, other: Spec) -> Spec:
        return Spec(tuple(mine + theirs for mine in self.alternatives for theirs in other.alternatives))

    def exact(self) -> Release | None:
        """The one version an `==X.Y.Z` pin names, else None."""
        if len(self.alternatives) != 1:
            return None
        for clause in self.alternatives[0]:
            if clause.op in ("==", "===") and not clause.version.endswith(".*"):
                return clause.release
        return None

    def versions(self) -> Iterator[Release]:
        for clauses in self.alternatives:
            for clause in clauses:
                if clause.release is not None:
                    yield clause.release


UNPINNED = Spec(((),))


def parse_specifier(text: str) -> Spec | None:
    """`>=0.30, <0.32` -> Spec; `` -> UNPINNED; None when a clause is not valid."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if not text:
        return UNPINNED
    clauses = tuple(parse_clause(part) for part in text.split(","))
    if any(clause is None for clause in clauses):
        return None
    return Spec((clauses,))  # type: ignore[arg-type]


def _exact(version: str) -> Spec | None:
    return Spec(((Clause("==", version),),)) if version_key(version) is not None else None


# Which releases a range is judged at ----------------------------------------------------------


def _neighbours(release: Release) -> Iterator[Release]:
    major, minor, patch = release.major, release.minor, release.patch
    yield from (release, Release(major, minor, patch + 1), Release(major, minor + 1), Release(major + 1, 0))
    if patch:
        yield Release(major, minor, patch - 1)
    if minor:
        yield Release(major, minor - 1)


def _candidates(spec: Spec) -> set[Release]:
    found = {Release(known.major, known.minor, patch) for known in RELEASES for patch in range(PATCHES_TRIED)}
    found.update((Release(0, 27), LAST_WITHOUT_MASK))
    for release in spec.versions():
        found.update(_neighbours(release))
    return found


def admitted_releases(spec: Spec) -> tuple[Release, ...]:
    """The releases a range is judged at (see the module docstring); () when it admits none."""
    admitted = sorted(release for release in _candidates(spec) if spec.admits(release))
    known_series = {release.series for release in RELEASES}
    lowest: dict[tuple[int, int], Release] = {}
    for release in admitted:
        if release.series in known_series:
            lowest.setdefault(release.series, release)
    if lowest:
        return tuple(lowest.values())
    newer = [release for release in admitted if release.series > NEWEST.series]
    if newer:
        return (newer[0],)
    older = [release for release in admitted if release < FIRST_WITH_MASK]
    return (older[-1],) if older else ()


def prefer_replay(releases: Iterable[Release]) -> tuple[Release, ...]:
    """Sorted and unique; releases without replay only when no release has it."""
    unique = sorted(set(releases))
    with_replay = [release for release in unique if release >= FIRST_WITH_MASK]
    return tuple(with_replay or unique)


# Requirements (PEP 508) and poetry constraints -----------------------------------------------

_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*")
_ARCHIVE = re.compile(r"(?i)^vllm-(\d[^-/]*?)(?:-[^/]*)?\.(?:whl|tar\.gz|zip)$")
_TAG = re.compile(r"@v?(\d+\.\d+(?:\.\d+)?)$")


def normalized_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def is_vllm(name: str) -> bool:
    return normalized_name(name) == "vllm"


def version_from_url(url: str) -> str | None:
    """`.../vllm-0.31.2-cp38-abi3-manylinux1_x86_64.whl` or `git+https://...vllm@v0.31.2`."""
    url = url.strip().split("#", 1)[0]
    archive = _ARCHIVE.match(url.rstrip("/").rsplit("/", 1)[-1])
    if archive:
        return archive.group(1)
    tag = _TAG.search(url)
    return tag.group(1) if tag and "vllm" in url.lower() else None


def parse_requirement(text: str) -> Spec | None:
    """`vllm[audio] (>=0.30, <0.32); python_version >= "3.10"` -> its Spec.

    None when the requirement is not vLLM's or its version cannot be read (`vllm==${V}`).
    """
    match = _NAME.match(text)
    if match is None or not is_vllm(match.group(1)):
        return None
    rest = text[match.end():]
    if rest.startswith("@"):
        version = version_from_url(re.split(r"\s+;|;\s", rest[1:], maxsplit=1)[0])
        return _exact(version) if version else None
    return parse_specifier(rest.split(";", 1)[0])


def _bumped(parts: tuple[int, ...], index: int) -> str:
    return ".".join(str(part) for part in parts[:index] + (parts[index] + 1,))


def _caret(version: str) -> tuple[Clause, ...] | None:
    """Poetry's `^0.31.0`: >=0.31.0,<0.32 (the leftmost non-zero part may not change)."""
    parts = _release_parts(version)
    if not parts or version_key(version) is None:
        return None
    index = next((i for i, part in enumerate(parts) if part), len(parts) - 1)
    return (Clause(">=", version), Clause("<", _bumped(parts, index)))


def _tilde(version: str) -> tuple[Clause, ...] | None:
    """Poetry's `~0.31.2`: >=0.31.2,<0.32 (`~1`: <2)."""
    parts = _release_parts(version)
    if not parts or version_key(version) is None:
        return None
    return (Clause(">=", version), Clause("<", _bumped(parts, min(1, len(parts) - 1))))


def _poetry_clause(token: str) -> tuple[Clause, ...] | None:
    if token in ("*", ""):
        return ()
    if token.startswith("^"):
        return _caret(token[1:])
    if token.startswith("~") and not token.startswith("~="):
        return _tilde(token[1:])
    if token[0].isdigit():
        token = "==" + token
    clause = parse_clause(token)
    return (clause,) if clause else None


def parse_poetry_constraint(text: str) -> Spec | None:
    """`^0.31.0`, `~0.31`, `0.31.*`, `>=0.30,<0.32`, `0.30.1 || 0.31.2` -> Spec."""
    alternatives = []
    for alternative in re.split(r"\|\|?", text):
        joined = re.sub(r"(~=|===|==|!=|<=|>=|<|>|\^|~)\s+", r"\1", alternative.strip())
        clauses: tuple[Clause, ...] = ()
        for token in re.split(r"[\s,]+", joined):
            parsed = _poetry_clause(token)
            if parsed is None:
                return None
            clauses += parsed
        alternatives.append(clauses)
    return Spec(tuple(alternatives))


def poetry_spec(value: Any) -> Spec | None:
    """A `[tool.poetry.dependencies]` value: a constraint, a table, or a list of tables."""
    if isinstance(value, str):
        return parse_poetry_constraint(value)
    if isinstance(value, dict):
        if isinstance(value.get("version"), str):
            return parse_poetry_constraint(value["version"])
        for key in ("tag", "url", "path", "file"):
            found = version_from_url(f"vllm@{value[key]}" if key == "tag" else value[key]) if isinstance(value.get(key), str) else None
            if found:
                return _exact(found)
        return None
    if isinstance(value, list):
        specs = [spec for spec in (poetry_spec(item) for item in value) if spec is not None]
        return Spec(tuple(clauses for spec in specs for clauses in spec.alternatives)) if specs else None
    return None


# What one directory says ----------------------------------------------------------------------

REQUIRE, CONSTRAIN, OVERRIDE = "require", "constrain", "override"


@dataclass(frozen=True)
class Found:
    """One vLLM requirement of a project and where it was written."""

    spec: Spec
    source: str
    role: str = REQUIRE


@dataclass(frozen=True)
class Pin:
    """The releases a project's launches are judged at, and the evidence for them."""

    releases: tuple[Release, ...]
    sources: tuple[str, ...]

    def describe(self) -> str:
        return "; ".join(self.sources)


def make_pin(releases: Iterable[Release], sources: Iterable[str]) -> Pin | None:
    chosen = prefer_replay(releases)
    return Pin(chosen, tuple(dict.fromkeys(sources))) if chosen else None


def _effective(group: list[Found]) -> list[tuple[Spec, list[str]]]:
    """The pinned specs of one requirement set, narrowed by its constraints."""
    overrides = [found for found in group if found.role == OVERRIDE]
    requires = overrides or [found for found in group if found.role == REQUIRE]
    constraints = [found for found in group if found.role == CONSTRAIN and found.spec.pinned]
    if not requires and constraints:
        requires, constraints = constraints[:1], constraints[1:]
    effective = []
    for found in requires:
        spec, sources = found.spec, [found.source]
        for constraint in constraints:
            spec, sources = spec.intersect(constraint.spec), sources + [constraint.source]
        if spec.pinned:
            effective.append((spec, sources))
    return effective


@dataclass(frozen=True)
class Declared:
    """What a directory's declarations admit."""

    pin: Pin
    specs: tuple[Spec, ...]

    def admits_all(self, releases: Iterable[Release]) -> bool:
        return all(any(spec.admits(release) for spec in self.specs) for release in releases)


def declared(groups: list[list[Found]]) -> tuple[Declared | None, list[Spec]]:
    """The directory's declared releases, and the specs admitting no release at all."""
    specs = [item for group in groups for item in _effective(group)]
    exact = [spec.exact() for spec, _ in specs]
    pins = [release for release in exact if release is not None]
    releases: list[Release] = []
    sources: list[str] = []
    empty = []
    for (spec, spec_sources), release in zip(specs, exact):
        if release is None and any(spec.admits(pin) for pin in pins):
            continue  # an exact pin next to it says which of its releases runs
        judged_at = (release,) if release else admitted_releases(spec)
        if not judged_at:
            empty.append(spec)
        releases.extend(judged_at)
        sources.extend(spec_sources)
    pin = make_pin(releases, sources)
    return (Declared(pin, tuple(spec for spec, _ in specs)) if pin else None), empty


@dataclass(frozen=True)
class Evidence:
    lock: Pin | None
    declared: Declared | None


# pyproject.toml and lock files ------------------------------------------------------------------


def _table(data: Any, *keys: str) -> dict:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _pep508(items: Any, where: str, role: str = REQUIRE) -> Iterator[Found]:
    for text in _strings(items):
        spec = parse_requirement(text)
        if spec is not None:
            yield Found(spec, f"{where}: {text.strip()}", role)


def _inline(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_inline(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _poetry(table: dict, where: str) -> Iterator[Found]:
    for name, value in table.items():
        if is_vllm(name):
            spec = poetry_spec(value)
            if spec is not None:
                yield Found(spec, f"{where}: vllm = {_inline(value)}")


def pyproject_requirements(data: dict, display: str) -> Iterator[Found]:
    """Every vLLM requirement of a parsed pyproject.toml."""
    project = _table(data, "project")
    yield from _pep508(project.get("dependencies"), f"{display} [project] dependencies")
    for extra, items in _table(project, "optional-dependencies").items():
        yield from _pep508(items, f"{display} [project.optional-dependencies] {extra}")
    for group, items in _table(data, "dependency-groups").items():
        yield from _pep508(items, f"{display} [dependency-groups] {group}")
    uv = _table(data, "tool", "uv")
    yield from _pep508(uv.get("dev-dependencies"), f"{display} [tool.uv] dev-dependencies")
    yield from _pep508(uv.get("constraint-dependencies"), f"{display} [tool.uv] constraint-dependencies", CONSTRAIN)
    yield from _pep508(uv.get("override-dependencies"), f"{display} [tool.uv] override-dependencies", OVERRIDE)
    for group, items in _table(data, "tool", "pdm", "dev-dependencies").items():
        yield from _pep508(items, f"{display} [tool.pdm.dev-dependencies] {group}")
    poetry = _table(data, "tool", "poetry")
    yield from _poetry(_table(poetry, "dependencies"), f"{display} [tool.poetry.dependencies]")
    yield from _poetry(_table(poetry, "dev-dependencies"), f"{display} [tool.poetry.dev-dependencies]")
    for group, body in _table(poetry, "group").items():
        yield from _poetry(_table(body, "dependencies"), f"{display} [tool.poetry.group.{group}.dependencies]")


_LOCAL_SOURCES = ("editable", "virtual", "directory")


def _locked_version(package: dict) -> str | None:
    """The version of one `[[package]]`/`[[packages]]` entry; None for local checkouts."""
    source = package.get("source")
    if isinstance(source, dict) and (any(key in source for key in _LOCAL_SOURCES) or source.get("type") == "directory"):
        return None
    if any(key in package for key in ("directory", "vcs")) and not isinstance(package.get("version"), str):
        return None
    if isinstance(package.get("version"), str):
        return package["version"]
    wheels = package.get("wheels")
    archives = [item for item in wheels if isinstance(item, dict)] if isinstance(wheels, list) else []
    for archive in archives + [_table(package, "sdist"), _table(package, "archive")]:
        found = version_from_url(str(archive.get("name") or archive.get("url") or archive.get("path") or ""))
        if found:
            return found
    return None


def locked_versions(data: dict) -> list[str]:
    """vLLM versions in uv.lock/poetry.lock (`[[package]]`) or pylock.toml (`[[packages]]`)."""
    packages = data.get("package", data.get("packages"))
    versions = []
    for package in packages if isinstance(packages, list) else []:
        if isinstance(package, dict) and isinstance(package.get("name"), str) and is_vllm(package["name"]):
            version = _locked_version(package)
            if version and Release.parse(version):
                versions.append(version)
    return versions


# requirements files ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One logical line of a requirements file that matters here."""

    number: int
    kind: str  # "require", "include" (-r) or "constrain" (-c)
    text: str


_INCLUDES = {"-r": "include", "--requirement": "include", "-c": "constrain", "--constraint": "constrain"}
_COMMENT = re.compile(r"(^|\s)#.*$")
_OPTIONS = re.compile(r"\s+--?[A-Za-z]")


def logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """Lines joined at trailing backslashes, comments removed, with their first line number."""
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        start = start or number
        if line.endswith("\\") and not _COMMENT.search(line):
            pending += line[:-1] + " "
            continue
        joined = _COMMENT.sub("", pending + line).strip()
        if joined:
            yield start, joined
        pending, start = "", 0
    if pending.strip():
        yield start, _COMMENT.sub("", pending).strip()


def _include(line: str) -> tuple[str, str] | None:
    """(`include`|`constrain`, target) of `-r x`, `-rx`, `--requirement=x`; None otherwise."""
    words = line.split()
    first = words[0]
    name, equals, value = first.partition("=")
    if name in _INCLUDES:
        target = value if equals else (words[1] if len(words) > 1 else "")
        return (_INCLUDES[name], target) if target else None
    if first[:2] in ("-r", "-c") and len(first) > 2 and not first.startswith("--"):
        return _INCLUDES[first[:2]], first[2:]
    return None


def requirement_lines(text: str) -> tuple[Line, ...]:
    lines = []
    for number, line in logical_lines(text):
        include = _include(line)
        if include:
            lines.append(Line(number, include[0], include[1]))
        elif not line.startswith("-"):
            lines.append(Line(number, REQUIRE, _OPTIONS.split(line, maxsplit=1)[0]))
    return tuple(lines)


def requirement_line_spec(text: str) -> Spec | None:
    """A requirement line's vLLM Spec: `vllm[x]==0.31.2 ; marker` or a bare wheel path/URL."""
    if "://" in text.split(" ")[0] or re.search(r"\.(whl|tar\.gz|zip)$", text.split(";")[0].strip()):
        version = version_from_url(text.split(";")[0])
        return _exact(version) if version else None
    return parse_requirement(text)


# The walk -------------------------------------------------------------------------------------

_LOCKS = ("uv.lock", "poetry.lock", "pylock.toml")
_PYLOCK = re.compile(r"pylock\.[^/]+\.toml")
_REQUIREMENTS_LOCK = re.compile(r"(?i)requirements.*\.lock")
_REQUIREMENTS = re.compile(r"(?i).*requirements.*\.txt")


def display(path: str) -> str:
    """`path` relative to the working directory when below it, else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


class ProjectPins:
    """The vLLM releases the project of a launching file pins (see the module docstring).

    `pins(path)` -> releases or None; `pins.pin_for(path)` -> `Pin` (releases and sources) or
    None; `pins.describe_source(path)` -> `uv.lock: vllm 0.31.2` or None; `pins.notes`: broken
    pin files that mention vLLM. One instance per run: it caches every directory and file.
    """

    def __init__(self, root_hint: str | None = None) -> None:
        self.root_hint = os.path.abspath(root_hint) if root_hint else None
        self.notes: list[str] = []
        self._pins: dict[str, Pin | None] = {}
        self._locks: dict[str, Pin | None] = {}
        self._names: dict[str, frozenset[str]] = {}
        self._texts: dict[str, str | None] = {}
        self._lines: dict[str, tuple[Line, ...]] = {}

    def __call__(self, path: str) -> tuple[Release, ...] | None:
        pin = self.pin_for(path)
        return pin.releases if pin else None

    def pin_for(self, path: str) -> Pin | None:
        """The pin of the project holding the file `path`."""
        return self.pin_in(os.path.dirname(os.path.abspath(path)))

    def describe_source(self, path: str) -> str | None:
        pin = self.pin_for(path)
        return pin.describe() if pin else None

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
            evidence = self._evidence(here)
            self._locks[here] = evidence.lock or above_lock
            self._pins[here] = _decide(evidence, above_pin, above_lock)
        return self._pins[directory]

    # directories

    def _listing(self, directory: str) -> frozenset[str]:
        if directory not in self._names:
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
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: str) -> str | None:
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError:
            return None
        if len(data) > MAX_FILE_BYTES:
            return None
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            if b"vllm" in data.lower():
                self._note(f"{display(path)}: not UTF-8; its vLLM pins are ignored")
            return None

    def _toml(self, path: str) -> dict | None:
        text = self._text(path)
        if text is None or "vllm" not in text.lower():
            return None
        if tomllib is None:
            self._note(f"{display(path)}: reading TOML on Python 3.10 needs `tomli`; its vLLM pins are ignored")
            return None
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            self._note(f"{display(path)}: not valid TOML ({error}); its vLLM pins are ignored")
            return None

    def _requirements(self, path: str, role: str = REQUIRE, seen: set[str] | None = None) -> list[Found]:
        """The vLLM requirements of a requirements file and the files it includes."""
        seen = set() if seen is None else seen
        path = os.path.normpath(path)
        if path in seen:
            return []
        seen.add(path)
        found = []
        for line in self._requirement_lines(path):
            if line.kind == REQUIRE:
                spec = requirement_line_spec(line.text)
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

"""Versions and version specifiers as far as vLLM pins need them: PEP 440 keys for final and
pre-releases, `==`/`!=`/`~=`/`<`/`>`... clauses and their unions (`Spec`), and the known vLLM
releases a specifier admits, each minor series at its lowest admitted release.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from ...records import record
from ...regexes import on_use
from ...vllm.releases import FIRST_WITH_MASK, LAST_WITHOUT_MASK, NEWEST, RELEASES, Release

PATCHES_TRIED = 21  # patch releases 0..20 of each known series are tried against a range


# Versions and specifiers ---------------------------------------------------------------------

_VERSION = on_use(
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


def release_parts(text: str) -> tuple[int, ...]:
    match = re.match(r"v?(?:\d+!)?(\d+(?:\.\d+)*)", text.strip())
    return tuple(int(part) for part in match.group(1).split(".")) if match else ()


def _prefix_matches(release: Release, prefix: tuple[int, ...]) -> bool:
    parts = (release.major, release.minor, release.patch) + (0,) * max(0, len(prefix) - 3)
    return parts[: len(prefix)] == prefix


@record(unsafe_hash=True)
class Clause:
    """One PEP 440 comparison: `>=0.30`, `==0.31.*`, `~=0.31.0`."""

    op: str
    version: str

    def admits(self, release: Release) -> bool:
        if self.op == "===":
            return self.version.strip() == str(release)
        if self.version.endswith(".*"):
            matches = _prefix_matches(release, release_parts(self.version[:-2]))
            return matches if self.op == "==" else not matches
        candidate, bound = _release_key(release), version_key(self.version)
        if self.op == "~=":
            prefix = release_parts(self.version)[:-1]
            return candidate >= bound and _prefix_matches(release, prefix)
        return _COMPARE[self.op](candidate, bound)

    @property
    def release(self) -> Release | None:
        """The release this clause names (`>=1` -> 1.0.0); None for `===` text that is none."""
        parts = release_parts(self.version.removesuffix(".*"))
        return Release(*(parts + (0, 0))[:3]) if parts else None


_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}
_CLAUSE = on_use(r"\s*(~=|===|==|!=|<=|>=|<|>)\s*([^\s,;()]+)\s*")


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
    if version_key(plain) is None or (op == "~=" and len(release_parts(plain)) < 2):
        return None
    return Clause(op, version)


@record(unsafe_hash=True)
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


def exact(version: str) -> Spec | None:
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

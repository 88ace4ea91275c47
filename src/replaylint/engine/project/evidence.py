"""What one directory says about vLLM: the requirements found in its files (`Found`, with their
role: require, constrain, override), the pin they make (`Pin`, releases and sources), and how
constraints and overrides narrow or replace requirements (`declared`).
"""

from __future__ import annotations

from typing import Iterable

from ...records import record
from ...vllm.releases import Release
from .specifiers import Spec, admitted_releases, prefer_replay

# What one directory says ----------------------------------------------------------------------

REQUIRE, CONSTRAIN, OVERRIDE = "require", "constrain", "override"


@record(unsafe_hash=True)
class Found:
    """One vLLM requirement of a project and where it was written."""

    spec: Spec
    source: str
    role: str = REQUIRE


@record(unsafe_hash=True)
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


@record(unsafe_hash=True)
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


@record(unsafe_hash=True)
class Evidence:
    lock: Pin | None
    declared: Declared | None


@record(unsafe_hash=True)
class PackagePin:
    """What a project pins of a package other than vLLM (an RL framework, whose edition it
    chooses): exact versions, ranges, git refs (tags, branches, commits), and where they are
    written. The nearest directory that says anything of the package decides; a lock there
    beats its declarations."""

    name: str
    versions: tuple[str, ...]
    specs: tuple[Spec, ...]
    refs: tuple[str, ...]
    sources: tuple[str, ...]

    def admits(self, release: Release) -> bool:
        return any(spec.admits(release) for spec in self.specs)

    def ranged(self) -> bool:
        return bool(self.specs)

    def describe(self) -> str:
        return "; ".join(self.sources)

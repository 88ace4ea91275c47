"""vLLM releases: which ones replaylint knows and how a version text maps onto them."""

from __future__ import annotations

import re
from dataclasses import dataclass

_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


@dataclass(frozen=True, order=True)
class Release:
    major: int
    minor: int
    patch: int = 0

    @classmethod
    def parse(cls, text: str) -> Release | None:
        """`0.31`, `0.31.2`, `v0.31.2`, `0.31.2rc1` -> Release; anything else -> None."""
        match = _VERSION.match(text.strip())
        if match is None:
            return None
        major, minor, patch = match.groups()
        return cls(int(major), int(minor), int(patch or 0))

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"

    @property
    def series(self) -> tuple[int, int]:
        return (self.major, self.minor)


RELEASES: tuple[Release, ...] = tuple(Release(0, minor) for minor in range(28, 34))
FIRST_WITH_MASK = RELEASES[0]
NEWEST = RELEASES[-1]
LAST_WITHOUT_MASK = Release(0, 27, 1)


def judged(release: Release) -> Release:
    """The release whose rules decide for `release`.

    Patch releases share their minor release's rules; releases newer than the newest one the
    spec covers are judged by the newest; releases before 0.28 keep their own number (the
    feature does not exist there).
    """
    if release < FIRST_WITH_MASK:
        return release
    if release.series > NEWEST.series:
        return NEWEST
    return Release(release.major, release.minor)


def has_sampling_mask(release: Release) -> bool:
    return release >= FIRST_WITH_MASK


def parse_release(text: str) -> Release:
    """Parse a user-given version (`--target-vllm`, config); raise ValueError when malformed."""
    release = Release.parse(text)
    if release is None or not re.fullmatch(r"v?\d+\.\d+(\.\d+)?", text.strip()):
        raise ValueError(f"not a vLLM version: {text!r} (expected X.Y or X.Y.Z, e.g. 0.33 or 0.31.0)")
    return release

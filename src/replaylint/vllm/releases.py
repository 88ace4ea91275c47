"""vLLM releases: which ones replaylint knows and how a version text maps onto them."""

from __future__ import annotations

import re

from ..records import record
from ..regexes import on_use

_VERSION = on_use(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


@record(unsafe_hash=True, order=True)
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


# Releases whose code replaylint's knowledge was read from: 0.26.0-0.33.0 in ../shared/spec,
# 0.34.0 and later in docs/releases/ (each from its wheel). Replay exists from 0.28.0 on.
RELEASES: tuple[Release, ...] = tuple(Release(0, minor) for minor in range(28, 35))
FIRST_WITH_MASK = RELEASES[0]
NEWEST = RELEASES[-1]
LAST_WITHOUT_MASK = Release(0, 27, 1)
READ_WITHOUT_MASK: tuple[Release, ...] = (Release(0, 26), Release(0, 27), LAST_WITHOUT_MASK)
READ: tuple[Release, ...] = READ_WITHOUT_MASK + RELEASES


def judged(release: Release) -> Release:
    """The release whose rules, and words, decide for `release`: one whose code was read.

    A release replaylint read judges itself. A patch release of a read series is judged by the
    newest read release of its series at or below it (0.31.2 by 0.31.0); a release newer than
    the newest read one by the newest (0.35.0 by 0.34.0); a release before the oldest read one
    by the oldest (replay does not exist in either).
    """
    if release in READ:
        return release
    if release.series > NEWEST.series:
        return NEWEST
    below = [known for known in READ if known <= release]
    return below[-1] if below else READ[0]


def is_newer_than_known(release: Release) -> bool:
    return release.series > NEWEST.series


def has_sampling_mask(release: Release) -> bool:
    return release >= FIRST_WITH_MASK


def parse_release(text: str) -> Release:
    """Parse a user-given version (`--target-vllm`, config); raise ValueError when malformed."""
    release = Release.parse(text)
    if release is None or not re.fullmatch(r"v?\d+\.\d+(\.\d+)?", text.strip()):
        raise ValueError(f"not a vLLM version: {text!r} (expected X.Y or X.Y.Z, e.g. 0.33 or 0.31.0)")
    return release

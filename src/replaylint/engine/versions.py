"""The vLLM releases each launch is judged against, from the nearest evidence.

Order: `--target-vllm` on the command line, the launch's own evidence (image tag,
`pip install vllm==` in the same Dockerfile stage or script), the project's pins, then
`target-vllm` from the configuration, then the newest release the spec knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..vllm.releases import NEWEST, RELEASES, Release, is_newer_than_known, judged
from .config import Config

if TYPE_CHECKING:
    from ..model import Launch

ProjectPins = Callable[[str], "tuple[Release, ...] | None"]


def releases_for(launch: Launch, config: Config, project_pins: ProjectPins | None = None) -> tuple[Release, ...]:
    if config.target_vllm_forced and config.target_vllm is not None:
        return (config.target_vllm,)
    if launch.version_hint is not None and launch.version_hint.releases:
        parsed = tuple(r for r in (Release.parse(text) for text in launch.version_hint.releases) if r is not None)
        if parsed:
            return parsed
    if project_pins is not None:
        pinned = project_pins(launch.span.path)
        if pinned:
            return pinned
    if config.target_vllm is not None:
        return (config.target_vllm,)
    return (NEWEST,)


def describe(releases: list[Release]) -> str:
    """`0.31.2`, `0.30.0-0.33.0` for a run of consecutive known releases, else a list."""
    ordered = sorted(set(releases))
    if len(ordered) == 1:
        return str(ordered[0])
    series = [release.series for release in RELEASES]
    positions = [series.index(r.series) if r.series in series and r.patch == 0 else None for r in ordered]
    if None not in positions and positions == list(range(positions[0], positions[0] + len(positions))):  # type: ignore[operator]
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(str(release) for release in ordered)


def judgement(targets: list[Release]) -> tuple[str, str]:
    """How a message names its releases: the judged releases for `vLLM {release} says`, and a
    note for targets whose own code replaylint has not read (empty when there are none).

    `[0.35.0]` gives `("0.34.0", " (the launch targets vLLM 0.35.0: judged by vLLM 0.34.0's
    rules, the newest replaylint knows)")`; words are never attributed to a release whose code
    was not read.
    """
    judged_by = sorted({judged(target) for target in targets})
    unread = sorted({target for target in targets if judged(target) != target})
    if not unread:
        return describe(judged_by), ""
    rules = describe(sorted({judged(target) for target in unread}))
    newest = ", the newest replaylint knows" if all(is_newer_than_known(target) for target in unread) else ""
    return describe(judged_by), f" (the launch targets vLLM {describe(unread)}: judged by vLLM {rules}'s rules{newest})"


def unknown_release_note(release: Release) -> str:
    return (
        f"vLLM {release} is newer than the releases replaylint knows ({RELEASES[0]}-{NEWEST}): "
        f"launches that target it are judged by vLLM {NEWEST}'s rules"
    )

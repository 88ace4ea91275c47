"""What the serving environment holds, read without running any of it: the installed vLLM's
version and the installed `vllm.logits_processors` entry points (package metadata through
`importlib.metadata`: names and targets, nothing imported or loaded), and the variables of
the real environment that vLLM reads.

This is the environment of the Python that runs replaylint: install replaylint next to vLLM.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Mapping

from ..frontends.packaging import GROUP
from ..model import Plugin, Span

# The variables the launch readers look at (vLLM's own, and Dynamo's).
RELEVANT_PREFIXES = ("VLLM_", "DYN_", "SM_VLLM_")


@dataclass(frozen=True)
class Installed:
    """The installed vLLM (its version, None when it is not installed) and plugins."""

    vllm_version: str | None
    installed_plugins: tuple[Plugin, ...]
    where: str  # the environment read (sys.prefix)

    # `Checker` asks its project pins for a launch's plugins and release: here they come from
    # the environment, not from files next to the launch.
    def __call__(self, path: str) -> None:
        return None

    def plugins(self, path: str) -> tuple[Plugin, ...]:
        return self.installed_plugins


def read_installed() -> Installed:
    from importlib import metadata

    try:
        version: str | None = metadata.version("vllm")
    except metadata.PackageNotFoundError:
        version = None
    plugins = tuple(_plugin(entry) for entry in metadata.entry_points(group=GROUP))
    return Installed(version, tuple(dict.fromkeys(plugins)), sys.prefix)


def _plugin(entry: object) -> Plugin:
    """An installed entry point, placed at its line of the distribution's `entry_points.txt`."""
    name, target = getattr(entry, "name", ""), getattr(entry, "value", "")
    dist = getattr(entry, "dist", None)
    label = f"{dist.metadata['Name']} {dist.version}" if dist is not None else "an unknown distribution"
    folder = getattr(dist, "_path", None)  # PathDistribution: the .dist-info / .egg-info folder
    path = os.path.join(str(folder), "entry_points.txt") if folder is not None else "entry_points.txt"
    return Plugin(name, target, _entry_span(path, name), f"installed in this environment by {label}")


def _entry_span(path: str, name: str) -> Span:
    """The line `name = target` of the group's section in `entry_points.txt` (line 1 when the
    file cannot be read: the entry point exists, only its place is unknown)."""
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read(1 << 20)
    except (OSError, UnicodeDecodeError):
        return Span(path, 1, 1, 1, 1, 0, 0)
    section, offset = "", 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        start, offset = offset, offset + len(line)
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
        elif section == GROUP and stripped.partition("=")[0].strip() == name:
            column = line.index(stripped) + 1
            return Span(path, number, column, number, column + len(stripped), start + column - 1, start + column - 1 + len(stripped))
    return Span(path, 1, 1, 1, 1, 0, 0)


def relevant_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables of `environ` that a launch reader looks at, in a stable order."""
    return {name: environ[name] for name in sorted(environ) if name.startswith(RELEVANT_PREFIXES)}

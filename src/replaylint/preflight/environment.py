"""What the serving environment holds, read without running any of it: the installed vLLM's
version and the installed `vllm.logits_processors` entry points (package metadata, found on
`sys.path` as `importlib.metadata` finds it: names and targets, nothing imported or loaded),
and the variables of the real environment that vLLM reads.

This is the environment of the Python that runs replaylint: install replaylint next to vLLM.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Iterator, Mapping

from ..frontends.packaging import GROUP
from ..model import Plugin, Span
from ..records import record

# The variables the launch readers look at (vLLM's own, and Dynamo's).
RELEVANT_PREFIXES = ("VLLM_", "DYN_", "SM_VLLM_")


@record(unsafe_hash=True)
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


def read_installed(path: list[str] | None = None) -> Installed:
    """The distributions on `path` (default `sys.path`) as `importlib.metadata` finds them (the
    first of each normalised name wins), read from their folder names and `entry_points.txt`
    only: parsing every distribution's METADATA would cost a large image a tenth of a second."""
    version, plugins, seen = None, [], set()
    for folder in sys.path if path is None else path:
        for name, version_text, info in _distributions(folder or "."):
            if name in seen:
                continue
            seen.add(name)
            if name == "vllm":
                version = version_text or _version_line(os.path.join(info, "PKG-INFO"))
            plugins += _plugins(info, f"{name} {version_text}".strip())
    return Installed(version, tuple(dict.fromkeys(plugins)), sys.prefix)


def _distributions(folder: str) -> Iterator[tuple[str, str, str]]:
    """(normalised name, version, metadata folder) of each `.dist-info` and `.egg-info` folder."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return
    for entry in names:
        stem, dot, suffix = entry.rpartition(".")
        if suffix not in ("dist-info", "egg-info") or not dot:
            continue
        name, _, version = stem.partition("-")
        yield re.sub(r"[-_.]+", "-", name).lower(), version.partition("-")[0], os.path.join(folder, entry)


def _version_line(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for line in stream:
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return None


def _plugins(info: str, label: str) -> list[Plugin]:
    """The group's entry points in one distribution's `entry_points.txt`, each at its line."""
    path = os.path.join(info, "entry_points.txt")
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read(1 << 20)
    except (OSError, UnicodeDecodeError):
        return []
    if GROUP not in text:
        return []
    found, section, offset = [], "", 0
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        start, offset = offset, offset + len(line)
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
        elif section == GROUP and "=" in stripped and not stripped.startswith(("#", ";")):
            name, _, target = (part.strip() for part in stripped.partition("="))
            column = line.index(stripped) + 1
            span = Span(path, number, column, number, column + len(stripped), start + column - 1, start + column - 1 + len(stripped))
            found.append(Plugin(name, target, span, f"installed in this environment by {label}"))
    return found


def relevant_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables of `environ` that a launch reader looks at, in a stable order."""
    return {name: environ[name] for name in sorted(environ) if name.startswith(RELEVANT_PREFIXES)}

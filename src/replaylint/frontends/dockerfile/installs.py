"""Folders of the build context that a `RUN pip install` puts into the image, and the
logits-processor plugins their packaging declares (`frontends.packaging`).

`RUN pip install ./plugins/ban`, `RUN pip install -e .` after `COPY . /app` and `WORKDIR /app`,
`RUN pip install /opt/ban` after `COPY plugins/ban /opt/ban`: the image path is traced back
through the stage's COPYs to a folder of the build context (next to the Dockerfile, or the
folder replaylint runs in), whose `pyproject.toml`, `setup.cfg` or `setup.py` is read.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import replace
from typing import Iterator

from ...model import Plugin
from ...source import ExtractContext, SourceFile
from .. import packaging
from .stages import Stage
from .variables import UNKNOWN_PART, expand

_WORD = re.compile(r"""(['"]?)([^\s'";&|]+)\1""")
_TAKES_VALUE = frozenset(("-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix", "--root", "-i", "--index-url"))
_TAKES_VALUE |= frozenset(("--extra-index-url", "-f", "--find-links", "--src", "--python", "-C", "--config-settings"))


def installed_plugins(
    stage: Stage, arguments: str, source: SourceFile, context: ExtractContext, escape: str, line: int
) -> Iterator[Plugin]:
    """The plugins of the local folders that one `pip install` (`arguments`, on line `line` of
    the Dockerfile) installs: named among its words, or in a requirements file it reads (`-r
    requirements.txt`, whose relative folders pip takes from the working directory)."""
    words = [word.group(2) for word in _WORD.finditer(arguments)]
    for position, text in enumerate(words):
        previous = words[position - 1] if position else ""
        if previous in ("-r", "--requirement"):
            yield from _requirement_file_plugins(stage, expand(text, escape, stage.lookup()), source, context, line)
            continue
        if previous in _TAKES_VALUE or text.startswith("-"):
            continue
        folder = expand(text, escape, stage.lookup())
        if UNKNOWN_PART not in folder and _is_path(folder):
            yield from _folder_plugins(stage, folder, source, context, f"installed by {source.path}:{line} `pip install {text}`")


def _requirement_file_plugins(stage: Stage, name: str, source: SourceFile, context: ExtractContext, line: int) -> Iterator[Plugin]:
    if UNKNOWN_PART in name:
        return
    target = posixpath.normpath(posixpath.join(stage.workdir or "/", name))
    for built in _context_folders(stage, target, source.path):
        text = context.read_text(built)
        if text is not None:
            for folder in filter(None, map(packaging.local_folder, text.splitlines())):
                how = f"installed by {source.path}:{line} `pip install -r {name}` (`{folder}`)"
                yield from _folder_plugins(stage, folder, source, context, how)
            return


def _folder_plugins(stage: Stage, folder: str, source: SourceFile, context: ExtractContext, how: str) -> Iterator[Plugin]:
    target = posixpath.normpath(posixpath.join(stage.workdir or "/", re.sub(r"\[[^\]]*\]$", "", folder)))
    for built in _context_folders(stage, target, source.path):
        found = _declared(built, context, how)
        if found:
            yield from found
            return


def _is_path(word: str) -> bool:
    """A word pip reads as a folder, not a requirement (`./x`, `/opt/x`, `plugins/x`, `.`)."""
    return word.startswith((".", "/")) or ("/" in word and "://" not in word and "@" not in word and "=" not in word)


def _context_folders(stage: Stage, target: str, dockerfile: str) -> Iterator[str]:
    """Folders of the checkout that may hold the image folder `target` (the latest COPY that
    put something there decides)."""
    for copy in reversed(stage.copies):
        candidates = copy.candidates(target)
        if candidates:
            for candidate in candidates:
                if candidate.startswith("/") or candidate.startswith(".."):
                    continue
                beside = os.path.normpath(os.path.join(os.path.dirname(dockerfile), candidate))
                yield beside
                if beside != os.path.normpath(candidate):
                    yield os.path.normpath(candidate)
            return


def _declared(folder: str, context: ExtractContext, how: str) -> list[Plugin]:
    found = []
    for name in packaging.PACKAGING:
        path = os.path.join(folder, name)
        text = context.read_text(path)
        if text is not None:
            found += [replace(plugin, installed_by=how) for plugin in packaging.declared(path, text)]
    return found

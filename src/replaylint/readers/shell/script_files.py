"""Script files a script runs: `bash run_base.sh ARGS` (`sh`, `exec bash ...`), `./run_base.sh ARGS`,
`source base.sh ARGS` / `. base.sh`. The file is found in the tree (relative to the running file's
folder or the root its first folder names (`bash examples/grpo/base.sh`), or to the script's own folder spelt `$(dirname "$0")`, `${BASH_SOURCE%/*}`,
`SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)`), read through the run, and read in its turn with the
caller's words as its `"$@"` and the caller's exported variables (all of them for `source`).

Spans: the callee is read as the text after its caller's (`ChainedSpans`), so a word keeps the file
and place it is written in, the caller's `"$@"` words in the caller and the callee's own in the callee.
A path the tree does not hold, one outside it, one two folders could mean, a cycle or a chain deeper than
`MAX_FILE_DEPTH` is not followed: the callee's launches stay unread (no finding rests on them).

Such a launch takes no fix: its words sit in two files. A launch read through the caller that the callee alone gives too (its facts the same, its forwarded
arguments aside) is left to the callee's own check, which reports it: one finding in one place.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any

from ...frameworks.nearby import names_own_folder
from ...model import Launch, Span
from ...records import record
from ...regexes import on_use
from ...shells import SHELLS
from ...source import ExtractContext, SourceFile
from .grammar import parse
from .place import mapped
from .spans import ScriptSpans
from .values import Chunk, Field, Hole
from .world import ARGUMENTS, MAX_VALUE, World, collapse

MAX_FILE_DEPTH = 8  # script files running script files
_SCRIPT_SUFFIX = re.compile(r"\.(sh|bash)$")
_SHEBANG = on_use(r"^#!\s*(/usr)?/bin/(env\s+)?(\w+)")
_NAMED_FILE = on_use(r"\.sh\b")
_RUN_BEFORE = on_use(r"(?:^|[\s;&|(`])(?:(?:ba|da|k|z)?sh|source|\.)[ \t]|/[\w.-]*$", re.M)  # as the prefilter's


@record
class ShellScript:
    """`bash -c SCRIPT [NAME [ARGS...]]`: a script read again, with its own `$0`, `$@`."""

    script: Field
    positional: list[Field]
    found: Any  # launchers.Found


@record
class ScriptFile:
    """`bash FILE ARGS...`, `./FILE ARGS...`: a script file run with its arguments."""

    path: Field
    arguments: list[Field]
    found: Any  # launchers.Found
    by_path: bool = False  # run as a program (its `#!` line says which), not handed to a shell


def script_file_word(words: list[Field], position: int, found: Any) -> ScriptFile | None:
    """`./run_base.sh ARGS`, `scripts/x.sh`: a command that names a shell script file by its path."""
    text = words[position].text
    if text is not None and "/" in text and _SCRIPT_SUFFIX.search(text):
        return ScriptFile(words[position], words[position + 1 :], found, by_path=True)
    return None


@record(unsafe_hash=True)
class ChainedSpans(ScriptSpans):
    """Spans of a script read after the files that run it: `source.text` is their texts in turn
    (each after a newline), and an offset from a file's `base` on is in that file."""

    segments: tuple[tuple[int, SourceFile], ...] = ()

    def span(self, start: int, end: int) -> Span:
        base, source = next((base, source) for base, source in reversed(self.segments) if base <= start)
        size = len(source.text)
        return source.index.span(min(start - base, size), min(max(end - base, start - base), size))

    def file_of(self, offset: int) -> SourceFile:
        return next(source for base, source in reversed(self.segments) if base <= offset)


def segments_of(spans: ScriptSpans) -> tuple[tuple[int, SourceFile], ...]:
    return spans.segments if isinstance(spans, ChainedSpans) else ((0, spans.source),)


def callee_path(word: Field, spans: ScriptSpans, context: ExtractContext) -> tuple[str, str] | None:
    """The path and text of the file a word names, when exactly one file of the tree is meant: a relative
    path from the running script's folder or the root its folders name (`_folders`)."""
    running = spans.source  # (of a chain: the innermost file's path)
    if word.text is not None:
        if os.path.isabs(word.text):
            candidates = [word.text]
        else:
            candidates = [os.path.join(folder, word.text) for folder in _folders(running.path, word.text)]
    else:
        rest = _after_own_folder(word, spans)
        candidates = [] if rest is None else [os.path.join(os.path.dirname(running.path), rest)]
    found = {}
    for candidate in dict.fromkeys(os.path.normpath(candidate) for candidate in candidates):
        text = context.read_text(candidate)
        if text is not None:
            found[os.path.realpath(candidate)] = (candidate, text)
    return next(iter(found.values())) if len(found) == 1 else None


def named_files(source: SourceFile, context: ExtractContext) -> list[SourceFile]:
    """The tree's files a script may run by a path ending in `.sh` (its tail after any expansion, from the
    script's folder and `_folders`' root): what the shell frontend looks at before
    it reads a script that runs script files alone."""
    tails = dict.fromkeys(tail.lstrip("/") for tail in _tails(source.text))
    paths = dict.fromkeys(os.path.normpath(os.path.join(folder, tail)) for tail in tails for folder in _folders(source.path, tail))
    return [
        SourceFile(path, text) for path in paths if path != os.path.normpath(source.path) and (text := context.read_text(path)) is not None
    ]


def _tails(text: str) -> list[str]:
    """The path characters before each `.sh` a shell, `source` or `.` runs, or that names a folder, on
    its line (`bash "$(dirname "$0")/run_base.sh"`: `/run_base.sh`)."""
    tails = []
    for end in _NAMED_FILE.finditer(text):
        start = end.start()
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_./-"):
            start -= 1
        tail = text[start : end.end()]
        if start > 0 and text[start - 1] in "${":  # `$SCRIPT_DIR/../x.sh`: the path after the variable
            tail = tail[tail.find("/") :] if "/" in tail else ""
        if tail and _RUN_BEFORE.search(text, text.rfind("\n", 0, end.start()) + 1, end.start()):
            tails.append(tail)
    return tails


def _folders(running: str, path: str) -> list[str]:
    """Where a relative path a script runs may start: the script's folder, and for a path whose first folder
    is one the script's path passes through, the folder above it (a repository's root, where its scripts are
    run from: `bash examples/grpo/run_base.sh` in `examples/grpo/run_replay.sh`)."""
    folder = os.path.dirname(running)
    first, _, rest = path.partition("/")
    parts = folder.split(os.sep)
    if not rest or first in (".", "..", "") or first not in parts:
        return [folder]
    above = len(parts) - 1 - parts[::-1].index(first)
    return [folder, os.sep.join(parts[:above]) or ("/" if folder.startswith("/") else ".")]


def _after_own_folder(word: Field, spans: ScriptSpans) -> str | None:
    """`"$(dirname "$0")/base.sh"`: the path after the script's own folder, when the rest is known."""
    if len(word.chunks) < 2 or not isinstance(word.chunks[0], Hole) or not all(isinstance(c, Chunk) for c in word.chunks[1:]):
        return None
    hole = word.chunks[0]
    rest = "".join(chunk.text for chunk in word.chunks[1:] if isinstance(chunk, Chunk))
    if not rest.startswith("/") or not _names_own_folder(hole.raw, spans, hole.start):
        return None
    return rest.lstrip("/")


def _names_own_folder(raw: str, spans: ScriptSpans, offset: int) -> bool:
    text = spans.file_of(offset).text if isinstance(spans, ChainedSpans) else spans.source.text
    return names_own_folder(raw, text)


def is_shell_script(path: str, text: str) -> bool:
    """A file run by path runs as its `#!` line says; a `.sh` file without one runs in the shell."""
    shebang = _SHEBANG.match(text)
    if shebang is None:
        return _SCRIPT_SUFFIX.search(path) is not None and not text.startswith("#!")
    return shebang.group(3) in SHELLS


class ScriptFiles:
    """Script files run by a script, for `interpreter.Interpreter`."""

    source: SourceFile
    context: ExtractContext
    spans: ScriptSpans
    builder: Any  # launch.LaunchBuilder
    launches: list[Launch]
    seen: dict[tuple, int]
    emitted: int
    depth: int
    alone: dict[str, set[tuple]]
    anchor: int | None  # where, in the checked file, the chain of script files starts

    def launch_identity(self, launch: Launch) -> tuple:
        raise NotImplementedError

    def share_with(self, child: Any) -> None:
        """What the reader of a script file this script runs keeps with this one (nothing here)."""

    def run_file(self, word: Field, arguments: list[Field] | None, world: World, by_path: bool = False) -> bool:
        """Reads the script file `word` names in `world` (a new shell's, or this one's for `source`),
        with `arguments` as its `"$@"` (None: this shell's). False when it is not followed."""
        return self.read_file(word, arguments, world, by_path) is not None

    def read_file(self, word: Field, arguments: list[Field] | None, world: World, by_path: bool = False) -> World | None:
        """`run_file`, giving the world the file leaves behind (its shell's state after `source`);
        None when it is not followed."""
        segments = segments_of(self.spans)
        if len(segments) > MAX_FILE_DEPTH:
            return None
        named = callee_path(word, self.spans, self.context)
        if named is None or (by_path and not is_shell_script(*named)):
            return None
        path, text = named
        if any(os.path.realpath(source.path) == os.path.realpath(path) for _, source in segments):
            return None  # a.sh runs b.sh runs a.sh
        if arguments is not None:
            world = world.copy(positional=tuple(arguments) if len(arguments) <= MAX_VALUE else None)
        callee = SourceFile(path, text)
        anchor = self.anchor if self.anchor is not None else word.start
        launches, emitted, after = self._read(segments, callee, world, anchor)
        self.emitted += emitted
        kept_alone = self._alone(segments, callee, anchor) if _SCRIPT_SUFFIX.search(path) else set()
        for launch in launches:
            identity = self.launch_identity(launch)
            if _without_forwarded(identity) in kept_alone or identity in self.seen:
                continue
            self.seen[identity] = len(self.launches)
            self.launches.append(replace(launch, handle=None))  # its words' offsets are the chain's, not the file's: no fix
        return after

    def _read(
        self, segments: tuple[tuple[int, SourceFile], ...], callee: SourceFile, world: World, anchor: int
    ) -> tuple[list[Launch], int, World]:
        """The launches of `callee` read after the files that run it, in `world`, how many variants,
        and the world it leaves."""
        before = segments[-1][0] + len(segments[-1][1].text)
        base = before + 1
        combined = SourceFile(callee.path, self.spans.source.text[:before] + "\n" + callee.text)
        spans = ChainedSpans(combined, (*segments, (base, callee)))
        child = type(self)(combined, self.context, self.builder.kind, world.pin or self.builder.base_hint)  # type: ignore[call-arg]
        child.spans = spans
        child.builder = type(self.builder)(combined, self.context, child.kind, child.base_hint, spans)
        child.depth, child.alone, child.anchor = self.depth, self.alone, anchor
        self.share_with(child)
        unread = len(self.context.unread)
        place = mapped(parse(callee.text, self.context.budget, None), lambda i: i + base)
        place.budget = self.context.budget
        worlds = child.run_script(place, [world])
        child.finish(worlds)
        top = len(segments[0][1].text)
        for index in range(unread, len(self.context.unread)):  # a limit met in the callee: said at its call
            if self.context.unread[index].offset > top:
                self.context.unread[index] = replace(self.context.unread[index], offset=anchor)
        return child.launches, child.emitted, collapse(worlds) if worlds else world.forget()

    def _alone(self, segments: tuple[tuple[int, SourceFile], ...], callee: SourceFile, anchor: int) -> set[tuple]:
        """The launches the callee gives checked on its own (its arguments forwarded)."""
        key = os.path.realpath(callee.path)
        if key not in self.alone:
            unread, clients = len(self.context.unread), len(self.context.clients)
            own = World(positional=ARGUMENTS if self.context.forwarded_arguments == "as-written" else None, assigns=frozenset())
            launches, _, _ = self._read(segments, callee, own, anchor)
            del self.context.unread[unread:], self.context.clients[clients:]
            self.alone[key] = {_without_forwarded(self.launch_identity(launch)) for launch in launches}
        return self.alone[key]


def _without_forwarded(identity: tuple) -> tuple:
    return identity[:-2] + identity[-1:]

"""Notebook frontend: vLLM launches in Jupyter notebooks (`.ipynb`).

A notebook is JSON; its code cells are Python run one after another in one kernel, with
IPython's own lines among them (`ipython`). What the cells hold is read by the readers of the
other files, given the cells' text and put back in place:

- The Python of all code cells, in order, joined by line breaks (a name a cell binds is seen by
  the cells after it), with IPython's lines replaced by placeholders of the same length, goes
  to the Python frontend (its public `extract` and `render`). Spans come back in that text and
  are moved to the file: every character of a cell knows its offset in the JSON (`cells`).
  A cell Python cannot read (top-level `await`, a syntax error) is left out, not the notebook.
- Shell lines (`!vllm serve ...`) and shell cells (`%%bash`) go to the shell interpreter
  (`readers.shell.extract_script`) with their places in the file, as a Dockerfile's `RUN`
  bodies do, after the `%env` lines before them (the kernel's environment).
- A notebook whose kernel is a shell (`bash`) runs every code cell as a shell script; one of
  another language (R, Julia) holds no Python.

Fixes are edits of the JSON text itself: written inside the source strings, escaped as JSON,
a new line in a list of lines starting a new item. Everything else in the file (outputs,
metadata, its indent and key order, the final newline) is left byte for byte.

Findings are reported at the cell and its line (`report`, with `cells.notebook_of`).
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import re
from typing import Any, Callable, Mapping

from ...model import Edit, Fix, Launch, RemoveEnv, Setting, Span, VersionHint
from ...records import record
from ...source import ExtractContext, ParseError, SourceFile
from ...vllm.images import release_from_pin
from .cell_sources import Cell, json_escaper, read_notebook
from .ipython import CellReading, EnvWrite, ShellPiece, read_cell

__all__ = ["extract", "parses", "render"]

_CHARACTERS_PER_UNIT = 3
_SHELL_KERNELS = ("bash", "sh", "zsh")
_PIP = re.compile(r"^[ \t]*[%!](?:uv[ \t]+pip|pip3?|python3?[ \t]+-m[ \t]+pip)[ \t]+install\b(?P<requirements>[^\n]*)", re.MULTILINE)
_WORD = re.compile(r"\S+")
_CONTINUED = re.compile(r"\\\n[ \t]*")


@record(unsafe_hash=True)
class PythonHandle:
    """What renders a fix of a launch the Python frontend found: its launch and source as it
    saw them (the cells' Python), and where that text sits in the file."""

    launch: Launch
    source: SourceFile
    code: _CodeMap


@record(unsafe_hash=True)
class _CodeMap:
    """The cells' Python joined (`text`): where each cell starts in it, and in the file."""

    cells: tuple[Cell, ...]
    starts: tuple[int, ...]

    def cell_of(self, offset: int) -> int:
        return max(0, bisect.bisect_right(self.starts, offset) - 1)

    def to_file(self, offset: int) -> int:
        index = self.cell_of(offset)
        return self.cells[index].to_file(offset - self.starts[index])


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    context.budget.charge(len(source.text) // _CHARACTERS_PER_UNIT)
    notebook = read_notebook(source)
    cells = tuple(cell for cell in notebook.cells if cell.cell_type == "code")
    if notebook.language in _SHELL_KERNELS:
        readings = [CellReading("", [ShellPiece(cell.code, tuple(range(len(cell.code) + 1)), "cell")]) for cell in cells]
        return _shell_launches(source, context, cells, readings)
    if "python" not in notebook.language:
        return []
    readings = [read_cell(cell.code) for cell in cells]
    python = _python_launches(source, context, cells, readings)
    return [_in_kernel(launch, source, cells, readings) for launch in python] + [
        _pinned(launch, source, cells) for launch in _shell_launches(source, context, cells, readings)
    ]


def parses(text: str) -> bool:
    """The file is a notebook and its cells' Python reads (as a fix must leave it)."""
    try:
        notebook = read_notebook(SourceFile("notebook.ipynb", text))
    except ParseError:
        return False
    cells = [read_cell(cell.code).python for cell in notebook.cells if cell.cell_type == "code"]
    return "python" not in notebook.language or all(_reads(python, top_level_await=True) for python in cells)


# -- Python ----------------------------------------------------------------------------------------


def _python_launches(source: SourceFile, context: ExtractContext, cells: tuple[Cell, ...], readings: list[CellReading]) -> list[Launch]:
    from .. import load

    python = load("python")
    if python is None or not cells:
        return []
    texts = [reading.python for reading in readings]
    if not _reads("\n".join(texts)):
        texts = [text if _reads(text) else _blanked(text) for text in texts]
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    code = _CodeMap(cells, tuple(starts))
    code_source = SourceFile(source.path, "\n".join(texts))
    try:
        launches = python.extract(code_source, context)
    except ParseError as error:  # what CPython read and libcst did not: said where it is in the file
        line = max(1, min(error.line, code_source.index.line_count))
        offset = code.to_file(min(code_source.index.offset(line, max(1, error.col)), len(code_source.text)))
        raise ParseError(error.message, *source.index.position(offset)) from None
    mover = _Mover(source, code)
    return [dataclasses.replace(mover.moved(launch), handle=PythonHandle(launch, code_source, code)) for launch in launches]


def _reads(text: str, top_level_await: bool = False) -> bool:
    """Whether Python reads `text` (IPython also runs a cell with a top-level `await`, which
    the Python frontend's parsers do not read)."""
    flags = ast.PyCF_ONLY_AST | (ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if top_level_await else 0)
    try:
        compile(text, "<cell>", "exec", flags, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _blanked(text: str) -> str:
    return "".join(char if char in "\r\n" else " " for char in text)


class _Mover:
    """Moves the spans of launches found in the cells' Python to the file."""

    def __init__(self, source: SourceFile, code: _CodeMap) -> None:
        self.source = source
        self.code = code

    def span(self, span: Span) -> Span:
        if span.path != self.source.path:
            return span  # another file's (a `--config` YAML)
        return self.source.index.span(self.code.to_file(span.start), self.code.to_file(span.end))

    def moved(self, value: Any) -> Any:
        if isinstance(value, Span):
            return self.span(value)
        if isinstance(value, tuple):
            return tuple(self.moved(item) for item in value)
        if isinstance(value, Mapping):
            return {key: self.moved(item) for key, item in value.items()}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {f.name: self.moved(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init and f.name != "handle"}
            moved = dataclasses.replace(value, **changes)
            if isinstance(value, Launch):
                moved = dataclasses.replace(moved, handle=value.handle)
            return moved
        return value


def _in_kernel(launch: Launch, source: SourceFile, cells: tuple[Cell, ...], readings: list[CellReading]) -> Launch:
    """A Python launch with the kernel's environment (`%env` lines before it; what the code sets
    itself wins) and the notebook's vLLM pin."""
    env = {
        step.name: _env_setting(source, cell, step)
        for cell, reading in zip(cells, readings)
        for step in reading.steps
        if isinstance(step, EnvWrite) and cell.to_file(step.end) <= launch.span.start
    }
    if env:
        launch = dataclasses.replace(launch, env={**env, **launch.env})
    return _pinned(launch, source, cells)


def _pinned(launch: Launch, source: SourceFile, cells: tuple[Cell, ...]) -> Launch:
    """The last `%pip install vllm==X` (or `!pip`, `!uv pip`) before a launch that has no
    evidence of its own: the kernel runs the release installed there."""
    if launch.version_hint is not None:
        return launch
    hint = None
    for cell in cells:
        for match in _PIP.finditer(cell.code):
            start = cell.to_file(match.start())
            if start > launch.span.start:
                return dataclasses.replace(launch, version_hint=hint) if hint else launch
            for word in _WORD.finditer(match.group("requirements")):
                release = release_from_pin(word.group().strip("'\""))
                if release is not None:
                    at = match.start("requirements") + word.start()
                    span = source.index.span(cell.to_file(at), cell.to_file(at + len(word.group())))
                    hint = VersionHint((str(release),), f"pip install {word.group()} in the notebook", span)
    return dataclasses.replace(launch, version_hint=hint) if hint else launch


# -- shell -----------------------------------------------------------------------------------------


def _shell_launches(source: SourceFile, context: ExtractContext, cells: tuple[Cell, ...], readings: list[CellReading]) -> list[Launch]:
    steps = [(cell, step) for cell, reading in zip(cells, readings) for step in reading.steps]
    if not any(isinstance(step, ShellPiece) for _, step in steps):
        return []
    try:
        from ...readers.shell import extract_script
    except ImportError:  # the shell interpreter is optional
        return []
    env: dict[str, Setting] = {}
    launches: list[Launch] = []
    for cell, step in steps:
        if isinstance(step, EnvWrite):
            env[step.name] = _env_setting(source, cell, step)
            continue
        launches += extract_script(
            step.text,
            source,
            context,
            to_offset=lambda i, cell=cell, step=step: cell.to_file(step.starts[i]),
            env=dict(env),
        )
    return launches


def _env_setting(source: SourceFile, cell: Cell, write: EnvWrite) -> Setting:
    span = source.index.span(cell.to_file(write.start), cell.to_file(write.end))
    value_span = source.index.span(cell.to_file(write.value_start), cell.to_file(write.value_end))
    return Setting(write.name, write.value, span, f"%env {write.name}={write.value}", value_span)


# -- fixes -----------------------------------------------------------------------------------------


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The Python or shell frontend's edits, in the cells' text, written into the JSON strings;
    a variable an `%env` line sets is removed with its line. A fix whose edits would straddle
    two cells is not offered."""
    removals = [i for i in fix.intents if isinstance(i, RemoveEnv) and _env_magic(launch.env.get(i.name))]
    if not removals:
        return _render_code(launch, fix, source)
    edits = [_without_line(launch.env[intent.name].span, source) for intent in removals]
    rest = tuple(intent for intent in fix.intents if intent not in removals)
    if not rest:
        return edits
    others = _render_code(launch, dataclasses.replace(fix, intents=rest), source)
    return None if others is None else edits + others


def _env_magic(setting: Setting | None) -> bool:
    return setting is not None and setting.spelling.startswith("%env ")


def _without_line(span: Span, source: SourceFile) -> Edit:
    """The deletion of the cell line that holds `span` (with its line break, or the one before
    it when it is the cell's last line)."""
    cell = read_notebook(source).cell_at(span.start)
    assert cell is not None  # the span of an `%env` line is in its cell
    code, at = cell.code, cell.from_file(span.start)
    start, end = code.rfind("\n", 0, at) + 1, code.find("\n", at)
    if end >= 0:
        end += 1
    else:
        start, end = max(0, start - 1), len(code)
    return Edit(source.index.span(cell.to_file(start), cell.to_file(end)), "")


def _render_code(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    handle = launch.handle
    if not isinstance(handle, PythonHandle):
        return _shell_edits(launch, fix, source)
    from .. import load

    python = load("python")
    edits = python.render(handle.launch, fix, handle.source) if python is not None else None
    if not edits:
        return edits
    if not all(edit.span.path != source.path or _one_cell(edit, handle.code) for edit in edits):
        return None
    code = handle.code
    return [
        _into_file(edit, code.cells[code.cell_of(edit.span.start)], code.to_file, source) if edit.span.path == source.path else edit
        for edit in edits
    ]


def _shell_edits(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The shell interpreter writes shell text at places already in the file: it is escaped."""
    from ...readers.shell import render as shell_render

    edits = shell_render(launch, fix, source)
    if not edits:
        return edits
    notebook = read_notebook(source)
    placed = []
    for edit in edits:
        if edit.span.path != source.path:
            placed.append(edit)
            continue
        cell = notebook.cell_at(edit.span.start)
        if cell is None or not cell.file_start <= edit.span.end <= cell.file_end:
            return None
        placed.append(_into_file(_cell_indent(edit, cell), cell, lambda offset: offset, source))
    return placed


def _cell_indent(edit: Edit, cell: Cell) -> Edit:
    """A continued line the shell writes is indented as the cell's line is (the shell measured
    the JSON's line)."""
    if "\\\n" not in edit.content:
        return edit
    at = cell.from_file(edit.span.start)
    line = cell.code[cell.code.rfind("\n", 0, at) + 1 : at]
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    return dataclasses.replace(edit, content=_CONTINUED.sub(lambda _: "\\\n" + indent, edit.content))


def _one_cell(edit: Edit, code: _CodeMap) -> bool:
    index = code.cell_of(edit.span.start)
    return code.cell_of(edit.span.end) == index and edit.span.end - code.starts[index] <= len(code.cells[index].code)


def _into_file(edit: Edit, cell: Cell, to_file: Callable[[int], int], source: SourceFile) -> Edit:
    start, end = to_file(edit.span.start), to_file(edit.span.end)
    content = json_escaper(cell)(edit.content)
    tail = f'"{cell.separator}"'
    if cell.listed and content.endswith("\\n" + tail) and source.text[end : end + 1] == '"':
        content = content[: -len(tail)]  # no empty item after an item's last line
    return Edit(source.index.span(start, end), content)

"""The Python programs a script runs (`python -m star_align.self_ossinstruct`, `python3 -u tools/gen.py`,
also behind `nohup`, `env NAME=V`, `uv run`, `poetry run`), each with what the environment gives one
variable there and where that is written: a `NAME=V` prefix, else the script's own `export NAME=V` on
that path. A variable the script does not export comes from whoever runs the script (unknown); so
does one after a `source` of a file not read. A command that names python or a Python file another
way (`torchrun train.py`, `python -c`) is a run of any program. The script is read by the shell
interpreter in the order bash runs it; each path it cannot tell apart gives its own run.
`program_words`: the same runs with the words each gives the program (`python eval.py --top_k 20`),
also those of the script files the script runs (`bash sh/eval.sh cot model out vllm`), read with
the caller's words as their `"$@"`."""

from __future__ import annotations

import os
from dataclasses import field
from typing import Any

from ...frameworks.nearby import folder_from_own
from ...model import Span
from ...records import record
from ...source import ExtractContext, SourceFile
from ..python_runs import ANY_RUN, ProgramRun, is_python, program_arguments, python_command
from .conditions import WITHOUT_ARGUMENTS
from .grammar import parse
from .interpreter import Interpreter
from .launch import written_at
from .launchers import EnvWord
from .place import identity
from .script_files import ChainedSpans, segments_of
from .spans import ScriptSpans
from .values import Chunk, Field, Hole, Scalar, scalar_text
from .world import ARGUMENTS, World


@record(unsafe_hash=True)
class ProgramWords:
    """A run of a Python program and the words it gives the program: each word's text (None: not
    known, or any number of words such as `"$@"`) and where it is written (None: another file);
    `decided`, for each word, where its value is decided: the script's assignment of the variable
    the word is alone (`TEMP=0` of `--temperature $TEMP`), else None (the word itself); `files`, the
    scripts it is read through: the script read, the script files it runs on the way, and last the
    one the command is written in; `defaults`, for each word, the script's default it holds when
    the script is run as written (`${6:-0}`: "the default at x.sh:8 when the script is run with
    fewer than 6 arguments"), else None."""

    run: ProgramRun
    words: tuple[tuple[str | None, Span | None], ...]
    decided: tuple[Span | None, ...] = ()
    files: tuple[str, ...] = ()
    defaults: tuple[str | None, ...] = ()
    conditions: tuple[str, ...] = field(default=(), compare=False)  # the tests on its path (`[ -z "$1" ]` held)

    def taken_when(self) -> str | None:
        """What the run rests on that its script decides as it runs without arguments (`[ -z "$1" ]`)."""
        said = [condition for condition in self.conditions if condition.endswith(WITHOUT_ARGUMENTS)]
        return f"taken when {' and '.join(said)}" if said else None

    @property
    def file(self) -> str:
        return self.files[-1] if self.files else ""


def program_runs(source: SourceFile, context: ExtractContext, name: str) -> list[ProgramRun] | None:
    """The Python programs the script `source` runs, each with what `name` holds in its environment;
    None for a script tree-sitter-bash does not read whole."""
    watcher = _watched(source, context, name)
    return list(dict.fromkeys(watcher.runs)) if watcher is not None else None


def program_words(
    source: SourceFile, context: ExtractContext, scripts: dict[str, str] | None = None, as_written: bool = False
) -> list[ProgramWords] | None:
    """The Python programs the script `source` runs with their words (a run of any program: none
    known); None for a script tree-sitter-bash does not read whole. `scripts`: commands that run a
    module of the tree (a console script `alpaca_eval` of `alpaca_eval.main`), by name, runs of it.
    `as_written`: the script is run as written, without arguments (nothing else runs it), so the
    defaults it takes then (`${6:-0}`, `${TEMP:-0}` of a variable nothing sets) are the words' text;
    otherwise a word holding one is not known."""
    watcher = _watched(source, context, "", scripts or {}, as_written)
    return list(dict.fromkeys(watcher.worded)) if watcher is not None else None


def _watched(
    source: SourceFile, context: ExtractContext, name: str, scripts: dict[str, str] | None = None, as_written: bool = False
) -> _Watcher | None:
    reading = ExtractContext(read_text=context.read_text, list_folder=context.list_folder, root=context.root, budget=context.budget)
    parsed = parse(source.text, context.budget, 0)
    if parsed.root.has_error:
        return None
    as_written = as_written and context.forwarded_arguments == "as-written"
    watcher = _Watcher(source, reading, variable=name, scripts=scripts or {}, as_written=as_written)
    place = identity(parsed)
    place.budget = context.budget
    watcher.finish(watcher.run_script(place, [World(positional=ARGUMENTS if as_written else None, assigns=frozenset())]))
    return watcher


@record
class _Watcher(Interpreter):
    """The interpreter, noting each Python program a command runs instead of reading it further."""

    variable: str = ""
    scripts: dict[str, str] = field(default_factory=dict)  # console scripts: name -> the module they run
    as_written: bool = False  # the defaults the script takes run without arguments are the words' text
    runs: list[ProgramRun] = field(default_factory=list)
    worded: list[ProgramWords] = field(default_factory=list)

    def _run(self, fields: list[Field], env_words: list[EnvWord], world: World, place: Any, node: Any, span: Any, plain: list[Field]):
        run = _program(self.spans, plain, env_words, world, self.variable, self.scripts)
        files = tuple(source.path for _, source in segments_of(self.spans))
        if run is None or run == ANY_RUN:
            self.runs += [run] if run is not None else []
            self.worded += [ProgramWords(run, (), files=files)] if run is not None else []
            return super()._run(fields, env_words, world, place, node, span, plain)
        self.runs.append(run)
        read = fields if self.as_written else plain
        start = program_arguments([_text(word, self.spans) for word in read], self.scripts)
        given = read[start:] if start is not None else []
        words = tuple((_text(word, self.spans), _span(self.spans, word.start, word.end, word.raw)) for word in given)
        decided = tuple(_decided(word, world, self.spans) for word in given)
        defaults = tuple(_default(word, self.spans) for word in given) if read is not plain else ()
        self.worded.append(ProgramWords(run, words, decided, files, defaults if any(defaults) else (), world.conditions))
        return None

    def share_with(self, child: Any) -> None:
        """A script file this script runs: its programs' words are this script's runs too (their
        environment is not: `runs` stays this script's own)."""
        child.worded = self.worded

    def _alone(self, segments: Any, callee: SourceFile, anchor: int) -> set[tuple]:
        return set()  # the launches a script file gives on its own: none is kept here


def _program(
    spans: ScriptSpans, words: list[Field], env_words: list[EnvWord], world: World, name: str, scripts: dict[str, str]
) -> ProgramRun | None:
    command = python_command([_text(word, spans) for word in words], scripts)
    if command is None:  # python behind a launcher not read (`torchrun x.py`, `accelerate launch -m x`): any program
        return ANY_RUN if any(word.text is not None and (is_python(word.text) or word.text.endswith(".py")) for word in words) else None
    given, module, path = command
    if name in given:
        word = next(word for word in words if (word.text or "").startswith(name + "="))
        return ProgramRun(module, path, given[name], _span(spans, word.start, word.end))
    prefixed = [word for word in env_words if word.name == name]
    if prefixed:
        value, where = prefixed[-1].value, prefixed[-1].value_span
        return ProgramRun(module, path, value if isinstance(value, str) else None, _span(spans, *where) if where else None)
    if name not in world.exported:
        return ProgramRun(module, path, None)  # the caller's environment: not known here
    exported = world.variables.get(name)
    chunks = exported.chunks if isinstance(exported, Scalar) and exported.chunks else ()
    at = _span(spans, min(chunk.start for chunk in chunks), max(chunk.end for chunk in chunks)) if chunks else None
    return ProgramRun(module, path, scalar_text(exported), at)


def _text(word: Field, spans: ScriptSpans) -> str | None:
    """A word's text; for a path after the script's own folder (or one above it) spelt by a
    variable or `$(dirname ...)` (`${REPO_PATH}/examples/main.py`), the path in the tree."""
    if word.known or word.spread or len(word.chunks) < 2 or not isinstance(word.chunks[0], Hole):
        return word.text if word.known else None
    hole, rest = word.chunks[0], word.chunks[1:]
    if not all(isinstance(chunk, Chunk) for chunk in rest) or not rest[0].text.startswith("/"):  # type: ignore[union-attr]
        return None
    script = spans.file_of(hole.start) if isinstance(spans, ChainedSpans) else spans.source
    folder = folder_from_own(hole.raw, script.text)
    if folder is None:
        return None
    tail = "".join(chunk.text for chunk in rest).lstrip("/")  # type: ignore[union-attr]
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(script.path)), folder, tail)) + ("/" if tail.endswith("/") else "")


def _default(word: Field, spans: ScriptSpans) -> str | None:
    """The default a word holds, where the script writes it and when the script takes it."""
    taken = [chunk for chunk in word.chunks if isinstance(chunk, Chunk) and chunk.assumed is not None] if word.known else []
    if not taken:
        return None
    at = _span(spans, taken[0].start, taken[0].end, taken[0].text if taken[0].exact else None)
    where = f" at {at.path.rsplit('/', 1)[-1]}:{at.start_line}" if at is not None else ""
    return f"the default{where}, taken when {' and '.join(dict.fromkeys(c.assumed.condition for c in taken))}"  # type: ignore[union-attr]


def _decided(word: Field, world: World, spans: ScriptSpans) -> Span | None:
    """Where the script assigns the variable a word is alone (or writes the default it holds), when
    that is not the word itself."""
    if word.variable is None or not word.known:
        return None
    chunk = word.chunks[0] if len(word.chunks) == 1 else None
    if isinstance(spans, ChainedSpans) and not (isinstance(chunk, Chunk) and _span(spans, chunk.start, chunk.end, chunk.text)):
        return None  # (a value a sourced file wrote: its offsets are another chain's)
    if isinstance(chunk, Chunk) and chunk.assumed is not None and chunk.exact:  # `res_temp=${6:-0}`: the default's text
        return _span(spans, chunk.start, chunk.end, chunk.text)
    at = written_at(word, world, spans)
    return at if at is not None and at.path == spans.source.path and at != _span(spans, word.start, word.end) else None


def _span(spans: ScriptSpans, start: int, end: int, written: str | None = None) -> Span | None:
    """The span of the text read [start, end) (of a script file run: in the file of the chain it
    lies in); None for a place in another file (one a script sourced). In a chain, where the text
    there is not `written`: an offset of a file sourced along another chain is one of this chain's too."""
    if not 0 <= start <= end <= len(spans.source.text):
        return None
    if written is not None and isinstance(spans, ChainedSpans) and spans.source.text[start:end] != written:
        return None
    return spans.span(start, end)

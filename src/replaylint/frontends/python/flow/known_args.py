"""The words `parser.parse_known_args()` leaves over, as the tree's shell script that runs the
program gives them: NeMo-Skills' `serve_vllm.py` takes `--model`, `--num_gpus` and `--port` and
hands the rest to vLLM's server (`args, unknown = parser.parse_known_args()`, then
`f"python -m vllm.entrypoints.openai.api_server ... {' '.join(unknown)}"`), which its start
script fills (`python -m nemo_skills.inference.server.serve_vllm --model M --num_gpus 1
--enable-scale-out --return-sampling-mask`).

argparse's own reading is followed for a parser with no positional argument: a long flag of the
parser (or the one flag it begins: argparse's abbreviations) takes its value, any other long flag
is left over, and so is every word after it that no option takes, in their order. Each word left
over is placed where the script writes it (the assignment of the variable it is alone, else the
word), resting on that run. The words stay unknown where no script runs the module, a run is not
read for its words, runs leave different words, or a word is not known (`"$@"`); where argparse's
reading is not followed (a short flag, `--`, a positional, a flag that begins several, an option
that takes several words, options of the parser not seen: a helper not read, vLLM's
`add_cli_args`); and where the list is not bound to a name where it is parsed (`args, unknown =
parser.parse_known_args()`) or the module changes it in place (`unknown.append(...)`)."""

from __future__ import annotations

import ast

from ....model import Span
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .loops import changed_in_place
from .parsers import MANY, OPEN_WORDS, Parser, defaults_and_flags, flag_like, long_flag
from .script_flags import run_as, script_runs

Words = tuple[tuple[str | None, Span | None], ...]


def leftover_words(reader: Evaluates, parser: Parser, frame: Frame) -> Val:
    """The list `parse_known_args()` leaves over (its second item), as every run of the module by
    the tree's scripts gives it; NOTHING where that is not known."""
    if parser.parent is not None or not _kept_whole(frame):
        return NOTHING
    runs = script_runs(reader, frame.module)
    if not runs or any(run is None for run in runs):
        return NOTHING
    found, flags = defaults_and_flags(reader, parser)
    if found.reasons or found.assumed or OPEN_WORDS in flags:
        return NOTHING
    left = [_left(run.words, flags) for run in runs if run is not None]
    first = left[0]
    if first is None or any(words is None or [text for _, text, _ in words] != [text for _, text, _ in first] for words in left):
        return NOTHING
    decided = dict(enumerate(runs[0].decided))  # type: ignore[union-attr]
    items = [_word(text, span, decided.get(index), frame.module.path) for index, text, span in first]
    return Val([item.value for item in items], ref=tuple(items))


def _kept_whole(frame: Frame) -> bool:
    """Whether the words are bound where they are parsed (`args, unknown = parser.parse_known_args()`)
    to a name the module never changes in place (`unknown.append(...)`)."""
    statement = frame.at.statement if frame.at is not None else None
    target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
    names = target.elts if isinstance(target, ast.Tuple) and len(target.elts) == 2 else []
    left = names[1] if names and all(isinstance(name, ast.Name) for name in names) else None
    return isinstance(left, ast.Name) and not changed_in_place(frame.module.source.text, left.id)


def _left(words: Words, flags: dict) -> list[tuple[int, str, Span]] | None:
    """The words argparse leaves over, each with its place among the run's words; None where its
    reading is not followed."""
    left: list[tuple[int, str, Span]] = []
    position = 0
    while position < len(words):
        text, span = words[position]
        if text is None or span is None:
            return None
        if not flag_like(text):
            left.append((position, text, span))
            position += 1
            continue
        spelt, equals, _ = text.partition("=")
        if not spelt.startswith("--") or spelt == "--":
            return None  # a short flag (argparse's groups of them), or the end of the options
        flag = long_flag(spelt, flags)
        if flag not in flags:
            if flag == "" and any(known.startswith(spelt) for known in flags):
                return None  # it begins several flags: argparse refuses it
            left.append((position, text, span))
            position += 1
            continue
        named = flags[flag]
        if named is None or named[2] in MANY or (named[1] is not None and equals):
            return None  # words not read (`nargs`, `action="append"`), or a value a flag does not take
        position += 1 if named[1] is not None or equals else 2
        if named[1] is None and not equals and (position > len(words) or _flag_after(words[position - 1][0])):
            return None  # argparse: "expected one argument"
    return left


def _flag_after(text: str | None) -> bool:
    return text is None or flag_like(text)


def _word(text: str, span: Span, decided: Span | None, program: str) -> Val:
    at = decided or span
    return Val(text, span=at, origin=at, assumptions=((run_as(program, span, text), at),))

"""The options `parser.parse_args()` gives a program the tree's shell scripts run with flags
(Step-DPO's `eval.sh` running `python eval_math.py --temp 0.7 ...`, ZeroEval's `_common_eval.sh`
running `python src/unified_infer.py --temperature $TEMP` after `TEMP=0.7;`), as argparse reads
their words: the script's value wins over the option's default, placed where the script decides it
(the variable's assignment, else the flag and its word); the options a run does not give stay at
their defaults as before.

The runs are those `script_flags.script_runs` finds (the scripts near the module that name it,
read by the shell interpreter); a file that names the module without its words being read
(`torchrun x.py`, a YAML file) is not counted. Runs that give an option differently leave it
present with its value unknown. A long flag the parser is not seen to show (one vLLM's
`add_cli_args` adds) gives its option a value not read. A run whose words are not read as argparse
reads them (a word not known where a flag stands, such as `"$@"`; a short flag; a positional
`positionals` does not read) may give any option: every option is then unknown. Nothing is read where no script runs the
module, or for a subcommand's parser."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from ....model import UNKNOWN, Setting, Span
from .facts import Entry, Kwargs, Val, unknown
from .frames import Evaluates, Frame
from .parsers import UNSEEN, Parser, defaults_and_flags, option_pairs, option_value
from .program_environment import run_folder
from .refs import NamedFile
from .run_options import agreed
from .script_flags import run_as, script_runs

if TYPE_CHECKING:
    from ....readers.shell.program_runs import ProgramWords
    from .module import Module

_MAX_CALLERS = 6  # callers followed out from the parse to the program's top level
_OPEN = "a run of the program by a file of the tree that may give it any option"


def script_options(reader: Evaluates, parser: Parser, frame: Frame) -> Kwargs | None:
    """The options the shell scripts' runs of `frame`'s module give; None: no such run."""
    if parser.parent is not None:
        return None
    program = _program(frame)
    runs = script_runs(reader, program)
    if not runs:
        return None
    given = []
    for run in runs:
        if run is None:
            continue  # a run not read for its words (`torchrun`, a YAML file naming the module): not counted
        found, flags = defaults_and_flags(reader, parser)
        given.append(found if _given(found, flags, run, program.path) else _open(found))
        _files_named(reader, found, run, program.path)
    return agreed(given) if given else None


def _program(frame: Frame) -> Module:
    """The module run as the program whose command line the parse reads: the top level of another
    module whose call leads to it (FlagScale's `cfg = parse_config()` under `if __name__ ==
    "__main__":` of inference_aquila.py, the parser made in arguments.py), else the parse's own module."""
    outer = frame
    for _ in range(_MAX_CALLERS):
        if outer.returned_to is None:
            break
        outer = outer.returned_to
    return outer.module if outer.scope is outer.module.tree else frame.module


_CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".ini")


def _files_named(reader: Evaluates, found: Kwargs, run: ProgramWords, program: str) -> None:
    """An option the run gives a relative config file's path (`--config-path
    examples/aquila/conf/inference/7b.yaml`) names that file from the run's working folder, when
    the tree holds it: the value handed on is that file (`OmegaConf.load(args.config_path)`)."""
    read_text = reader.tree.context.read_text
    folder = None
    for dest, item in list(found.entries.items()):
        value = item.setting.value
        given = item.setting.span.path in run.files  # written by the run, not the option's default
        if not (given and isinstance(value, str) and value.endswith(_CONFIG_SUFFIXES) and not os.path.isabs(value)):
            continue
        folder = folder or (run_folder(run.run, run.file, program, read_text) if run.file else None)
        if folder is None:
            return
        path = os.path.normpath(os.path.join(folder, value))
        if read_text(path) is not None:
            found.entries[dest] = replace(item, ref=NamedFile(path))


def _open(found: Kwargs) -> Kwargs:
    """Every option present with its value unknown: the run may give any of them."""
    for dest, item in list(found.entries.items()):
        found.entries[dest] = unknown(item)
    found.reasons.append(_OPEN)
    return found


def _given(found: Kwargs, flags: dict, run: ProgramWords, program: str) -> bool:
    """`found` with what the run's words give, as argparse reads them; False where it cannot tell."""
    words = [Val(text if text is not None else UNKNOWN, span=span) for text, span in run.words]
    decided = dict(zip(map(id, words), run.decided))
    defaults = dict(zip(map(id, words), run.defaults))
    pairs = option_pairs(
        flags, words, lambda word: word.value if isinstance(word.value, str) and word.span is not None else None, unseen=True
    )
    if pairs is None:
        return False
    for dest, flag, stored, text, following, convert in pairs:
        if convert == UNSEEN:  # an option the parser may hold without showing it: what it gives is not read
            value: object = UNKNOWN
        elif stored is not None:
            value = stored
        elif following is None:
            value = option_value(text, convert)
        else:
            value = following.value if convert in (None, "str") or not following.known else option_value(following.value, convert)
        found.entries.pop(dest, None)
        default = defaults.get(id(following)) or defaults.get(id(flag)) or run.taken_when()
        found.entries[dest] = _entry(dest, flag, following, value, decided.get(id(following)), program, default)
    return True


def _entry(
    dest: str, flag: Val, following: Val | None, value: object, decided: Span | None, program: str, default: str | None = None
) -> Entry:
    """The option as the script gives it: at the variable's assignment that decides its value, else
    at the flag's word and the word after it."""
    at: Span = flag.span  # type: ignore[assignment]  (a flag's word is read only where the script writes it)
    written = str(flag.value) if following is None else f"{flag.value} {_text(following)}"
    if following is not None and following.span is not None and following.span.path == at.path:
        at = at.cover(following.span)
    span = decided or at
    whose = run_as(program, at, written, default)
    setting = Setting(dest, value, span, written, decided or (following.span if following is not None else None))
    return Entry(setting, None, assumptions=((whose, span),))


def _text(word: Val) -> str:
    return word.value if isinstance(word.value, str) else "..."

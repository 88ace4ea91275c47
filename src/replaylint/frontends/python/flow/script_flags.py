"""Flags the tree's shell scripts give a program whose function `fire.Fire(main)` runs (and the
words `sys.argv[i]` reads: `script_word`): DeepMath's `eval.sh` running `python uni_eval.py --temperature 0.6 --repetition_penalty 1.05`, which `main`'s
parameter `repetition_penalty` then holds (instead of its default), placed on the script's word; a click
command's options the same way, as click reads the words (`click_words`).

The scripts are those near the module that name it (`program_environment.run_files`), read by the
shell interpreter (`readers.shell.program_runs.program_words`; a script other scripts run with their
words, through them: `script_callers`), each run of the module counted. Fire's
own reading of the words is followed: `--name value`, `--name=value`, `-` in a name as `_`, a flag
followed by another flag (or last) as `True`, a value as Python's literal (`1.05`, `True`) else
the text. Every run must give the parameter the same value (a run that does not give it: the
default). A run with a word not known (`"$@"`, `$1`), a positional word or a short flag (fire binds
them to parameters by place or by letter), `--noNAME`, a justfile, YAML or other file naming the
module (as a word: not `offline_inference` in a comment) that is not read for its words, or runs that
disagree, leave the parameter open.

A function's `**kwargs` (EvolveCoder's `main(..., top_k=1, **vllm_kwargs)` run by `python
step2.1_vllm_gen.py "${DATA}" --top_k=20 --return_sampling_mask=True`) hold each flag no parameter
names (`script_kwargs`; with `**kwargs` fire takes every `--name` as a keyword, a bare `--noNAME` as
`NAME=False`, positional words for the parameters): open where no script runs the module (by hand
anything may be passed), a run is not read for its words, has a word not known or a short flag, or
runs give different keywords.

A function fire reaches through a dict of commands (`fire.Fire(ALL_FUNCTIONS)`) runs where a run's
first word is its key (or the key with `_` written `-`); a run naming another command does not run
it, and a first word not known leaves the parameter open. The runs of the module are also those of
the commands its project installs to run the function that calls fire (`console_scripts`)."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ....model import UNKNOWN, Setting, Span
from ....readers.python_runs import ANY_RUN
from ....regexes import on_use
from .click_words import ABSENT, OPEN, Given, Words
from .console_scripts import console_commands
from .dicts import as_val
from .facts import NOTHING, Entry, Kwargs, Val
from .module import Module
from .program_environment import run_files, runs_module
from .script_callers import script_runs_read

if TYPE_CHECKING:
    from ....readers.shell.program_runs import ProgramWords

_FLAG = re.compile(r"-(?:-|[a-zA-Z]).*")  # fire's `_IsFlag`: `--` alone too
_MAX_VALUES = 2  # two values already disagree
_RUN_AS = " runs it, with `"


def script_flag(
    reader, module: Module, name: str, default: Val, command: str | None = None, within: str | None = None, reading=None
) -> Val:
    """The value of `main`'s parameter `name` as every run of the module by the tree's scripts
    gives it: `default` (the function's own) where none runs it or none gives it; NOTHING where
    that is not known. `command`: the key of the function in the dict of commands fire is given;
    `within`: the module's function that calls fire (a command the project installs may run it);
    `reading`: how one run's words give the parameter (`fire_given`'s, else `click_words.click_given`'s)."""
    reading = reading or fire_given(quoted_flag(reader))
    runs = commanded_runs(reader, module, command, within)
    if not runs:
        return default
    found = [reading(run.words, name, run.defaults) if run is not None else OPEN for run in runs]
    if any(item is OPEN for item in found) or (ABSENT in found and not default.known):
        return NOTHING
    given = [item for item in found if isinstance(item, Given)]
    values = {repr(item.value) for item in given} | ({repr(default.value)} if ABSENT in found else set())
    if len(values) >= _MAX_VALUES or any(item.value is UNKNOWN for item in given):
        return NOTHING
    if not given:
        return default
    first = given[0]
    whose = run_as(module.path, first.span, first.text, first.default or runs[found.index(first)].taken_when())  # type: ignore[union-attr]
    return Val(first.value, span=first.span, origin=first.span, assumptions=((whose, first.span),))


def script_word(reader, module: Module, index: int) -> Val:
    """`sys.argv[index]` as every run of the module by the tree's shell scripts gives it (llama-cookbook's
    `python start_vllm.py 0 vllm_llama_8b`), placed on the script's word; NOTHING where none runs it, a
    run is not read for its words, gives fewer words or a word not known, or runs disagree."""
    runs = script_runs(reader, module)
    words = [run.words[index - 1] if run is not None and index - 1 < len(run.words) else (None, None) for run in runs]
    if not words or any(text is None or span is None for text, span in words) or len({text for text, _ in words}) > 1:
        return NOTHING
    text, span = words[0]
    assert span is not None and runs[0] is not None
    default = (runs[0].defaults[index - 1] if index - 1 < len(runs[0].defaults) else None) or runs[0].taken_when()
    return Val(text, span=span, origin=span, assumptions=((run_as(module.path, span, text, default), span),))


def run_as(program: str, at: Span, written: str, default: str | None = None) -> str:
    """What a value a script's run of the program gives rests on (`eval_math.py runs as eval.sh:4
    runs it, with `--temp 0``): the run as the tree writes it, not a default of the run; `default`:
    the script's own default the word holds run as written (`ProgramWords.defaults`)."""
    said = f"{program.rsplit('/', 1)[-1]} runs as {at.path.rsplit('/', 1)[-1]}:{at.start_line}{_RUN_AS}{written}`"
    return f"{said} ({default})" if default else said


def is_run_as(said: str) -> bool:
    """Whether an assumption is one `run_as` says."""
    return _RUN_AS in said and " runs as " in said


def rests_on_environment(assumptions) -> bool:
    """Whether a value rests on a default of the run's environment (`os.getenv`'s): it may be anything
    then (a port so decided ties no client of another file; a factory's branch so picked makes no
    known object). The program's own defaults (an option's `default=`) are what it does when run as
    written: the value is the default, and a finding on it says whose (a script's run, `run_as`, first)."""
    return any(said.endswith(" is unset") for said, _ in assumptions if not is_run_as(said))


def script_kwargs(reader, module: Module, named: set[str], command: str | None, within: str | None) -> Val | None:
    """The keywords every run of the module gives the function's `**kwargs` alike, each placed on the
    script's word (None: no run, a run not known, or runs that differ)."""
    runs = commanded_runs(reader, module, command, within)
    keyed = quoted_flag(reader)
    read = [_keywords(run.words, run.defaults, named, keyed) if run is not None else None for run in runs]
    if not read or any(item is None for item in read):
        return None
    first = read[0]
    assert first is not None and runs[0] is not None
    if any(_shown(item) != _shown(first) for item in read[1:]):  # type: ignore[arg-type]
        return None
    found = Kwargs()
    for key, (value, flag) in first.items():
        assert flag.span is not None
        whose = run_as(module.path, flag.span, flag.written, flag.default or runs[0].taken_when())
        setting = Setting(key, value, flag.span, flag.written, flag.span)
        found.entries[key] = Entry(setting, assumptions=((whose, flag.span),))
    return as_val(found)


def parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = function.args
    return {param.arg for param in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def _shown(keywords: dict[str, tuple[object, FireFlag]]) -> dict[str, str]:
    return {key: repr(value) for key, (value, _) in keywords.items()}


def _keywords(words: Words, defaults, named: set[str], keyed: Keyed) -> dict[str, tuple[object, FireFlag]] | None:
    """The keywords one run's words give `**kwargs` (the last flag wins); None where not known."""
    read = fire_flags(words, defaults, keyed)
    if read is None:
        return None
    keywords: dict[str, tuple[object, FireFlag]] = {}
    for flag in read[0]:
        key, value = flag.key, flag.value
        if key in named or (flag.bare and key.startswith("no") and key[2:] in named):
            continue
        if flag.bare and key.startswith("no"):  # fire's `--noNAME`: NAME=False
            key, value = key[2:], "False"
        if not key or value is None or flag.span is None:
            return None
        keywords[key] = (fire_value(value), flag)
    return keywords


def as_run(reader, module: Module, run: ProgramWords) -> None:
    """Read the module's command line as this one run of a script gives it (`script_programs`)."""
    reader.__dict__.setdefault("_script_run_as", {})[module.path] = [run]


_OTHER = object()  # a run of another command of fire's dict


def commanded_runs(reader, module: Module, command: str | None, within: str | None) -> list[ProgramWords | None]:
    """The runs of the module that run the function (`command`: its key in fire's dict of commands)."""
    runs = script_runs(reader, module, within)
    if command is None:
        return runs
    return [run for run in (_commanded(run, command) for run in runs) if run is not _OTHER]  # type: ignore[misc]


def _commanded(run: ProgramWords | None, command: str) -> ProgramWords | None | object:
    """The run's words after the command that picks the function from fire's dict (None: not known)."""
    if run is None or not run.words:
        return None if run is None else _OTHER  # (no word: fire shows the dict's commands)
    first = run.words[0][0]
    if first is None:
        return None
    if command not in (first, first.replace("-", "_")):
        return _OTHER
    return replace(run, words=run.words[1:], decided=run.decided[1:], defaults=run.defaults[1:])


def script_runs(reader, module: Module, within: str | None = None) -> list[ProgramWords | None]:
    """Each run of the module by a file near it, with its words (None: a run not read for its words);
    `within`: the function the project's commands must run (`console_scripts`)."""
    given = reader.__dict__.get("_script_run_as", {}).get(module.path)
    if given is not None:
        return given  # the one run a script's reading of the program is for (`as_run`)
    known: dict = reader.__dict__.setdefault("_script_flag_runs", {})
    if (module.path, within) not in known:
        known[module.path, within] = _read_runs(reader, module.path, within)
    return known[module.path, within]


def _read_runs(reader, path: str, within: str | None) -> list[ProgramWords | None]:
    context = reader.tree.context
    stem = os.path.splitext(os.path.basename(path))[0]
    commands, skip = console_commands(context, path, within) if within is not None else ({}, frozenset())
    files, elsewhere = run_files(context, path, stem, skip)
    for command in commands:  # `alpaca_eval evaluate_from_model ...` of `alpaca_eval = "alpaca_eval.main:main"`
        more, elsewhere_too = run_files(context, path, command, skip)
        files += [item for item in more if item[0] not in dict(files)]
        elsewhere = elsewhere or elsewhere_too
    found: list[ProgramWords | None] = [None] if elsewhere else []
    for file, text in files:
        if not file.endswith((".sh", ".bash")):
            if _names_program(text, stem, commands):
                found.append(None)  # a justfile or a YAML file: its runs' words are not read here
            continue
        runs = script_runs_read(reader, file, text, path, commands)
        if runs is None:
            found.append(None)
            continue
        for run in runs:
            if run.run == ANY_RUN:
                found.append(None)
            elif runs_module(run.run, run.file or file, path, context.read_text):
                found.append(run)
    return list(dict.fromkeys(found))  # (a script's run read through the script that runs it, and in it)


def _names_program(text: str, stem: str, commands) -> bool:
    """Whether a file not read for its words names the program as a word (`python inference.py`,
    `-m pkg.inference`, a command the project installs), not inside another name
    (`offline_inference.run_name` in a config file's comment)."""
    names = (stem, *commands)
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) for name in names)


Keyed = Callable[[Span], str | None] | None
_QUOTED_VALUE = on_use(r'(--[A-Za-z_][\w-]*=)"[^"`\\]*"')  # `--start_idx="${start}"`


def quoted_flag(reader):
    """The flag (`--start_idx=`) a script's word writes with its value quoted whole, read off the
    script's text (`fire_flags`' `keyed`)."""
    read_text = reader.tree.context.read_text

    def keyed(span: Span) -> str | None:
        text = read_text(span.path) or ""
        match = _QUOTED_VALUE.fullmatch(text[span.start : span.end])
        return match.group(1) if match else None

    return keyed


@dataclass(frozen=True)
class FireFlag:
    """One flag of a run as fire reads it: `key` (`-` as `_`), the value's text and word (None: not
    known), the flag as written (`--top_k=20`, `--top_k 20`), whether bare (fire's boolean syntax)."""

    key: str
    value: str | None
    span: Span | None
    written: str
    bare: bool
    default: str | None  # the script's default the word holds (`ProgramWords.defaults`)


def fire_flags(words: Words, defaults: tuple[str | None, ...] = (), keyed: Keyed = None) -> tuple[list[FireFlag], int] | None:
    """The flags of one run's words in order, and how many positional words it has; None where a
    word is not known or a short flag (fire binds it by letter). `keyed`: the flag a word not known
    writes with a value quoted whole (`--start_idx="${start}"`: one word, its value not known)."""
    flags: list[FireFlag] = []
    positional = 0
    position = 0
    while position < len(words):
        text, span = words[position]
        flag = keyed(span) if keyed is not None and text is None and span is not None else None
        if flag is not None and span is not None:
            default = defaults[position] if position < len(defaults) else None
            flags.append(FireFlag(flag[2:-1].replace("-", "_"), None, span, flag, False, default))
            position += 1
            continue
        if text is None or span is None or (text.startswith("-") and not text.startswith("--")):
            return None
        if not text.startswith("--"):
            positional += 1
            position += 1
            continue
        if text == "--":
            break  # fire's own flags follow
        key, equals, value = text[2:].partition("=")
        following = words[position + 1] if position + 1 < len(words) else None
        bare = not equals and (following is None or (following[0] is not None and _FLAG.fullmatch(following[0]) is not None))
        if equals:
            item: tuple[str | None, Span | None] = (value, span)
        elif bare:
            item = ("True", span)
        else:
            item = following  # type: ignore[assignment]
        position += 1 if equals or bare else 2
        default = defaults[position - 1] if position - 1 < len(defaults) else None
        written = text if equals or bare else f"{text} {item[0]}"
        flags.append(FireFlag(key.replace("-", "_"), item[0], item[1], written, bare, default))
    return flags, positional


def fire_given(keyed: Keyed = None):
    """The reading of one run's words for a parameter as fire reads them, the last flag winning
    (`script_flag`'s `reading`; `keyed`: `quoted_flag`'s)."""

    def given(words: Words, name: str, defaults: tuple[str | None, ...] = ()) -> object:
        read = fire_flags(words, defaults, keyed)
        if read is None or read[1]:
            return OPEN  # a word not known, a positional word, a short flag
        result: object = ABSENT
        for flag in read[0]:
            if flag.key == f"no{name}":
                return OPEN
            if flag.key == name:
                if flag.value is None or flag.span is None:
                    return OPEN
                result = Given(fire_value(flag.value), flag.written, flag.span, flag.default)
        return result

    return given


def fire_value(text: str) -> object:
    """The value fire makes of a word: a Python literal (bare words as strings), else the text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return UNKNOWN if any(mark in text for mark in "[({") else text

"""Plausible inputs for a script that stops before its launch, read from what bash said.

When a run records no vLLM start with the mask, the next run gets what the last one asked for:
the arguments a usage line lists (each word of `aggregated|disaggregated` in turn; a model
name or a small integer for a named argument), a placeholder for a variable that `set -u` or
`${NAME:?}` wants or that the script says is not set, the folder a `cd` or a redirection needs, an empty stand-in for a sourced
file the project does not ship, or, for a library of functions, a call to the function that
holds the launch (one the script defines but never calls). A script whose launch sits in a
branch that none of these takes stays unreached. Nothing here reads the script's launches.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import replace
from pathlib import Path

from .sandbox import Inputs, Run

MAX_RUNS = 10
# Placeholders, and the other value each takes in the second run that tells whether the launch
# depends on it (a number: the next one; usage words are not placeholders: they choose).
MODEL, OTHER_MODEL = "org/model", "org/other-model"
NUMBER = "1"
SMALL_NUMBERS = ["1", "2", "0"]  # for an argument a usage line names: a count, an index, a shard
TOKEN, OTHER_TOKEN = "hf_placeholder", "hf_other"  # a Hugging Face token starts with hf_
SECOND_VALUE = {MODEL: OTHER_MODEL, TOKEN: OTHER_TOKEN}

_BASH_ERROR = re.compile(r"^(?P<file>.*?): line (?P<line>\d+): (?P<rest>.*)$", re.M)
_UNBOUND = re.compile(r"^(?P<name>[A-Za-z_]\w*|\d+): unbound variable$")
_REQUIRED = re.compile(r"^(?P<name>[A-Za-z_]\w*|\d+): (?P<message>.+)$")
_MISSING = re.compile(r"^(?:(?P<builtin>cd|source|\.): )?(?P<path>[^:]+): No such file or directory$")
_NOT_SET = re.compile(r"\b(?P<name>[A-Z][A-Z0-9_]{2,}) (?:is not set|is NOT set|must be set|is required)\b")
_USAGE = re.compile(r"\busage:\s*(?P<words>.*)", re.I)
_FUNCTION = re.compile(r"^\s*(?:function\s+(?P<a>[\w:.-]+)\s*(?:\(\s*\))?|(?P<b>[\w:.-]+)\s*\(\s*\))\s*\{?\s*$")
_SOURCE = re.compile(r"^\s*(?:source|\.)\s")
_KNOWN_MESSAGES = ("unbound variable", "command not found", "No such file or directory", "Permission denied", "syntax error")


def placeholder(name: str) -> str:
    lowered = name.lower()
    if "model" in lowered:
        return MODEL
    return TOKEN if "hf_token" in lowered or "hugging" in lowered else NUMBER


def second_inputs(inputs: Inputs) -> Inputs:
    """The same inputs with every placeholder changed (a number by one): a launch that this
    changes depends on them. Usage words, folders and files stay."""
    return replace(inputs, argv=tuple(_other(v) for v in inputs.argv), env=tuple((k, _other(v)) for k, v in inputs.env))


def _other(value: str) -> str:
    return str(int(value) + 1) if value.isdigit() else SECOND_VALUE.get(value, value)


def has_placeholders(inputs: Inputs) -> bool:
    return any(_other(v) != v for v in inputs.argv) or any(_other(v) != v for _, v in inputs.env)


def learned(inputs: Inputs) -> Inputs:
    """What a run was given that every other try needs too (not its arguments or call)."""
    return replace(inputs, argv=(), call="")


def merged(choice: Inputs, known: Inputs) -> Inputs:
    """A choice of arguments (or call) with everything learned so far."""
    env = dict(known.env) | dict(choice.env)
    return replace(
        choice,
        env=tuple(env.items()),
        folders=_unique([*known.folders, *choice.folders]),
        files=_unique([*known.files, *choice.files]),
        from_root=known.from_root or choice.from_root,
    )


def next_inputs(run: Run, script: str, script_text: str, site_line: int, project_texts: list[str]) -> list[Inputs]:
    """What to give the next run, from what this run's bash said (several: try each in turn).
    `site_line`: the launch's line in `script_text`; `project_texts`: the project's scripts."""
    inputs = run.inputs
    output = run.stdout + "\n" + run.stderr
    usage = _usage_arguments(output, script)
    if usage and not inputs.argv:
        return [replace(inputs, argv=argv) for argv in usage]
    fixed = _fixes(run, output, inputs, script_text)
    if fixed != inputs:
        return [fixed]
    call = uncalled_function_at(script_text, site_line, project_texts)
    if call and not inputs.call:
        return [replace(inputs, call=call, argv=())]
    return []


def _fixes(run: Run, output: str, inputs: Inputs, script_text: str) -> Inputs:
    env, argv = dict(inputs.env), list(inputs.argv)
    for said in _NOT_SET.finditer(output):
        name = said.group("name")
        if re.search(r"\$\{?" + name + r"\b", script_text):
            _want(name, env, argv)
    folders, files, from_root = list(inputs.folders), list(inputs.files), inputs.from_root
    for error in _BASH_ERROR.finditer(output):
        rest = error.group("rest").strip()
        if unbound := _UNBOUND.match(rest):
            _want(unbound.group("name"), env, argv)
        elif (missing := _MISSING.match(rest)) is not None:
            path = _relative(missing.group("path"), run.tree)
            if path is None:
                continue
            if not os.path.isabs(missing.group("path")) and not from_root:
                from_root = True  # a path relative to the project's root: CI scripts start there
                continue
            builtin = missing.group("builtin")
            if builtin == "cd":
                folders.append(path)
            elif builtin in ("source", ".") or _SOURCE.match(_line(error.group("file"), int(error.group("line")))):
                files.append(path)
            elif os.path.dirname(path) not in ("", "/"):
                folders.append(os.path.dirname(path))  # a redirection into a folder that is not there
        elif (required := _REQUIRED.match(rest)) and not rest.endswith(_KNOWN_MESSAGES):
            if _asks_for(error.group("file"), int(error.group("line")), required.group("name")):
                _want(required.group("name"), env, argv, required.group("message"))
    return replace(inputs, env=tuple(env.items()), argv=tuple(argv), folders=_unique(folders), files=_unique(files), from_root=from_root)


def _want(name: str, env: dict[str, str], argv: list[str], message: str = "") -> None:
    if not name.isdigit():
        env.setdefault(name, placeholder(name))
        return
    usage = _usage_arguments(message, "") if message else []
    wanted = list(usage[0]) if usage else []
    while len(argv) < int(name):
        index = len(argv)
        argv.append(wanted[index] if index < len(wanted) else (MODEL if index == 0 else NUMBER))


def _usage_arguments(output: str, script: str) -> list[tuple[str, ...]]:
    """Each argument list a usage line allows: `serve.sh aggregated|disaggregated` gives
    (aggregated,) and (disaggregated,); `<prefiller | decoder> [model]` the two words; a named
    argument (`SHARD_ID`, `<config.yaml>`) a placeholder. Options end the list."""
    match = _USAGE.search(output)
    if match is None:
        return []
    words = re.sub(r"\s*\|\s*", "|", match.group("words")).split()
    if words and (os.path.basename(words[0]) == os.path.basename(script) or words[0].endswith(".sh")):
        words = words[1:]
    choices: list[list[str]] = []
    for word in words:
        if word.startswith(("-", "[-")):
            break
        optional = word.startswith("[")
        bare = word.strip("[]<>{}()'\"")
        if "|" in bare:
            choices.append([choice for choice in bare.split("|") if choice])
        elif optional or not bare or bare == "...":
            break
        else:
            value = placeholder(bare)
            choices.append(SMALL_NUMBERS if value == NUMBER else [value])
    return list(itertools.islice(itertools.product(*choices), MAX_RUNS)) if choices else []


def uncalled_function_at(text: str, line: int, project_texts: list[str]) -> str:
    """The function defined before `line` (the launch) in `text`, if no file calls it."""
    name = ""
    for source_line in text.splitlines()[: line - 1]:
        match = _FUNCTION.match(source_line)
        if match:
            name = match.group("a") or match.group("b")
    if not name or name in ("main",):
        return ""
    call = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-]|\s*\(\s*\))")
    for source in project_texts:
        for source_line in source.splitlines():
            if call.search(source_line) and not _FUNCTION.match(source_line):
                return ""
    return name


def _asks_for(file: str, line: int, name: str) -> bool:
    """Whether the line bash names expands `${NAME:?...}` or `${NAME?...}`."""
    text = _line(file, line)
    return re.search(r"\$\{" + re.escape(name) + r":?\?", text) is not None


def _line(file: str, line: int) -> str:
    try:
        lines = Path(file).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _relative(path: str, tree: Path | None) -> str | None:
    """A path bash named, relative to the run's tree when inside the run's folder (the next
    run has another), else as it is."""
    if tree is not None and path.startswith(str(tree.parent) + os.sep):
        return os.path.relpath(path, tree)
    if os.path.isabs(path):
        return path
    return path if tree is not None else None  # relative: to the project's root, where most scripts cd


def _unique(paths: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(paths))

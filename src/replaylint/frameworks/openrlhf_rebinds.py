"""An OpenRLHF fork that rebinds the correction's own variable before its `if` (`frameworks/openrlhf_fork.py`).

`create_vllm_engines` writes `actor_kwargs["logprobs_mode"] = logprobs_mode` and `actor_kwargs["max_logprobs"] = 1`
under `if logprobs_mode:`, the parameter the command line's correction flag gives. A fork that assigns the
variable first (`if os.environ.get("OPENRLHF_SAMPLING_REPLAY", "0") == "1": logprobs_mode = "processed_logprobs"`)
decides both keys where its test holds: they are then written with its value, over the command line's, and
the test is decided like any other of the fork's (a variable the launch does not set keeps the launch open).
A value that is no literal, one that turns the correction's `if` off, or more than one assignment, is not read:
the launch stays open. Without such an assignment, what the tree's caller passes decides the `if` for the fork's
own keys under it (`correction_holds`).
CPython's parser only; nothing of the tree runs.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any, Mapping

from ..model import UNKNOWN, Setting
from .built_dicts import BuiltDict
from .fork_conditions import guarded, if_tests
from .fork_source import literal, parse

_KEYS = ("logprobs_mode", "max_logprobs")  # what `if logprobs_mode:` writes


def rebound_correction(built: BuiltDict, function: str, correction: str) -> BuiltDict:
    """The dict with the keys written under `if <correction>:` taken over by the fork's one earlier
    assignment of that variable in `function` (as it was: none; its value not known: more than one)."""
    written = [built.entries[key] for key in _KEYS if key in built.entries and built.entries[key].condition == correction]
    if not written:
        return built
    rebinds = [found for found in _rebinds(built.text, function, correction) if found[0].lineno < written[0].line]
    if len(rebinds) > 1:  # which one holds is not followed here: not known
        texts = "; ".join(ast.unparse(statement) for statement, _ in rebinds)
        unknown = {entry.key: replace(entry, value=UNKNOWN, text=texts, condition="") for entry in written}
        return replace(built, entries={**built.entries, **unknown})
    if not rebinds:
        return built
    statement, condition = rebinds[0]
    value = literal(statement.value)
    text = ast.unparse(statement.value if value is not UNKNOWN else statement)  # not a bare name: no parameter's
    taken = {}
    for entry in written:
        if entry.key == "logprobs_mode":
            new = replace(entry, value=value if value else UNKNOWN, text=text, line=statement.lineno)
        else:
            new = entry if value else replace(entry, value=UNKNOWN, text=f"{entry.text} if {text} else nothing")
        taken[entry.key] = replace(new, condition=condition, otherwise=entry if condition else None)
    return replace(built, entries={**built.entries, **taken})


def correction_holds(built: BuiltDict, callers: Mapping[str, tuple[Any, Setting | None]]) -> bool | None:
    """Whether `create_vllm_engines`' `if logprobs_mode:` holds: what the tree's caller passes
    (`"processed_logprobs" if args.algo.advantage.is_correction_enable else None`, decided by the
    command line's switch: `callers`), unless the fork assigns the parameter itself (None: not decided)."""
    if "logprobs_mode" not in callers or _rebinds(built.text, "create_vllm_engines", "logprobs_mode"):
        return None
    value = callers["logprobs_mode"][0]
    return None if value is UNKNOWN else bool(value)


def _rebinds(text: str, function: str, name: str) -> list[tuple[ast.Assign, str]]:
    """Each `name = value` in the function, with the `if` tests it sits under (its loops' left out:
    the dict is built anew in the loop's body, under the same ones)."""
    module = parse(text)
    functions = [node for node in ast.walk(module) if isinstance(node, ast.FunctionDef) and node.name == function] if module else []
    if len(functions) != 1:
        return []
    return [
        (statement, if_tests(condition))
        for statement, condition in guarded(functions[0].body)
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == name
    ]

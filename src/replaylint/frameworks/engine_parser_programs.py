"""A Python program of the user's that reads its command line with vLLM's engine parser and builds
its engine from what it parsed: RULER's `pred/serve_vllm.py` (MInference, x-attention) and vLLM's
old `api_server.py` and `llm_engine_example.py` spell it

    parser = AsyncEngineArgs.add_cli_args(parser)
    args = parser.parse_args()
    engine_args = AsyncEngineArgs.from_cli_args(args)
    engine = AsyncLLMEngine.from_engine_args(engine_args)

so `python pred/serve_vllm.py --model M --return-sampling-mask` starts an engine with those flags,
as vLLM's own parser reads them (`EngineArgs.add_cli_args` registers the same engine options as
`vllm serve`; `from_cli_args` takes every field from the namespace). The program's own options
(`parser.add_argument("--port", ...)`) are its, not the engine's: they are left out of the words.

Followed only when the tree holds the program (`nearby.upward`) and its syntax says all of it
(read with `ast`, never run): the parser given to `add_cli_args` is parsed with `parse_args()`
(the command line itself), that namespace goes to `from_cli_args`, and the result to
`from_engine_args`. A field the program writes itself (`engine_args.max_model_len = 2048`, on the
namespace, or with `set_defaults`) is the program's: the words' value for it is dropped, and the
launch is open-ended when it is one replay reads (the program's own line decides it; the Python
frontend reads it there). The server is the program's (a FastAPI `/generate` route, not vLLM's
OpenAI server), so no HTTP client is tied to it."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from ..command import CommandHandle, command_launch as vllm_command_launch
from ..launch_context import LaunchContext
from ..model import Launch, Span
from ..records import record
from ..vllm.command_line import Token
from ..vllm.engine_fields import FIELDS
from .nearby import upward

_NO_VALUE_ACTIONS = ("store_true", "store_false", "store_const", "count", "help", "version")


@record(unsafe_hash=True)
class EngineParserProgram:
    own_options: dict[str, bool | None]  # the program's own option strings: whether each takes one value (None: not known)
    written: frozenset[str]  # engine fields the program sets itself ("**": some it names only at run time)


def script_launch(context: LaunchContext, span: Span, tokens: list[Token], elements: Any, syntax: Any) -> Launch | None:
    """`python pred/serve_vllm.py FLAGS`: the engine the program builds from FLAGS, or None (a program
    the tree does not hold, or one that does not build its engine from its command line)."""
    script = tokens[0] if tokens else None
    if script is None or not script.known or context.read_text is None:
        return None
    text = upward(str(script.text), span.path, context.read_text)
    program = engine_parser_program(text) if text is not None and "from_cli_args" in text else None
    if program is None:
        return None
    kept, unread = _engine_words(tokens, program.own_options)
    launch = vllm_command_launch(context, span, [tokens[i] for i in kept], elements, syntax)
    if launch is None:
        return None
    written = sorted(name for name in program.written if name in FIELDS or name == "**")
    reasons = tuple(f"{'fields' if name == '**' else name} as {script.text} sets them" for name in written)
    reasons += tuple(f"the words {option} of {script.text} takes" for option in unread)
    handle = launch.handle
    if isinstance(handle, CommandHandle):
        indices = {name: tuple(kept[i] for i in found) for name, found in handle.token_indices.items()}
        handle = replace(handle, tokens=list(tokens), token_indices=indices)
    return replace(
        launch,
        settings={name: setting for name, setting in launch.settings.items() if name not in program.written},
        open_reasons=(*launch.open_reasons, *reasons),
        handle=handle,
        entrypoint="",
        label=f"{context.label or 'command'}: the vLLM engine {script.text} builds from its words",
    )


def _engine_words(tokens: list[Token], own_options: dict[str, bool | None]) -> tuple[list[int], list[str]]:
    """The indices of the words after the program that reach vLLM's engine options, and the program's
    own options whose values are not known to be one word or none (`nargs`, an action of its own)."""
    kept: list[int] = []
    unread: list[str] = []
    index = 1
    while index < len(tokens):
        text = tokens[index].text if tokens[index].known else None
        option = text.split("=", 1)[0] if text is not None and text.startswith("-") else None
        if option in own_options:
            takes = own_options[option]
            if takes is None:
                unread.append(option)
            index += 2 if takes and "=" not in str(text) else 1
            continue
        kept.append(index)
        index += 1
    return kept, unread


def engine_parser_program(text: str) -> EngineParserProgram | None:
    """What a program that builds vLLM's engine from its own command line says, or None."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    methods = [call for call in calls if isinstance(call.func, ast.Attribute)]
    groups = _argument_groups(tree)
    engine_parsers = {groups.get(name, name) for name in _engine_call_args(methods, "add_cli_args")}
    if not engine_parsers or not _parses_command_line(methods, engine_parsers):
        return None
    engines = {name for name, value in _assignments(tree) if _engine_call_args([value], "from_cli_args")}
    if not any(_builds_engine(call, engines) for call in calls):
        return None
    changed = engines | _engine_call_args(methods, "from_cli_args")  # the engine's arguments and the namespace read
    own: dict[str, bool | None] = {}
    written: set[str] = set()
    for call in methods:
        if call.func.attr == "add_argument":  # type: ignore[attr-defined]
            own.update(_own_option(call))
        elif call.func.attr == "set_defaults":  # type: ignore[attr-defined]
            written.update(keyword.arg or "**" for keyword in call.keywords)
    for call in calls:
        if isinstance(call.func, ast.Name) and call.func.id == "setattr" and _names(call.args[:1]) & changed:
            written.add("**")
    for node in ast.walk(tree):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        )
        for target in targets:
            if isinstance(target, ast.Attribute) and _names([target.value]) & changed:
                written.add(target.attr)
    return EngineParserProgram(own, frozenset(written))


def _assignments(tree: ast.AST) -> list[tuple[str, ast.expr]]:
    return [
        (target.id, node.value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    ]


def _argument_groups(tree: ast.AST) -> dict[str, str]:
    """`group = parser.add_argument_group(...)`: each group's parser."""
    return {
        name: value.func.value.id
        for name, value in _assignments(tree)
        if isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "add_argument_group"
        and isinstance(value.func.value, ast.Name)
    }


def _engine_call_args(calls: list[Any], method: str) -> set[str]:
    """The names given to `EngineArgs.METHOD(name)` or `AsyncEngineArgs.METHOD(name)`."""
    return {
        call.args[0].id
        for call in calls
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == method
        and _engine_args_class(call.func.value)
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Name)
    }


def _engine_args_class(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return name in ("EngineArgs", "AsyncEngineArgs")


def _parses_command_line(calls: list[ast.Call], parsers: set[str]) -> bool:
    """An engine parser is parsed, each time from the command line itself (`parse_args()`, no words given)."""
    parses = [
        call
        for call in calls
        if call.func.attr in ("parse_args", "parse_known_args")  # type: ignore[attr-defined]
        and isinstance(call.func.value, ast.Name)  # type: ignore[attr-defined]
        and call.func.value.id in parsers  # type: ignore[attr-defined]
    ]
    return bool(parses) and all(call.func.attr == "parse_args" and not call.args and not call.keywords for call in parses)  # type: ignore[attr-defined]


def _builds_engine(call: ast.Call, engines: set[str]) -> bool:
    """`AsyncLLMEngine.from_engine_args(engine_args)`, `LLM(**dataclasses.asdict(engine_args))`, or the
    same of `EngineArgs.from_cli_args(args)` itself."""
    built = [argument for argument in call.args if getattr(call.func, "attr", None) == "from_engine_args"]
    built += [keyword.value for keyword in call.keywords if keyword.arg is None]
    for node in built:
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("asdict", "vars"):
            node = node.args[0] if len(node.args) == 1 else node
        if (isinstance(node, ast.Name) and node.id in engines) or _engine_call_args([node], "from_cli_args"):
            return True
    return False


def _names(nodes: list[ast.expr]) -> set[str]:
    return {node.id for node in nodes if isinstance(node, ast.Name)}


def _own_option(call: ast.Call) -> dict[str, bool | None]:
    """`parser.add_argument("--port", type=int)`: its option strings, and whether they take one value."""
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    action = keywords.get("action")
    if "nargs" in keywords or not (action is None or isinstance(action, ast.Constant)):
        takes: bool | None = None
    else:
        takes = not (isinstance(action, ast.Constant) and action.value in _NO_VALUE_ACTIONS)
    strings = [arg.value for arg in call.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return {string: takes for string in strings if string.startswith("-")}

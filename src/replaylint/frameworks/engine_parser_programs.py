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
OpenAI server), so no HTTP client is tied to it.

vLLM's server parser reads the words the same way: Dynasor's `dynasor/cli/vllm_server.py` (run as
`python -m dynasor.cli.vllm_server`) grows its parser with `make_arg_parser(parser)` and hands the
namespace to `api_server.run_server(args)`, which builds the engine from it. kserve's
`huggingfaceserver` does both through functions of its own package (`parser_program_helpers`),
parses with `parse_known_args()`, and builds the engine only on a branch its `--backend` chooses
(`parser_conditions`). A program that writes only the model (`args.model = args.model_id or
args.model_dir`) is not open-ended for it: no rule reads the model's absence."""

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
from .nearby import program_upward
from .parser_conditions import OwnOption, branch, own_options
from .parser_program_helpers import NONE, Helpers, call_name, program_helpers

_NO_VALUE_ACTIONS = ("store_true", "store_false", "store_const", "count", "help", "version")


_VALUE_ONLY = frozenset(("model",))  # fields no rule reads the absence of: a write of the program's opens nothing
_DIRECT = ("from_cli_args", "make_arg_parser")


@record
class EngineParserProgram:
    own_options: dict[str, bool | None]  # the program's own option strings: whether each takes one value (None: not known)
    written: frozenset[str]  # engine fields the program sets itself ("**": some it names only at run time)
    tree: ast.Module | None = None
    built_at: ast.AST | None = None  # the call that builds the engine
    options: dict[str, OwnOption] | None = None  # the program's own options by their `dest`


def script_launch(context: LaunchContext, span: Span, tokens: list[Token], elements: Any, syntax: Any) -> Launch | None:
    """`python pred/serve_vllm.py FLAGS`: the engine the program builds from FLAGS, or None (a program
    the tree does not hold, or one that does not build its engine from its command line)."""
    script = tokens[0] if tokens else None
    if script is None or not script.known or context.read_text is None:
        return None
    found = program_upward(str(script.text), span.path, context.read_text)
    program = _program(found, context.read_text) if found is not None else None
    if program is None:
        return None
    taken = branch(program.tree, program.built_at, tokens[1:], program.options or {}) if program.tree and program.built_at else True
    if taken is False:
        return None
    kept, unread = _engine_words(tokens, program.own_options)
    launch = vllm_command_launch(context, span, [tokens[i] for i in kept], elements, syntax)
    if launch is None:
        return None
    if isinstance(taken, str):
        condition = f"`{taken}` holds in {script.text}"
        launch = replace(launch, condition=f"{launch.condition} and {condition}" if launch.condition else condition)
    written = sorted(name for name in program.written if (name in FIELDS and name not in _VALUE_ONLY) or name == "**")
    reasons = tuple(f"{'fields' if name == '**' else name} as {script.text} sets them" for name in written)
    reasons += tuple(f"the words {option} of {script.text} takes" for option in unread)
    handle = launch.handle
    if isinstance(handle, CommandHandle):
        indices = {name: tuple(kept[i] for i in found) for name, found in handle.token_indices.items()}
        lines = _cli_args_lines(program.tree) if program.tree is not None else ()
        built_by = (found[0], lines) if lines else None
        handle = replace(handle, tokens=list(tokens), token_indices=indices, built_by=built_by)
    return replace(
        launch,
        settings={name: setting for name, setting in launch.settings.items() if name not in program.written},
        open_reasons=(*launch.open_reasons, *reasons),
        handle=handle,
        entrypoint="",
        label=f"{context.label or 'command'}: the vLLM engine {script.text} builds from its words",
    )


def _program(found: tuple[str, str], read_text: Any) -> EngineParserProgram | None:
    """The program's reading, with the helpers of its own package when it names no vLLM call
    itself (cheap text checks first)."""
    path, text = found
    direct = any(call in text for call in _DIRECT)
    if not direct and ("vllm" not in text or not ("parse_args(" in text or "parse_known_args(" in text)):
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    program = engine_parser_program(tree) if direct else None
    if program is not None or "vllm" not in text:
        return program
    helpers = program_helpers(tree, path, read_text)
    return engine_parser_program(tree, helpers) if helpers != NONE else None


def _cli_args_lines(tree: ast.Module) -> tuple[int, ...]:
    """The lines of the program's `EngineArgs.from_cli_args(args)` calls: the engines its requests may reach."""
    calls = (node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute))
    return tuple(sorted({call.lineno for call in calls if call.func.attr == "from_cli_args" and _engine_args_class(call.func.value)}))  # type: ignore[attr-defined]


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


def engine_parser_program(tree: ast.Module, helpers: Helpers = NONE) -> EngineParserProgram | None:
    """What a program that builds vLLM's engine from its own command line says, or None."""
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    methods = [call for call in calls if isinstance(call.func, ast.Attribute)]
    groups = _argument_groups(tree)
    grown = _grown_parsers(tree, calls, helpers)
    engine_parsers = {groups.get(name, name) for name in _engine_call_args(methods, "add_cli_args") | grown[0]}
    if not engine_parsers or not _parses_command_line(methods, engine_parsers):
        return None
    engines = {name for name, value in _assignments(tree) if _engine_call_args([value], "from_cli_args") or _built_by(value, helpers)}
    served = _names_given(calls, ("run_server",)) if grown[1] else set()  # vLLM's server builds its engine from the namespace
    built_at = next((call for call in calls if _builds_engine(call, engines, helpers) or _serves(call, served)), None)
    if built_at is None:
        return None
    read = _engine_call_args(methods, "from_cli_args") | _names_given(calls, tuple(helpers.builds))
    changed = engines | read | served  # the engine's arguments and the namespace read
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
    return EngineParserProgram(own, frozenset(written), tree, built_at, own_options(methods))


def _grown_parsers(tree: ast.AST, calls: list[ast.Call], helpers: Helpers) -> tuple[set[str], bool]:
    """The parsers vLLM's `make_arg_parser` or a helper grows (the name given and the one
    assigned), and whether vLLM's server options are among them."""
    growers = ("make_arg_parser", *helpers.grows)
    given = _names_given(calls, growers)
    assigned = {name for name, value in _assignments(tree) if isinstance(value, ast.Call) and call_name(value) in growers}
    serves = any(call_name(call) in ("make_arg_parser", *helpers.serves) for call in calls)
    return given | assigned, serves


def _names_given(calls: list[ast.Call], functions: tuple[str, ...]) -> set[str]:
    """The names given first to calls of `functions` (`make_arg_parser(parser)`, `run_server(args)`)."""
    return {call.args[0].id for call in calls if call_name(call) in functions and call.args and isinstance(call.args[0], ast.Name)}


def _built_by(value: ast.expr, helpers: Helpers) -> bool:
    return isinstance(value, ast.Call) and call_name(value) in helpers.builds and len(value.args) == 1


def _serves(call: ast.Call, served: set[str]) -> bool:
    return call_name(call) == "run_server" and bool(_names(call.args[:1]) & served)


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
    """An engine parser is parsed, each time from the command line itself (`parse_args()` or
    `parse_known_args()`, no words given)."""
    parses = [
        call
        for call in calls
        if call.func.attr in ("parse_args", "parse_known_args")  # type: ignore[attr-defined]
        and isinstance(call.func.value, ast.Name)  # type: ignore[attr-defined]
        and call.func.value.id in parsers  # type: ignore[attr-defined]
    ]
    return bool(parses) and all(not call.args and not call.keywords for call in parses)


def _builds_engine(call: ast.Call, engines: set[str], helpers: Helpers = NONE) -> bool:
    """`AsyncLLMEngine.from_engine_args(engine_args)`, `LLM(**dataclasses.asdict(engine_args))`, the
    same of `EngineArgs.from_cli_args(args)` itself, or the engine arguments given to a class or
    function of the program's package that builds an engine (`VLLMModel(name, engine_args)`)."""
    if call_name(call) in helpers.engines and _names([*call.args, *(k.value for k in call.keywords)]) & engines:
        return True
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

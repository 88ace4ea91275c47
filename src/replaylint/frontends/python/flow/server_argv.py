"""vLLM's own server started in process: `make_arg_parser(FlexibleArgumentParser()).parse_args([...])`
with a word list the reader knows, then the namespace served (`run_server(args)`,
`build_async_engine_client(args)`, `uvicorn.run(build_app(args))`). The words are a `vllm serve`
command line, read by vLLM's parser as every frontend's are. A namespace handed to `parse_args`
(`namespace=config.to_vllm()`) may hold more settings: the launch is open-ended."""

from __future__ import annotations

import ast
from dataclasses import field, replace
from typing import Iterator

from ....command import CommandHandle, WordSyntax, command_launch, token_elements
from ....launch_context import LaunchContext
from ....model import Launch, LaunchKind, Span
from ....records import record
from ....vllm.argv_words import Token
from ..strings import python_quote
from .callsites import calls
from .environ import runner_variable
from .frames import Frame, reaching
from .module import Module
from .reader import Qualified, Reader

_PARSER_MAKERS = ("make_arg_parser",)
_SERVING = frozenset(
    (
        "run_server",
        "run_server_worker",
        "build_async_engine_client",
        "build_app",
        "init_app_state",
        "setup_server",
        "run_headless",
        "run_multi_api_server",
    )
)


@record
class WordListHandle(CommandHandle):
    """A Python list of words, edited as `subprocess` argv lists are (`command.render`)."""

    appended: frozenset[Span] = field(default_factory=frozenset)


def server_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    for call in calls(module, (".parse_args(",)):
        node, func = call.node, call.node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "parse_args"):
            continue
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        argv = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "args"), None)
        if argv is None or not _server_parser(reader, func.value, frame) or not _served(module, call.placed.statement, node):
            continue
        launch = _launch(reader, module, node, argv, frame)
        if launch is not None:
            yield launch


def _server_parser(reader: Reader, receiver: ast.expr, frame: Frame) -> bool:
    """Whether `receiver` is made by vLLM's `make_arg_parser(...)` (a name bound to it, or the call)."""
    if isinstance(receiver, ast.Name):
        binding = reaching(frame, receiver.id)
        receiver = binding.value if binding is not None and binding.kind == "value" and binding.value is not None else receiver
    if not isinstance(receiver, ast.Call):
        return False
    maker = reader.evaluate(receiver.func, frame).ref
    if not isinstance(maker, Qualified):
        return False
    module, _, name = maker.name.rpartition(".")
    return name in _PARSER_MAKERS and module.startswith("vllm.entrypoints")


def _served(module: Module, statement: ast.stmt, parsed: ast.Call) -> bool:
    """Whether the namespace reaches one of vLLM's server starters in the module."""
    names = {t.id for t in getattr(statement, "targets", ()) if isinstance(t, ast.Name)}
    for node in ast.walk(module.tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last in _SERVING and any(a is parsed or (isinstance(a, ast.Name) and a.id in names) for a in node.args):
            return True
    return False


_CHANGES = (".append(", ".extend(", ".insert(", ".remove(", ".pop(", ".clear(", "[")


def _launch(reader: Reader, module: Module, node: ast.Call, argv: ast.expr, frame: Frame) -> Launch | None:
    if isinstance(argv, ast.Name) and any(argv.id + change in module.source.text for change in _CHANGES):
        return None  # a list changed in place after it is made: its words are not the literal's
    read = reader.evaluate(argv, frame)
    items = read.ref if isinstance(read.ref, tuple) else None
    if items is None:
        return None
    tokens = []
    for item in items:
        span = item.span or module.span(argv)
        raw = module.source.text[span.start : span.end] if span.path == module.path else ""
        value = item.value
        text = str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else None
        tokens.append(Token(text, span, raw))
    env, _ = runner_variable(frame, reader)
    namespace = any(keyword.arg == "namespace" for keyword in node.keywords) or len(node.args) > 1
    context = LaunchContext(
        LaunchKind.CLI,
        env=env,
        label=f"{module.text(node.func)}(...)",
        open_reasons=("the namespace handed to `parse_args`",) if namespace else (),
    )
    quote = next((text[0] for t in tokens if (text := t.raw) and text[0] in "'\""), '"')
    syntax = WordSyntax(python_quote(quote), separator=",")
    literal = _literal(argv, frame)
    editable = literal is not None and all(t.span.path == module.path and t.raw for t in tokens)
    close = module.offset(literal.end_lineno, literal.end_col_offset) - 1 if literal is not None else None  # type: ignore[arg-type]
    launch = command_launch(context, module.span(node), tokens, token_elements(tokens, close, ","), syntax, "serve")
    if launch is None or not isinstance(launch.handle, CommandHandle):
        return launch
    handle = WordListHandle(**vars(launch.handle)) if editable else None
    return replace(launch, handle=handle)


def _literal(argv: ast.expr, frame: Frame) -> ast.expr | None:
    """The list literal the words are written in (the argument, or a name bound once to it here)."""
    if isinstance(argv, ast.Name):
        binding = reaching(frame, argv.id)
        argv = binding.value if binding is not None and binding.kind == "value" and binding.value is not None else argv
    return argv if isinstance(argv, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in argv.elts) else None

"""Files whose verdict CPython's parser settles: what they start cannot give a finding.

libcst costs a process its 0.2 s import and about a millisecond a line, and most kept files
start an engine that asks for no replay at all (vLLM's own `LLM.__init__` passes its
`return_sampling_mask` parameter on; a test builds `LLM(model)` next to a
`monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", ...)`). A launch without the mask can only be
reported for the runner variable, so a file is settled when, in the statements `focus` kept:

- every engine call spreads only what the libcst pass cannot read either (`**kwargs`, a
  parameter), and gives `return_sampling_mask` only a value the libcst pass reads as off or
  unknown (`False`, a parameter of the function the call is
  in, what a call returns) and `enable_return_sampling_mask` not at all;
- every write of the runner variable removes it, or gives it `1` (reported only next to the
  mask) or anything but a string literal (the libcst pass reads only literals there);
- nothing spawns a process, and nothing builds a SageMaker model (their words need the libcst
  pass).

Anything else, or anything this module does not recognise, goes to libcst as before. A settled
file still gives each `return_sampling_mask=` keyword as a launch, built from ast's positions:
vLLM 0.27 and older refuse the keyword whatever its value.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator

from ...model import UNKNOWN, Launch, LaunchKind, Setting, Span
from ...programs import split_launcher
from ...records import record
from ...shells import command_string_at
from ...source import SourceFile

RUNNER_ENV = "VLLM_USE_V2_MODEL_RUNNER"
_MASK = "return_sampling_mask"
_PRE_RELEASE_MASK = "enable_return_sampling_mask"
_UNKNOWN = object()  # a value the libcst pass cannot know either
_ARGV_LIST_CALLS = frozenset(("run", "Popen", "call", "check_call", "check_output"))


@record(unsafe_hash=True)
class Settled:
    """A file CPython's parser settled: its engine calls' `return_sampling_mask=...` keywords,
    off or unknown to the libcst pass but still refused as unexpected keywords by vLLM 0.27 and
    older (RPL007), each as (the call, the keyword), in ast's positions."""

    masks: tuple[tuple[ast.Call, ast.keyword], ...]

    def launches(self, source: SourceFile) -> list[Launch]:
        """The launches the libcst pass would give these keywords (the rest of each call's
        settings cannot matter to any rule)."""
        found = []
        for call, keyword in self.masks:
            span = _span(source, keyword)
            value = False if _is_false(keyword.value) else UNKNOWN
            setting = Setting(_MASK, value, span, source.text[span.start : span.end], _span(source, keyword.value))
            found.append(Launch(LaunchKind.PYTHON_CALL, _span(source, call), {_MASK: setting}))
        return found


def settled(
    module: ast.Module, statements: list[ast.stmt], starting: Callable[[ast.Call], str | None], hot: Callable[[ast.AST], bool]
) -> Settled | None:
    """`statements` settled (see the module docstring), or None when libcst must read them.

    `starting(call)` classifies a call as focus sees it: "engine", "spawn", "sagemaker", "env"
    (`setdefault`, `putenv` or `pop` of the runner variable), or None. `hot(node)`: whether the
    node's lines hold a word that may start something; a node without one is not looked into."""
    masks: list[tuple[ast.Call, ast.keyword]] = []
    for node, scope in _walk(statements, hot):
        if isinstance(node, ast.Call):
            kind = starting(node)
            if kind == "sagemaker" or kind == "spawn" and not _spawn_settled(node):
                return None
            if kind == "engine":
                if not _engine_settled(node, scope or module):
                    return None
                masks.extend((node, keyword) for keyword in node.keywords if keyword.arg == _MASK)
            if kind == "env" and not _env_call_settled(node):
                return None
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_is_runner_subscript(target) for target in targets) and not _runner_value_settled(node.value, node):
                return None
    return Settled(tuple(masks))


def _span(source: SourceFile, node: ast.AST) -> Span:
    """A node's span; ast counts columns in UTF-8 bytes, spans in characters."""
    index = source.index

    def offset(line: int, column: int) -> int:
        return index.offset(line, 1) + len(index.line_text(line).encode("utf-8")[:column].decode("utf-8", "replace"))

    return index.span(offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]


def _walk(statements: list[ast.stmt], hot: Callable[[ast.AST], bool]) -> Iterator[tuple[ast.AST, ast.AST | None]]:
    """Every hot node, with the function, lambda or class whose scope it is in (None: the module)."""
    stack: list[tuple[ast.AST, ast.AST | None]] = [(statement, None) for statement in reversed(statements)]
    while stack:
        node, scope = stack.pop()
        if not hot(node):
            continue
        yield node, scope
        inner = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) else scope
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))


def _engine_settled(call: ast.Call, scope: ast.AST) -> bool:
    for keyword in call.keywords:
        if keyword.arg is None and not _spread_settled(keyword.value, scope):
            return False  # `**OPTIONS` the libcst pass can read, which may hold the mask
        if keyword.arg == _PRE_RELEASE_MASK:
            return False
        if keyword.arg == _MASK and not (_mask_value(keyword.value, scope) is _UNKNOWN or _is_false(keyword.value)):
            return False
    return True


def _spread_settled(value: ast.expr, scope: ast.AST) -> bool:
    """`**X` that the libcst pass cannot read, or a dict literal bound once to X whose keys are
    all plain strings other than the mask's."""
    if _mask_value(value, scope) is _UNKNOWN:
        return True
    bound = _single_binding(value.id, scope) if isinstance(value, ast.Name) else None
    if not isinstance(bound, ast.Dict):
        return False
    keys = [key.value if isinstance(key, ast.Constant) else None for key in bound.keys]
    return all(isinstance(key, str) and key not in (_MASK, _PRE_RELEASE_MASK) for key in keys)


def _single_binding(name: str, scope: ast.AST) -> ast.expr | None:
    """The value of the one `name = value` in the scope (function or module) that binds it, as
    the libcst pass's scopes find it; None when it has any other binding, or several."""
    values: list[ast.expr | None] = []
    counted: set[int] = set()
    for node in _scope_nodes(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = [t for t in targets if isinstance(t, ast.Name) and t.id == name]
            if named and node.value is not None:
                values.append(node.value if len(targets) == 1 else None)
                counted.update(id(t) for t in named)
        elif isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in counted:
            values.append(None)  # for-targets, `with ... as`, walrus, del, `+=`
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            values.append(None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == name for a in node.names):
            values.append(None)
    if name in _parameters(scope):
        values.append(None)
    return values[0] if len(values) == 1 else None


def _scope_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a scope's own body, not those of the functions, classes and lambdas in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.comprehension)):
            stack.extend(ast.iter_child_nodes(node))


def _spawn_settled(call: ast.Call) -> bool:
    """`subprocess.run([...])` with words the libcst pass reads the same way (string literals,
    or what it cannot read) that start no launcher, and no shell (`shell=True`, `["sh", "-c", ...]`)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name not in _ARGV_LIST_CALLS or not call.args or any(k.arg in (None, "shell", "args") for k in call.keywords):
        return False
    argv = call.args[0]
    if not isinstance(argv, (ast.List, ast.Tuple)):
        return False
    words: list[str | None] = []
    for element in argv.elts:
        value = _mask_value(element, None)
        if isinstance(element, ast.Attribute) and not isinstance(element.value, ast.Call):
            value = _UNKNOWN  # `sys.executable`: the libcst pass cannot read attributes
        if value is _UNKNOWN:
            words.append(None)
        elif isinstance(value, str):
            words.append(value)
        else:
            return False
    return split_launcher(words, python_unknown_first=True) is None and command_string_at(words) is None


def _env_call_settled(call: ast.Call) -> bool:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else None
    if name == "pop":
        return True
    if name == "update":
        return False
    return len(call.args) >= 2 and _runner_value_settled(call.args[1], call)


def _is_runner_subscript(target: ast.expr) -> bool:
    return isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and target.slice.value == RUNNER_ENV


def _runner_value_settled(value: ast.expr | None, statement: ast.AST) -> bool:
    """The libcst pass reads the runner variable's value only from a string literal: `1` is
    reported only next to the mask, and any other expression is unknown to it."""
    if isinstance(statement, ast.AugAssign):
        return False
    return not (isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value != "1")


def _mask_value(node: ast.expr, function: ast.AST | None) -> object:
    """The mask as the libcst pass's evaluator reads it: a literal, or `_UNKNOWN` for a
    parameter of the enclosing function or the result of a call (other than `dict` and
    `json.dumps`, which it reads); any other expression is returned as itself and settles nothing."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and function is not None and node.id in _parameters(function):
        return _UNKNOWN
    if isinstance(node, ast.Call) and not _is_read_call(node.func):
        return _UNKNOWN
    return node


def _is_false(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _parameters(function: ast.AST) -> set[str]:
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return set()
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return {argument.arg for argument in every if argument is not None}


def _is_read_call(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("dict", "dumps")
    return isinstance(func, ast.Attribute) and func.attr == "dumps"

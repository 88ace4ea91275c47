"""What the libcst pass records while it walks the statements `focus` kept: calls that start an
engine (`vllm.LLM`, `EngineArgs`...), a SageMaker model or another process, request methods
(`generate`, `chat`, `beam_search`), writes of the runner variable (`os.environ[...]`,
`setdefault`, `putenv`, `pop`, `del`) and lists grown before a call. `Collector` also answers
where a node sits (libcst metadata is only there during the visit) and which environment a
call sees; `launches` builds launches from what it recorded.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import libcst as cst
from libcst.metadata import PositionProvider

from ...launch_context import EnvPlace
from ...model import UNKNOWN, Launch, Setting, Span
from ...records import record
from ...source import ExtractContext, SourceFile
from ...vllm.engine_fields import RUNNER_ENV
from .flow.modal_images import container_runner
from .flow.module import parse as parse_module
from .flow.placing import remove_statement
from .scopes import Scope, ScopeTracker

_PREFIXES = ("vllm.", "vllm.entrypoints.llm.", "vllm.engine.arg_utils.")
ENGINE_CALLS = frozenset(prefix + name for prefix in _PREFIXES for name in ("LLM", "EngineArgs", "AsyncEngineArgs"))
SAMPLING_PARAMS = frozenset(("vllm.SamplingParams", "vllm.sampling_params.SamplingParams"))
BEAM_SEARCH_PARAMS = frozenset(("vllm.BeamSearchParams", "vllm.sampling_params.BeamSearchParams"))
# The SageMaker SDK's model: its `env=` becomes the container's environment, and a vLLM
# SageMaker image turns the SM_VLLM_* variables into `vllm serve` flags (frameworks/sagemaker.py).
SAGEMAKER_MODELS = frozenset(("sagemaker.Model", "sagemaker.model.Model"))
# Request methods: which positional slot and keyword carry the params.
REQUEST_METHODS = {"generate": ("sampling_params", 1), "chat": ("sampling_params", 1), "beam_search": ("params", 1)}
# Calls whose argument at this position is the argv list.
ARGV_LIST_CALLS = {
    **{f"subprocess.{name}": 0 for name in ("run", "Popen", "call", "check_call", "check_output")},
    **{f"os.{name}": 1 for name in ("execv", "execve", "execvp", "execvpe")},
    **{f"os.{name}": 2 for name in ("spawnv", "spawnve", "spawnvp", "spawnvpe")},
}
# Calls whose positional arguments from this position on are the words.
ARGV_SPREAD_CALLS = {
    "asyncio.create_subprocess_exec": 0,
    **{f"os.{name}": 1 for name in ("execl", "execle", "execlp", "execlpe")},
    **{f"os.{name}": 2 for name in ("spawnl", "spawnle", "spawnlp", "spawnlpe")},
}
SHELL_CALLS = {"os.system": 0, "os.popen": 0, "asyncio.create_subprocess_shell": 0}
_DICT_WRITES = ("pop", "update", "setdefault", "clear", "popitem")
_SPAWNING = frozenset((*ARGV_LIST_CALLS, *ARGV_SPREAD_CALLS, *SHELL_CALLS))


@record
class EnvWrite:
    name: str
    value: Any
    span: Span
    value_span: Span | None
    scope: Scope | None
    removes: bool = False
    shared: bool = False  # the statement writes other variables too (`os.environ.update({...})`): never removed whole
    # `os.putenv(...)`: the C environment a child process inherits, not `os.environ` (which vLLM reads
    # in this process, and which `os.environ.copy()` copies)
    c_only: bool = False
    place: EnvPlace | None = None  # how a fix removes a write that is not a statement of its own (None: the statement)


class Collector(ScopeTracker):
    """Records what the launches are built from (see the module docstring)."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, source: SourceFile, context: ExtractContext) -> None:
        super().__init__()
        self.source = source
        self.context = context
        self.mutated: set[tuple[int, str]] = set()
        # names whose keys a statement of the file changes in place (`d.update(k=v)`, `d[k] = v`, in
        # any scope): what such a name holds is no longer its binding's value (the flow reads it)
        self.keys_changed: set[str] = set()
        self.call_targets: dict[int, tuple[int, str]] = {}
        self.engine_calls: list[tuple[cst.Call, Scope | None]] = []
        self.sagemaker_calls: list[tuple[cst.Call, Scope | None]] = []
        self.method_calls: list[tuple[cst.Call, str, Scope | None]] = []
        self.env_writes: list[EnvWrite] = []
        # what a function's process starts with, by its scope (its id): a Modal container's image and secrets
        self.container_env: dict[int, list[EnvWrite]] = {}
        self._containers = _containers(source)
        # writes of the runner variable into a dict a name holds (`env["VLLM_USE_V2_MODEL_RUNNER"] = "0"`),
        # by (scope, name); name "" for a write whose key is not known (`environ_copies`)
        self.item_writes: dict[tuple[int, str], list[EnvWrite]] = {}
        self.spawn_calls: list[tuple[cst.Call, set[str], Scope | None]] = []
        self.list_growth: dict[tuple[int, str], list[tuple[Span, str, cst.BaseExpression]]] = {}  # statement, kind, value
        self.returns: dict[int, list[tuple[cst.Return, Scope]]] = {}  # by the function (its id): each `return`, in its scope
        self._functions: list[cst.FunctionDef] = []
        self.result: list[Launch] = []
        self.branches = 0  # the `if`, `try` and loop bodies the visit is in

    # positions and names

    def span(self, node: cst.CSTNode, end_node: cst.CSTNode | None = None) -> Span:
        start = self.get_metadata(PositionProvider, node).start
        end = self.get_metadata(PositionProvider, end_node or node).end
        index = self.source.index
        return index.span(index.offset(start.line, start.column + 1), index.offset(end.line, end.column + 1))

    def text(self, span: Span) -> str:
        return self.source.text[span.start : span.end]

    def scope(self, node: cst.CSTNode | None = None) -> Scope:
        """The scope being visited (every caller asks about the node it is visiting)."""
        return self.current

    def returned(self, call: cst.Call, scope: Scope) -> tuple[cst.BaseExpression, Scope, Span] | None:
        """What a call of a function of this file returns: the value of its one `return`, the
        function's scope, and the statement (`build_command(args)`, TRL's `vllm_serve.py`)."""
        bindings = scope.lookup(call.func.value) if isinstance(call.func, cst.Name) else []
        if len(bindings) != 1 or bindings[0].defined is None:
            return None
        returns = self.returns.get(id(bindings[0].defined), [])
        if len(returns) != 1 or returns[0][0].value is None:
            return None
        statement, inner = returns[0]
        return statement.value, inner, self.span(statement)  # type: ignore[return-value]

    # visiting

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        super().visit_FunctionDef(node)
        self._functions.append(node)
        entries = self._containers.get(self.get_metadata(PositionProvider, node.name).start.line)
        for entry in entries or ():
            write = EnvWrite(RUNNER_ENV, entry.value, entry.span, entry.value_span, self.current, shared=True, place=entry.place)
            self.container_env.setdefault(id(self.current), []).append(write)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._functions.pop()
        super().leave_FunctionDef(original_node)

    def visit_Return(self, node: cst.Return) -> None:
        if self._functions:
            self.returns.setdefault(id(self._functions[-1]), []).append((node, self.current))

    def visit_Assign(self, node: cst.Assign) -> None:
        super().visit_Assign(node)
        for target in node.targets:
            self._bind_target(target.target, node.value)
            self._env_subscript(target.target, node.value, node)
            self._item_write(target.target, node.value, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        super().visit_AnnAssign(node)
        if node.value is not None:
            self._bind_target(node.target, node.value)

    def visit_If(self, node: cst.If) -> None:
        self.branches += 1

    def leave_If(self, original_node: cst.If) -> None:
        self.branches -= 1

    def visit_Try(self, node: cst.Try) -> None:
        self.branches += 1

    def leave_Try(self, original_node: cst.Try) -> None:
        self.branches -= 1

    def visit_Del(self, node: cst.Del) -> None:
        name = self._environ_key(node.target)
        if name is not None:
            self.env_writes.append(EnvWrite(name, None, self.span(node), None, self.scope(node), removes=True))
        else:
            self._item_write(node.target, None, node)

    def _item_write(self, target: cst.BaseExpression, value: cst.BaseExpression | None, statement: cst.CSTNode) -> None:
        """`name[key] = value` (`del name[key]`: `value` None) of a dict other than `os.environ`."""
        if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name)) or self._environ_key(target) is not None:
            return
        self.keys_changed.add(target.value.value)
        index = target.slice[0].slice if len(target.slice) == 1 else None
        key = string_value(index.value) if isinstance(index, cst.Index) else None
        if key not in (RUNNER_ENV, None):
            return
        written = (string_value(value) or UNKNOWN) if value is not None else None
        write = EnvWrite(key or "", written, self.span(statement), self.span(value) if value is not None else None, self.scope(statement))
        self.item_writes.setdefault((id(self.scope(statement)), target.value.value), []).append(replace(write, removes=value is None))

    def _item_method(self, node: cst.Call, base: cst.Name, method: str) -> None:
        """`name.pop(key)`, `name.update(...)`, `name.setdefault(...)` of a dict: the runner
        variable removed, or a write that may set it (unknown)."""
        keys = [string_value(arg.value) if arg.keyword is None else arg.keyword.value for arg in node.args if not arg.star]
        if method in ("pop", "setdefault") and keys[:1] != [RUNNER_ENV] and keys[:1] != [None]:
            return
        if method == "update" and all(isinstance(key, str) and key != RUNNER_ENV for key in keys) and len(keys) == len(node.args):
            if all(arg.keyword is not None for arg in node.args):
                return  # `env.update(CUDA_VISIBLE_DEVICES="0")`
        scope = self.scope(node)
        removes = method == "pop" and keys[:1] == [RUNNER_ENV]
        write = EnvWrite(RUNNER_ENV if removes else "", None if removes else UNKNOWN, self.span(node), None, scope, removes=removes)
        self.item_writes.setdefault((id(scope), base.value), []).append(write)

    def _bind_target(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            if isinstance(value, cst.Call):
                self.call_targets[id(value)] = (id(self.scope(target)), target.value)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            scope = self.scope(target)
            self.mutated.add((id(scope), target.value.value))

    def visit_Call(self, node: cst.Call) -> None:
        names = self.qualified(node.func)
        if names & ENGINE_CALLS:
            self.engine_calls.append((node, self.scope(node)))
        elif names & SAGEMAKER_MODELS:
            self.sagemaker_calls.append((node, self.scope(node)))
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value in REQUEST_METHODS:
            self.method_calls.append((node, node.func.attr.value, self.scope(node)))
        if names & {"os.environ.setdefault", "os.putenv", "os.environ.pop"}:
            self._env_call(node, names)
        elif "os.environ.update" in names:
            self._env_update(node)
        if names & _SPAWNING:
            self.spawn_calls.append((node, names, self.scope(node)))
        if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) and node.args:
            method = node.func.attr.value
            if method in ("extend", "append"):
                self._grow(node.func.value, method, node.args[0].value, node)
        if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) and node.func.attr.value in _DICT_WRITES:
            if not self.qualified(node.func.value) & {"os.environ"}:
                self.keys_changed.add(node.func.value.value)
                self._item_method(node, node.func.value, node.func.attr.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        super().visit_AugAssign(node)
        if isinstance(node.target, cst.Name):
            if isinstance(node.operator, cst.AddAssign):
                self._grow(node.target, "extend", node.value, node)

    def _grow(self, name: cst.Name, kind: str, value: cst.BaseExpression, statement: cst.CSTNode) -> None:
        key = (id(self.scope(name)), name.value)
        self.list_growth.setdefault(key, []).append((self.span(statement), kind, value))

    # the runner variable

    def _environ_key(self, node: cst.BaseExpression) -> str | None:
        if not isinstance(node, cst.Subscript) or "os.environ" not in self.qualified(node.value):
            return None
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return None
        key = string_value(node.slice[0].slice.value)
        return key if key == RUNNER_ENV else None

    def _env_subscript(self, target: cst.BaseExpression, value: cst.BaseExpression, statement: cst.CSTNode) -> None:
        name = self._environ_key(target)
        if name is not None:
            evaluated = string_value(value)
            self.env_writes.append(
                EnvWrite(name, UNKNOWN if evaluated is None else evaluated, self.span(statement), self.span(value), self.scope(statement))
            )

    def _env_call(self, node: cst.Call, names: set[str]) -> None:
        if not node.args or string_value(node.args[0].value) != RUNNER_ENV:
            return
        if "os.environ.pop" in names:
            self.env_writes.append(EnvWrite(RUNNER_ENV, None, self.span(node), None, self.scope(node), removes=True))
            return
        if len(node.args) < 2:
            return
        value_node = node.args[1].value
        evaluated = string_value(value_node)
        write = EnvWrite(
            RUNNER_ENV,
            UNKNOWN if evaluated is None else evaluated,
            self.span(node),
            self.span(value_node),
            self.scope(node),
            c_only="os.putenv" in names,
        )
        if "os.environ.setdefault" in names:
            # setdefault keeps an earlier value; from the outside environment we cannot tell.
            earlier = [w for w in self.env_writes if w.name == RUNNER_ENV and not w.c_only]
            if earlier and not earlier[-1].removes:
                return
        self.env_writes.append(write)

    def _env_update(self, node: cst.Call) -> None:
        """`os.environ.update({"VLLM_USE_V2_MODEL_RUNNER": "0", ...})` or `update(VLLM_USE_V2_MODEL_RUNNER="0")`:
        the runner variable's value as written, placed at its own entry."""
        entries: list[tuple[cst.CSTNode, cst.BaseExpression]] = []
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == RUNNER_ENV:
                entries.append((arg, arg.value))
            elif arg.keyword is None and not arg.star and isinstance(arg.value, cst.Dict):
                elements = arg.value.elements
                entries += [(e, e.value) for e in elements if isinstance(e, cst.DictElement) and string_value(e.key) == RUNNER_ENV]
        for entry, value in entries:
            evaluated = string_value(value)
            value_span = self.span(value)
            entry_span = self.span(entry.keyword if isinstance(entry, cst.Arg) and entry.keyword else entry, value)
            written = UNKNOWN if evaluated is None or self.branches else evaluated  # on some paths only: not known
            self.env_writes.append(EnvWrite(RUNNER_ENV, written, entry_span, value_span, self.scope(node), shared=True))

    def arg_bounds(self, arg: cst.Arg) -> tuple[int, int]:
        first: cst.CSTNode = arg.keyword if arg.keyword is not None else arg.value
        closing = getattr(arg.value, "rpar", None)  # libcst's position of `(x)` stops before its `)`
        span = self.span(first, closing[-1] if closing else arg.value)
        start = span.start - len(arg.star)
        return start, span.end

    def env_setting(self, write: EnvWrite) -> Setting:
        return Setting(write.name, write.value, write.span, self.text(write.span), write.value_span)

    def statement_removal(self, span: Span) -> Span:
        return remove_statement(self.source, span).span

    def env_before(self, call_span: Span, scope: Scope | None, inherited: bool = False) -> dict[str, EnvWrite]:
        """The environment written before `call_span`: `os.environ` as the process reads it, or
        (`inherited`) the C environment a child process started there without `env=` inherits."""
        env: dict[str, EnvWrite] = {write.name: write for write in self.container_env.get(id(scope), ())}
        for write in self.env_writes:
            if write.span.start >= call_span.start or (write.c_only and not inherited):
                continue
            if write.scope is not None and scope is not None and write.scope is not scope and write.scope is not scope.module:
                continue
            if write.removes:
                env.pop(write.name, None)
            else:
                env[write.name] = write
        return env


def argument(call: cst.Call, keyword: str, position: int) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position].value if len(positional) > position else None


def string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        with warnings.catch_warnings():
            # libcst evaluates with `ast.literal_eval`: `"\d"` in the file makes CPython warn (a
            # SyntaxWarning printed by default from 3.12); the file's matter, not replaylint's to print.
            warnings.simplefilter("ignore")
            value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _containers(source: SourceFile) -> dict:
    """`modal_images.container_runner` of a module that may start a Modal container with the runner variable."""
    if "modal" not in source.text or RUNNER_ENV not in source.text:
        return {}
    module = parse_module(source)
    return container_runner(module) if module is not None else {}

"""The Python frontend's libcst part: engine constructors, their requests and the runner variable,
in the statements `python_focus` kept.

Launches are calls whose qualified name is `vllm.LLM`, `vllm.EngineArgs` or
`vllm.AsyncEngineArgs` (also under `vllm.entrypoints.llm` / `vllm.engine.arg_utils`, aliased or
through `import vllm as v`). Keyword values are read when they are literals, names bound once
to literals in the module or function, or dicts spread with `**`; anything else is UNKNOWN, and
`*args` / an unresolvable `**kwargs` make the launch open-ended. `os.environ[...]` writes before
the call supply `VLLM_USE_V2_MODEL_RUNNER`. Requests are `SamplingParams` given to
`generate`/`chat` (and `beam_search`) of a name bound to a launch in the same scope.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..edits import Sequence, insert_after, remove
from ..model import (
    UNKNOWN,
    Edit,
    Fix,
    Launch,
    LaunchKind,
    RemoveEnv,
    RemoveSetting,
    RenameSetting,
    Request,
    SetEnv,
    SetSetting,
    Setting,
    Span,
)
from ..vllm.fields import RUNNER_ENV
from .. import command
from ..source import ExtractContext, ParseError, SourceFile
from .python_focus import focus, syntax_error
from .python_scopes import Scope, ScopeTracker
from .python_argv import ARGV_LIST_CALLS, ARGV_SPREAD_CALLS, SHELL_CALLS, ArgvHandle, ArgvLaunches

_PREFIXES = ("vllm.", "vllm.entrypoints.llm.", "vllm.engine.arg_utils.")
ENGINE_CALLS = frozenset(prefix + name for prefix in _PREFIXES for name in ("LLM", "EngineArgs", "AsyncEngineArgs"))
SAMPLING_PARAMS = frozenset(("vllm.SamplingParams", "vllm.sampling_params.SamplingParams"))
BEAM_SEARCH_PARAMS = frozenset(("vllm.BeamSearchParams", "vllm.sampling_params.BeamSearchParams"))
# The SageMaker SDK's model: its `env=` becomes the container's environment, and a vLLM
# SageMaker image turns the SM_VLLM_* variables into `vllm serve` flags (frameworks/sagemaker.py).
SAGEMAKER_MODELS = frozenset(("sagemaker.Model", "sagemaker.model.Model"))
# Request methods: which positional slot and keyword carry the params.
REQUEST_METHODS = {"generate": ("sampling_params", 1), "chat": ("sampling_params", 1), "beam_search": ("params", 1)}
_MAX_DEPTH = 8
_SPAWNING = frozenset((*ARGV_LIST_CALLS, *ARGV_SPREAD_CALLS, *SHELL_CALLS))


def parses(text: str) -> bool:
    try:
        focus(text)
        cst.parse_module(text)
    except (ParseError, cst.ParserSyntaxError, RecursionError, ValueError):
        return False
    return True


def extract_focused(source: SourceFile, focused: str, context: ExtractContext) -> list[Launch]:
    """The launches of a file, read from `focused` (its text as `focus` left it)."""
    try:
        module = cst.parse_module(focused)
    except cst.ParserSyntaxError as error:
        cpython = syntax_error(source.text)  # CPython's position and words are the precise ones
        if cpython is not None:
            raise cpython from None
        raise ParseError(f"Python syntax error: {error.message}", error.raw_line, error.raw_column + 1) from None
    except RecursionError:
        raise ParseError("Python file is nested too deeply to parse") from None
    collector = _Collector(source, context)
    try:
        MetadataWrapper(module, unsafe_skip_copy=True).visit(collector)
    except RecursionError:
        raise ParseError("Python file is nested too deeply to analyse") from None
    return collector.result


# -- fix rendering ---------------------------------------------------------------------------


@dataclass
class _Container:
    sequence: Sequence
    quote: str
    kind: str  # "call" or "dict"


@dataclass
class _Handle:
    """Where each setting of a launch sits, so fixes can be written back."""

    call: _Container
    places: dict[str, tuple[_Container, int]] = field(default_factory=dict)
    env_statements: dict[str, Span] = field(default_factory=dict)
    name_spans: dict[str, Span] = field(default_factory=dict)


def _literal(value: Any, quote: str) -> str:
    if isinstance(value, str):
        body = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
        return f"{quote}{body}{quote}"
    return repr(value)


def _element(container: _Container, name: str, value: Any) -> str:
    if container.kind == "dict":
        return f"{_literal(name, container.quote)}: {_literal(value, container.quote)}"
    return f"{name}={_literal(value, container.quote)}"


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    if isinstance(launch.handle, ArgvHandle):
        edits = command.render(launch, fix, source)
        removes_appended = edits and any(
            not edit.content and edit.span.start <= word.start and word.end <= edit.span.end for edit in edits for word in launch.handle.appended
        )
        return None if removes_appended else edits  # `cmd.append()` would not run
    if isinstance(launch.handle, command.CommandHandle):
        from . import shell  # a shell string's launch (`os.system("vllm serve ...")`)

        return shell.render(launch, fix, source)
    handle: _Handle | None = launch.handle
    if handle is None:
        return None
    edits: list[Edit] = []
    removals: dict[int, tuple[_Container, set[int]]] = {}
    for intent in fix.intents:
        if isinstance(intent, SetSetting):
            edit = _set_setting(launch, handle, intent, source)
            if edit is None:
                return None
            edits.append(edit)
        elif isinstance(intent, RemoveSetting):
            place = handle.places.get(intent.name)
            if place is None:
                continue
            container, position = place
            removals.setdefault(id(container), (container, set()))[1].add(position)
        elif isinstance(intent, RenameSetting):
            span = handle.name_spans.get(intent.name)
            if span is None:
                return None
            quote = _quote_at(source, span, "")
            edits.append(Edit(span, f"{quote}{intent.new_name}{quote}"))
        elif isinstance(intent, RemoveEnv):
            span = handle.env_statements.get(intent.name)
            if span is None:
                return None
            edits.append(_remove_statement(source, span))
        elif isinstance(intent, SetEnv):
            env = launch.env.get(intent.name)
            if env is None or env.value_span is None:
                return None
            quote = source.text[env.value_span.start] if source.text[env.value_span.start] in "'\"" else '"'
            edits.append(Edit(env.value_span, _literal(intent.value, quote)))
    for container, positions in removals.values():
        edits.extend(remove(source.index, container.sequence, positions))
    return edits


def _set_setting(launch: Launch, handle: _Handle, intent: SetSetting, source: SourceFile) -> Edit | None:
    name, _, key = intent.name.partition(".")
    setting = launch.get(name)
    if key:
        if setting is None:
            return None
        sub = setting.keys.get(key) or setting.keys.get(key.replace("_", "-"))
        if sub is not None and sub.value_span is not None:
            return Edit(sub.value_span, _literal(intent.value, _quote_at(source, sub.value_span)))
        place = handle.places.get(f"{name}.")
        if place is None:
            return None
        container, _ = place
        last = len(container.sequence.elements) - 1
        return insert_after(source.index, container.sequence, last, _element(container, key, intent.value))
    if setting is not None and setting.value_span is not None:
        return Edit(setting.value_span, _literal(intent.value, _quote_at(source, setting.value_span, handle.call.quote)))
    container, position = handle.places.get(intent.after, (handle.call, len(handle.call.sequence.elements) - 1))
    return insert_after(source.index, container.sequence, position, _element(container, name, intent.value))


def _quote_at(source: SourceFile, span: Span, default: str = '"') -> str:
    char = source.text[span.start : span.start + 1]
    return char if char in ("'", '"') else default


def _remove_statement(source: SourceFile, span: Span) -> Edit:
    text = source.text
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line_end = len(text) if line_end == -1 else line_end + 1
    if text[line_start : span.start].strip() == "" and text[span.end : line_end].strip() == "":
        return Edit(source.index.span(line_start, line_end), "")
    return Edit(span, "pass")


# -- extraction ------------------------------------------------------------------------------


@dataclass
class _EnvWrite:
    name: str
    value: Any
    span: Span
    value_span: Span | None
    scope: Scope | None
    removes: bool = False


class _Collector(ScopeTracker):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, source: SourceFile, context: ExtractContext) -> None:
        super().__init__()
        self.source = source
        self.context = context
        self.mutated: set[tuple[int, str]] = set()
        self.call_targets: dict[int, tuple[int, str]] = {}
        self.engine_calls: list[tuple[cst.Call, Scope | None]] = []
        self.sagemaker_calls: list[tuple[cst.Call, Scope | None]] = []
        self.method_calls: list[tuple[cst.Call, str, Scope | None]] = []
        self.env_writes: list[_EnvWrite] = []
        self.spawn_calls: list[tuple[cst.Call, set[str], Scope | None]] = []
        self.list_growth: dict[tuple[int, str], list[tuple[Span, str, cst.BaseExpression]]] = {}  # statement, kind, value
        self.result: list[Launch] = []

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

    # visiting

    def visit_Assign(self, node: cst.Assign) -> None:
        super().visit_Assign(node)
        for target in node.targets:
            self._bind_target(target.target, node.value)
            self._env_subscript(target.target, node.value, node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        super().visit_AnnAssign(node)
        if node.value is not None:
            self._bind_target(node.target, node.value)

    def visit_Del(self, node: cst.Del) -> None:
        name = self._environ_key(node.target)
        if name is not None:
            self.env_writes.append(_EnvWrite(name, None, self.span(node), None, self.scope(node), removes=True))

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
        if names & _SPAWNING:
            self.spawn_calls.append((node, names, self.scope(node)))
        if isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) and node.args:
            method = node.func.attr.value
            if method in ("extend", "append"):
                self._grow(node.func.value, method, node.args[0].value, node)

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
        key = _string(node.slice[0].slice.value)
        return key if key == RUNNER_ENV else None

    def _env_subscript(self, target: cst.BaseExpression, value: cst.BaseExpression, statement: cst.CSTNode) -> None:
        name = self._environ_key(target)
        if name is not None:
            evaluated = _string(value)
            self.env_writes.append(
                _EnvWrite(name, UNKNOWN if evaluated is None else evaluated, self.span(statement), self.span(value), self.scope(statement))
            )

    def _env_call(self, node: cst.Call, names: set[str]) -> None:
        if not node.args or _string(node.args[0].value) != RUNNER_ENV:
            return
        if "os.environ.pop" in names:
            self.env_writes.append(_EnvWrite(RUNNER_ENV, None, self.span(node), None, self.scope(node), removes=True))
            return
        if len(node.args) < 2:
            return
        value_node = node.args[1].value
        evaluated = _string(value_node)
        write = _EnvWrite(RUNNER_ENV, UNKNOWN if evaluated is None else evaluated, self.span(node), self.span(value_node), self.scope(node))
        if "os.environ.setdefault" in names:
            # setdefault keeps an earlier value; from the outside environment we cannot tell.
            earlier = [w for w in self.env_writes if w.name == RUNNER_ENV]
            if earlier and not earlier[-1].removes:
                return
        self.env_writes.append(write)

    # building launches (metadata is only available until the visit ends)

    def leave_Module(self, original_node: cst.Module) -> None:
        self.result = self.launches()

    def launches(self) -> list[Launch]:
        evaluator = _Evaluator(self)
        built: dict[int, Launch] = {}
        order: list[Launch] = []
        for call, scope in self.engine_calls:
            launch = self._launch(call, scope, evaluator)
            built[id(call)] = launch
            order.append(launch)
        requests = self._requests(built, evaluator)
        result = []
        for launch in order:
            extra = requests.get(id(launch), ())
            result.append(_with_requests(launch, extra) if extra else launch)
        result.extend(ArgvLaunches(self, evaluator).build())
        result.extend(launch for launch in (self._sagemaker_launch(call, scope, evaluator) for call, scope in self.sagemaker_calls) if launch)
        return result

    def _sagemaker_launch(self, call: cst.Call, scope: Scope | None, evaluator: _Evaluator) -> Launch | None:
        """`Model(image_uri=..., env={"SM_VLLM_...": ...})` of the SageMaker SDK. An image that is
        not a SageMaker vLLM image makes it no launch; one not known statically (an f-string with
        the region) is read as the newer entrypoint, which never reports what only the older one
        rejects; its tag, when written out, gives the release."""
        from ..frameworks import sagemaker

        env_node = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "env"), None)
        dict_node = evaluator.dict_node(env_node, scope) if env_node is not None else None
        entries = evaluator._entries(dict_node, scope, 0) if isinstance(dict_node, cst.Dict) else None
        if not entries or not any(entry.name.startswith(sagemaker.PREFIX) for entry in entries):
            return None
        image_node = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "image_uri"), None)
        image, _ = evaluator.evaluate(image_node, scope) if image_node is not None else (UNKNOWN, {})
        if isinstance(image, str) and not sagemaker.is_sagemaker_image(image):
            return None
        hint = None
        if image_node is not None:
            written = self.text(self.span(evaluator.resolved(image_node, scope)))
            hint = sagemaker.image_hint(written, self.span(image_node))
        label = self.text(self.span(call.func))
        return sagemaker.launch({entry.name: entry for entry in entries}, sagemaker.BOOLEAN, self.span(call), f"{label}(...)", hint)

    def _launch(self, call: cst.Call, scope: Scope | None, evaluator: _Evaluator) -> Launch:
        call_span = self.span(call)
        args_sequence = Sequence(tuple(self._arg_bounds(arg) for arg in call.args), close=call_span.end - 1)
        handle = _Handle(_Container(args_sequence, _quote_style(call), "call"))
        settings: dict[str, Setting] = {}
        open_reasons: list[str] = []
        for position, arg in enumerate(call.args):
            start, end = self._arg_bounds(arg)
            span = self.source.index.span(start, end)
            if arg.star == "*":
                open_reasons.append(f"*{self.text(self.span(arg.value))}")
            elif arg.star == "**":
                spread = evaluator.spread(arg.value, scope)
                if spread is None:
                    open_reasons.append(f"**{self.text(self.span(arg.value))}")
                    continue
                entries, container = spread
                for index_in_dict, setting in enumerate(entries):
                    settings[setting.name] = setting
                    handle.places[setting.name] = (container, index_in_dict)
                    handle.name_spans[setting.name] = self.source.index.span(setting.span.start, setting.span.start + len(setting.spelling.split(":")[0].rstrip()))
            elif arg.keyword is None:
                if position == 0:
                    settings["model"] = self._setting("model", arg.value, span, scope, evaluator)
                    handle.places["model"] = (handle.call, position)
            else:
                name = arg.keyword.value
                setting = self._setting(name, arg.value, span, scope, evaluator)
                settings[name] = setting
                handle.places[name] = (handle.call, position)
                handle.name_spans[name] = self.span(arg.keyword)
                dict_container = evaluator.container_of(arg.value, scope)
                if dict_container is not None:
                    handle.places[name + "."] = (dict_container, 0)
        target = self.call_targets.get(id(call))
        if target is not None and target in self.mutated:
            open_reasons.append(f"attributes of `{target[1]}` are set after the call")
        env = self.env_before(call_span, scope)
        for name, write in env.items():
            handle.env_statements[name] = write.span
        callee = self.text(self.span(call.func))
        return Launch(
            kind=LaunchKind.PYTHON_CALL,
            span=call_span,
            settings=settings,
            env={name: self.env_setting(write) for name, write in env.items()},
            open_ended=bool(open_reasons),
            open_reason=", ".join(open_reasons),
            label=f"{callee}(...)",
            handle=handle,
        )

    def _arg_bounds(self, arg: cst.Arg) -> tuple[int, int]:
        first: cst.CSTNode = arg.keyword if arg.keyword is not None else arg.value
        span = self.span(first, arg.value)
        start = span.start - len(arg.star)
        return start, span.end

    def _setting(self, name: str, node: cst.BaseExpression, span: Span, scope: Scope | None, evaluator: _Evaluator) -> Setting:
        value, keys = evaluator.evaluate(node, scope)
        return Setting(name, value, span, self.text(span), self.span(node), keys)

    def env_setting(self, write: _EnvWrite) -> Setting:
        return Setting(write.name, write.value, write.span, self.text(write.span), write.value_span)

    def statement_removal(self, span: Span) -> Span:
        return _remove_statement(self.source, span).span

    def env_before(self, call_span: Span, scope: Scope | None) -> dict[str, _EnvWrite]:
        env: dict[str, _EnvWrite] = {}
        for write in self.env_writes:
            if write.span.start >= call_span.start:
                continue
            if write.scope is not None and scope is not None and write.scope is not scope and write.scope is not scope.module:
                continue
            if write.removes:
                env.pop(write.name, None)
            else:
                env[write.name] = write
        return env

    # requests

    def _requests(self, built: dict[int, Launch], evaluator: _Evaluator) -> dict[int, list[Request]]:
        found: dict[int, list[Request]] = {}
        for call, method, scope in self.method_calls:
            receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
            if not isinstance(receiver, cst.Name) or scope is None:
                continue
            engine = evaluator.resolve_name(receiver.value, scope)
            if not isinstance(engine, cst.Call) or id(engine) not in built:
                continue
            keyword, position = REQUEST_METHODS[method]
            params = _argument(call, keyword, position)
            launch = built[id(engine)]
            for request in self._params_requests(params, method, call, scope, evaluator):
                found.setdefault(id(launch), []).append(request)
        return found

    def _params_requests(
        self, node: cst.BaseExpression | None, method: str, call: cst.Call, scope: Scope, evaluator: _Evaluator, depth: int = 0
    ) -> Iterator[Request]:
        kind = "beam_search" if method == "beam_search" else "sampling"
        if node is None:
            if kind == "beam_search":
                yield Request(kind, self.span(call), {}, open_ended=True)
            return
        if isinstance(node, cst.Name) and depth < _MAX_DEPTH:
            resolved = evaluator.resolve_name(node.value, scope)
            if resolved is not None:
                yield from self._params_requests(resolved, method, call, scope, evaluator, depth + 1)
                return
        if isinstance(node, (cst.List, cst.Tuple)):
            for element in node.elements:
                yield from self._params_requests(element.value, method, call, scope, evaluator, depth + 1)
            return
        if isinstance(node, cst.Call) and self.qualified(node.func, scope) & (SAMPLING_PARAMS | BEAM_SEARCH_PARAMS):
            settings: dict[str, Setting] = {}
            open_ended = False
            for arg in node.args:
                if arg.keyword is None:
                    open_ended = True
                    continue
                start, end = self._arg_bounds(arg)
                span = self.source.index.span(start, end)
                settings[arg.keyword.value] = self._setting(arg.keyword.value, arg.value, span, scope, evaluator)
            yield Request(kind, self.span(node), settings, open_ended)
        elif kind == "beam_search":
            yield Request(kind, self.span(call), {}, open_ended=True)


def _with_requests(launch: Launch, requests: list[Request]) -> Launch:
    from dataclasses import replace

    return replace(launch, requests=tuple(requests))


def _argument(call: cst.Call, keyword: str, position: int) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position].value if len(positional) > position else None


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _known(value: Any) -> bool:
    """A value with nothing UNKNOWN inside: it can be written out (as JSON)."""
    if isinstance(value, dict):
        return all(isinstance(key, str) and _known(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_known(item) for item in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _number(node: cst.Integer | cst.Float) -> Any:
    text = node.value.replace("_", "")
    try:
        return int(text, 0) if isinstance(node, cst.Integer) else float(text)
    except ValueError:
        return UNKNOWN


def _quote_style(call: cst.Call) -> str:
    for arg in call.args:
        if isinstance(arg.value, cst.SimpleString):
            return arg.value.quote[-1]
    return '"'


class _Evaluator:
    """Static values of expressions: literals, names bound once, dict literals and `dict()`."""

    def __init__(self, collector: _Collector) -> None:
        self.collector = collector

    def resolve_name(self, name: str, scope: Scope, ignore_augmented: bool = False) -> cst.BaseExpression | None:
        """The single value a name is bound to in its scope (or an enclosing one), else None.

        `ignore_augmented` skips `name += ...` (list building, read separately)."""
        bindings = [b for b in scope.lookup(name) if not (ignore_augmented and b.kind == "augmented")]
        if len(bindings) != 1 or bindings[0].kind != "assign":
            return None
        return bindings[0].value

    def evaluate(self, node: cst.BaseExpression, scope: Scope | None, depth: int = 0) -> tuple[Any, dict[str, Setting]]:
        if depth > _MAX_DEPTH:
            return UNKNOWN, {}
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.value], {}
            resolved = self.resolve_name(node.value, scope) if scope is not None else None
            return (UNKNOWN, {}) if resolved is None else self.evaluate(resolved, scope, depth + 1)
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = _string(node)
            return (UNKNOWN if value is None else value), {}
        if isinstance(node, (cst.Integer, cst.Float)):
            return _number(node), {}
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
            value, _ = self.evaluate(node.expression, scope, depth + 1)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return (-value if isinstance(node.operator, cst.Minus) else value), {}
            return UNKNOWN, {}
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            items = []
            for element in node.elements:
                if isinstance(element, cst.StarredElement):
                    return UNKNOWN, {}
                items.append(self.evaluate(element.value, scope, depth + 1)[0])
            return items, {}
        if isinstance(node, cst.Dict) or self._is_dict_call(node):
            entries = self._entries(node, scope, depth)
            if entries is None:
                return UNKNOWN, {}
            return {setting.name: setting.value for setting in entries}, {setting.name: setting for setting in entries}
        if isinstance(node, cst.Call) and node.args and node.args[0].keyword is None and "json.dumps" in self.collector.qualified(node.func, scope):
            value, _ = self.evaluate(node.args[0].value, scope, depth + 1)  # `--speculative-config`, json.dumps(SPEC)
            return (json.dumps(value) if _known(value) else UNKNOWN), {}
        return UNKNOWN, {}

    def resolved(self, node: cst.BaseExpression, scope: Scope | None) -> cst.BaseExpression:
        """The expression a name stands for (itself when it is no name bound once)."""
        if isinstance(node, cst.Name) and scope is not None:
            bound = self.resolve_name(node.value, scope)
            return node if bound is None else bound
        return node

    def _is_dict_call(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "dict"

    def _entries(self, node: cst.BaseExpression, scope: Scope | None, depth: int) -> list[Setting] | None:
        """Settings of a dict literal or `dict(k=v)` call, each with the span of its entry."""
        collector = self.collector
        entries: list[Setting] = []
        if isinstance(node, cst.Dict):
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    return None
                key = _string(element.key)
                if key is None:
                    return None
                span = collector.span(element.key, element.value)
                value, keys = self.evaluate(element.value, scope, depth + 1)
                entries.append(Setting(key, value, span, collector.text(span), collector.span(element.value), keys))
            return entries
        assert isinstance(node, cst.Call)
        for arg in node.args:
            if arg.keyword is None:
                return None
            start, end = collector._arg_bounds(arg)
            span = collector.source.index.span(start, end)
            value, keys = self.evaluate(arg.value, scope, depth + 1)
            entries.append(Setting(arg.keyword.value, value, span, collector.text(span), collector.span(arg.value), keys))
        return entries

    def dict_node(self, node: cst.BaseExpression, scope: Scope | None, depth: int = 0) -> cst.BaseExpression | None:
        if isinstance(node, cst.Name) and scope is not None and depth < _MAX_DEPTH:
            resolved = self.resolve_name(node.value, scope)
            return None if resolved is None else self.dict_node(resolved, scope, depth + 1)
        return node if isinstance(node, cst.Dict) or self._is_dict_call(node) else None

    def container_of(self, node: cst.BaseExpression, scope: Scope | None) -> _Container | None:
        """The dict literal a value is (or is bound to), as an editable sequence."""
        dict_node = self.dict_node(node, scope)
        if dict_node is None:
            return None
        collector = self.collector
        if isinstance(dict_node, cst.Dict):
            elements = tuple(
                (collector.span(e.key if isinstance(e, cst.DictElement) else e.value).start - (2 if isinstance(e, cst.StarredDictElement) else 0), collector.span(e.value).end)
                for e in dict_node.elements
            )
            quote = next((e.key.quote[-1] for e in dict_node.elements if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)), '"')
            return _Container(Sequence(elements, close=collector.span(dict_node).end - 1), quote, "dict")
        assert isinstance(dict_node, cst.Call)
        elements = tuple(collector._arg_bounds(arg) for arg in dict_node.args)
        return _Container(Sequence(elements, close=collector.span(dict_node).end - 1), _quote_style(dict_node), "call")

    def spread(self, node: cst.BaseExpression, scope: Scope | None) -> tuple[list[Setting], _Container] | None:
        """The settings a `**value` adds, when the value is a readable dict."""
        dict_node = self.dict_node(node, scope)
        if dict_node is None:
            return None
        entries = self._entries(dict_node, scope, 0)
        container = self.container_of(dict_node, scope)
        if entries is None or container is None:
            return None
        return entries, container

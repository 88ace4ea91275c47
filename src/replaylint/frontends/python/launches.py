"""The Python frontend's libcst pass: engine constructors, their requests and the runner
variable, in the statements `focus` kept, plus the command lines `argv` reads and SageMaker
models.

Launches are calls whose qualified name is `vllm.LLM`, `vllm.EngineArgs` or
`vllm.AsyncEngineArgs` (also under `vllm.entrypoints.llm` / `vllm.engine.arg_utils`, aliased or
through `import vllm as v`). Keyword values are read when they are literals, names bound once
to literals in the module or function, or dicts spread with `**` (`values`); anything else is
UNKNOWN, and `*args` / an unresolvable `**kwargs` make the launch open-ended. `os.environ[...]`
writes before the call supply `VLLM_USE_V2_MODEL_RUNNER`. Requests are `SamplingParams` given
to `generate`/`chat` (and `beam_search`) of a name bound to a launch in the same scope.
"""

from __future__ import annotations

from dataclasses import field
from typing import Iterator

import libcst as cst
from libcst.metadata import MetadataWrapper

from ...edits import Sequence
from ...model import UNKNOWN, Launch, LaunchKind, Request, Setting, Span
from ...records import record
from ...source import ExtractContext, ParseError, SourceFile
from .collect import BEAM_SEARCH_PARAMS, REQUEST_METHODS, SAMPLING_PARAMS, Collector, argument
from .focus import focus, syntax_error
from .names import set_after_call
from .scopes import Scope
from .static_values import Container, Evaluator, quote_style
from .subprocess_argv import ArgvLaunches

_MAX_DEPTH = 8


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
    collector = LaunchCollector(source, context)
    # A RecursionError (libcst's own recursion, on a file CPython reads) goes to the engine,
    # which reports the file as not fully analysed (RPL902).
    MetadataWrapper(module, unsafe_skip_copy=True).visit(collector)
    return collector.result


@record
class Handle:
    """Where each setting of a launch sits, so fixes can be written back."""

    call: Container
    places: dict[str, tuple[Container, int]] = field(default_factory=dict)
    env_statements: dict[str, Span] = field(default_factory=dict)
    name_spans: dict[str, Span] = field(default_factory=dict)


class LaunchCollector(Collector):
    """A `Collector` that builds the file's launches when the visit ends."""

    # metadata is only available until the visit ends
    def leave_Module(self, original_node: cst.Module) -> None:
        self.result = self.launches()

    def launches(self) -> list[Launch]:
        evaluator = Evaluator(self)
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
        result.extend(
            launch for launch in (self._sagemaker_launch(call, scope, evaluator) for call, scope in self.sagemaker_calls) if launch
        )
        return result

    def _sagemaker_launch(self, call: cst.Call, scope: Scope | None, evaluator: Evaluator) -> Launch | None:
        """`Model(image_uri=..., env={"SM_VLLM_...": ...})` of the SageMaker SDK. An image that is
        not a SageMaker vLLM image makes it no launch; one not known statically (an f-string with
        the region) is read as the newer entrypoint, which never reports what only the older one
        rejects; its tag, when written out, gives the release."""
        from ...frameworks import sagemaker

        env_node = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "env"), None)
        dict_node = evaluator.dict_node(env_node, scope) if env_node is not None else None
        entries = evaluator.entries(dict_node, scope, 0) if isinstance(dict_node, cst.Dict) else None
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

    def _launch(self, call: cst.Call, scope: Scope | None, evaluator: Evaluator) -> Launch:
        call_span = self.span(call)
        args_sequence = Sequence(tuple(self.arg_bounds(arg) for arg in call.args), close=call_span.end - 1)
        handle = Handle(Container(args_sequence, quote_style(call), "call"))
        settings: dict[str, Setting] = {}
        open_reasons: list[str] = []
        for position, arg in enumerate(call.args):
            start, end = self.arg_bounds(arg)
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
                    handle.name_spans[setting.name] = self.source.index.span(
                        setting.span.start, setting.span.start + len(setting.spelling.split(":")[0].rstrip())
                    )
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
            open_reasons.append(set_after_call(target[1]))
        env = self.env_before(call_span, scope)
        for name, write in env.items():
            if not write.shared:
                handle.env_statements[name] = write.span
        callee = self.text(self.span(call.func))
        return Launch(
            kind=LaunchKind.PYTHON_CALL,
            span=call_span,
            settings=settings,
            env={name: self.env_setting(write) for name, write in env.items()},
            open_reasons=tuple(open_reasons),
            label=f"{callee}(...)",
            handle=handle,
        )

    def _setting(self, name: str, node: cst.BaseExpression, span: Span, scope: Scope | None, evaluator: Evaluator) -> Setting:
        value, keys = evaluator.evaluate(node, scope)
        return Setting(name, value, span, self.text(span), self.span(node), keys)

    def _requests(self, built: dict[int, Launch], evaluator: Evaluator) -> dict[int, list[Request]]:
        found: dict[int, list[Request]] = {}
        for call, method, scope in self.method_calls:
            receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
            if not isinstance(receiver, cst.Name) or scope is None:
                continue
            engine = evaluator.resolve_name(receiver.value, scope)
            if not isinstance(engine, cst.Call) or id(engine) not in built:
                continue
            keyword, position = REQUEST_METHODS[method]
            params = argument(call, keyword, position)
            launch = built[id(engine)]
            for request in self._params_requests(params, method, call, scope, evaluator):
                found.setdefault(id(launch), []).append(request)
        return found

    def _params_requests(
        self, node: cst.BaseExpression | None, method: str, call: cst.Call, scope: Scope, evaluator: Evaluator, depth: int = 0
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
                start, end = self.arg_bounds(arg)
                span = self.source.index.span(start, end)
                settings[arg.keyword.value] = self._setting(arg.keyword.value, arg.value, span, scope, evaluator)
            yield Request(kind, self.span(node), settings, open_ended)
        elif kind == "beam_search":
            yield Request(kind, self.span(call), {}, open_ended=True)


def _with_requests(launch: Launch, requests: list[Request]) -> Launch:
    from dataclasses import replace

    return replace(launch, requests=tuple(requests))

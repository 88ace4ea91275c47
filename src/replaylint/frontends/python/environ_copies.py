"""A child's environment made as a copy of the parent's and then written into by name:
`env = os.environ.copy()` (or `dict(os.environ)`), `env["VLLM_USE_V2_MODEL_RUNNER"] = "0"`,
`subprocess.run(cmd, env=env)`. The runner variable is the last write of it into the copy
before the call (`del env[...]`, `env.pop(...)` remove it); without one, what `os.environ` held
when the call was made. A write the reader cannot read (`env.update(other)`, `env[key] = v`
with an unknown key) leaves the environment open."""

from __future__ import annotations

import libcst as cst

from ...launch_context import EnvPlace
from ...model import Setting, Span
from ...vllm.engine_fields import RUNNER_ENV
from .collect import Collector
from .scopes import Scope
from .static_values import Evaluator
from .strings import python_quote

Env = tuple[dict[str, Setting], dict[str, EnvPlace], bool]


def copied_environ(collector: Collector, evaluator: Evaluator, node: cst.BaseExpression, scope: Scope | None, call: Span) -> Env | None:
    """The environment `env=NAME` gives when NAME is bound once to a copy of `os.environ` (None: it is not)."""
    if not isinstance(node, cst.Name) or scope is None:
        return None
    value = evaluator.resolve_name(node.value, scope)
    if value is None or not _copies_environ(collector, value, scope):
        return None
    settings: dict[str, Setting] = {}
    places: dict[str, EnvPlace] = {}
    for write in collector.item_writes.get((id(scope), node.value), []):
        if write.span.start >= call.start:
            continue
        if not write.name:
            return {}, {}, True
        if write.removes:
            settings.pop(RUNNER_ENV, None)
            places.pop(RUNNER_ENV, None)
            continue
        settings[RUNNER_ENV] = collector.env_setting(write)
        quote = collector.source.text[write.value_span.start] if write.value_span is not None else '"'
        places[RUNNER_ENV] = EnvPlace(
            collector.statement_removal(write.span), write.value_span, python_quote(quote if quote in "'\"" else '"')
        )
    if not any(
        write.name == RUNNER_ENV for write in collector.item_writes.get((id(scope), node.value), []) if write.span.start < call.start
    ):
        for name, write in collector.env_before(call, scope).items():  # the parent's, as written before the call
            settings[name] = collector.env_setting(write)
            places[name] = EnvPlace(collector.statement_removal(write.span), write.value_span, python_quote('"'))
    return settings, places, False


def _copies_environ(collector: Collector, node: cst.BaseExpression, scope: Scope) -> bool:
    """`os.environ.copy()`, `dict(os.environ)`, `copy.copy(os.environ)`."""
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "copy" and not node.args:
        return "os.environ" in collector.qualified(func.value, scope)
    if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
        return False
    names = collector.qualified(func, scope)
    plain_dict = isinstance(func, cst.Name) and func.value == "dict" and not scope.lookup("dict")
    return (plain_dict or bool(names & {"copy.copy", "copy.deepcopy"})) and "os.environ" in collector.qualified(node.args[0].value, scope)

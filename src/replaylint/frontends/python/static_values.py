"""Static values of Python expressions for the libcst pass: literals, names bound once in a
scope, dict literals and `dict(k=v)` calls (with a setting, and its span, per entry), `**`
spreads, and `json.dumps` of a known value; anything else is UNKNOWN. Also the dict or call a
fix edits (`Container`).
"""

from __future__ import annotations

import json
from typing import Any

import libcst as cst

from ...edits import Sequence
from ...model import UNKNOWN, Setting
from ...records import record
from .collect import Collector, string_value
from .scopes import Scope

_MAX_DEPTH = 8


@record
class Container:
    sequence: Sequence
    quote: str
    kind: str  # "call" or "dict"


def known(value: Any) -> bool:
    """A value with nothing UNKNOWN inside: it can be written out (as JSON)."""
    if isinstance(value, dict):
        return all(isinstance(key, str) and known(item) for key, item in value.items())
    if isinstance(value, list):
        return all(known(item) for item in value)
    return value is None or isinstance(value, (str, int, float, bool))


def number(node: cst.Integer | cst.Float) -> Any:
    text = node.value.replace("_", "")
    try:
        return int(text, 0) if isinstance(node, cst.Integer) else float(text)
    except ValueError:
        return UNKNOWN


def quote_style(call: cst.Call) -> str:
    for arg in call.args:
        if isinstance(arg.value, cst.SimpleString):
            return arg.value.quote[-1]
    return '"'


class Evaluator:
    """Static values of expressions: literals, names bound once, dict literals and `dict()`."""

    def __init__(self, collector: Collector) -> None:
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
            if resolved is None or node.value in self.collector.keys_changed:
                return UNKNOWN, {}
            return self.evaluate(resolved, scope, depth + 1)
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = string_value(node)
            return (UNKNOWN if value is None else value), {}
        if isinstance(node, (cst.Integer, cst.Float)):
            return number(node), {}
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
        if isinstance(node, cst.Dict) and (ids := self._token_ids(node, scope, depth)) is not None:
            return dict(zip(ids, (self.evaluate(e.value, scope, depth + 1)[0] for e in node.elements))), {}  # type: ignore[union-attr]
        if isinstance(node, cst.Dict) or self._is_dict_call(node):
            entries = self.entries(node, scope, depth)
            if entries is None:
                return UNKNOWN, {}
            return {setting.name: setting.value for setting in entries}, {setting.name: setting for setting in entries}
        if (
            isinstance(node, cst.Call)
            and node.args
            and node.args[0].keyword is None
            and "json.dumps" in self.collector.qualified(node.func, scope)
        ):
            value, keys = self.evaluate(node.args[0].value, scope, depth + 1)  # `--speculative-config`, json.dumps(SPEC)
            return (json.dumps(value), keys) if known(value) else (UNKNOWN, {})  # each key reported where the dict writes it
        if isinstance(node, cst.IfExp):  # `"--enforce-eager" if FAST_BOOT else "--no-enforce-eager"`
            test, _ = self.evaluate(node.test, scope, depth + 1)
            return self.evaluate(node.body if test else node.orelse, scope, depth + 1) if isinstance(test, bool) else (UNKNOWN, {})
        if _str_call(node):  # `"--port", str(PORT)` in an argv list
            value, _ = self.evaluate(node.args[0].value, scope, depth + 1)  # type: ignore[attr-defined]
            return (str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else UNKNOWN), {}
        return UNKNOWN, {}

    def _token_ids(self, node: cst.Dict, scope: Scope | None, depth: int) -> list[int] | None:
        """The keys of a dict literal keyed only by token ids (`logit_bias={42: 5.0}`, or names
        bound to integers: `{EOS_ID: -100}`); None for any other dict."""
        if not node.elements or not all(
            isinstance(e, cst.DictElement) and isinstance(e.key, (cst.Integer, cst.Name)) for e in node.elements
        ):
            return None
        keys = [self.evaluate(e.key, scope, depth + 1)[0] for e in node.elements]  # type: ignore[union-attr]
        return keys if all(isinstance(key, int) and not isinstance(key, bool) for key in keys) else None

    def resolved(self, node: cst.BaseExpression, scope: Scope | None) -> cst.BaseExpression:
        """The expression a name stands for (itself when it is no name bound once)."""
        if isinstance(node, cst.Name) and scope is not None:
            bound = self.resolve_name(node.value, scope)
            return node if bound is None else bound
        return node

    def _is_dict_call(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "dict"

    def entries(self, node: cst.BaseExpression, scope: Scope | None, depth: int) -> list[Setting] | None:
        """Settings of a dict literal or `dict(k=v)` call, each with the span of its entry."""
        collector = self.collector
        entries: list[Setting] = []
        if isinstance(node, cst.Dict):
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    return None
                key = string_value(element.key)
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
            start, end = collector.arg_bounds(arg)
            span = collector.source.index.span(start, end)
            value, keys = self.evaluate(arg.value, scope, depth + 1)
            entries.append(Setting(arg.keyword.value, value, span, collector.text(span), collector.span(arg.value), keys))
        return entries

    def dict_node(self, node: cst.BaseExpression, scope: Scope | None, depth: int = 0) -> cst.BaseExpression | None:
        if isinstance(node, cst.Name) and scope is not None and depth < _MAX_DEPTH:
            resolved = None if node.value in self.collector.keys_changed else self.resolve_name(node.value, scope)
            return None if resolved is None else self.dict_node(resolved, scope, depth + 1)
        return node if isinstance(node, cst.Dict) or self._is_dict_call(node) else None

    def container_of(self, node: cst.BaseExpression, scope: Scope | None) -> Container | None:
        """The dict literal a value is (or is bound to), as an editable sequence."""
        dict_node = self.dict_node(node, scope)
        if dict_node is None:
            return None
        collector = self.collector
        if isinstance(dict_node, cst.Dict):
            elements = tuple(
                (
                    collector.span(e.key if isinstance(e, cst.DictElement) else e.value).start
                    - (2 if isinstance(e, cst.StarredDictElement) else 0),
                    collector.span(e.value).end,
                )
                for e in dict_node.elements
            )
            quote = next(
                (e.key.quote[-1] for e in dict_node.elements if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)), '"'
            )
            return Container(Sequence(elements, close=collector.span(dict_node).end - 1), quote, "dict")
        assert isinstance(dict_node, cst.Call)
        elements = tuple(collector.arg_bounds(arg) for arg in dict_node.args)
        return Container(Sequence(elements, close=collector.span(dict_node).end - 1), quote_style(dict_node), "call")

    def spread(self, node: cst.BaseExpression, scope: Scope | None) -> tuple[list[Setting], Container] | None:
        """The settings a `**value` adds, when the value is a readable dict."""
        dict_node = self.dict_node(node, scope)
        if dict_node is None:
            return None
        entries = self.entries(dict_node, scope, 0)
        container = self.container_of(dict_node, scope)
        if entries is None or container is None:
            return None
        return entries, container


def _str_call(node: cst.BaseExpression) -> bool:
    """`str(x)`, one positional argument."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "str"
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
    )

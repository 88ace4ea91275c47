"""Engine-argument mappings found by content: a dict (with the `d["key"] = value` and
`d.update(...)` writes of its scope) or the keywords of a call, which turn the mask on and reach
vLLM through a call replaylint cannot follow (`.remote(**actor_kwargs)`, a helper). Read with
CPython's parser, without libcst, only for files that write the mask as a key or keyword.

A framework adapter that claims the mapping (the registry's `claims_mappings`: `frameworks.openrlhf`,
`frameworks.open_instruct`)
knows it is the whole engine configuration, so every rule judges it. Any other mapping counts
only when its keys say it is vLLM's (`frameworks.engine_mappings`, which the YAML and TOML
frontends use too); it is open-ended, so only rules that fire on a setting's presence judge it. `**kwargs` writes before an engine call replaylint reads
(`kwargs["return_sampling_mask"] = True` then `vllm.AsyncEngineArgs(*args, **kwargs)`) are
settings of that call, open-ended too. Dicts spread into an engine call are that call's (the
libcst pass reads them).
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import field
from typing import Any, Iterator

from ...edits import Sequence
from ...framework_registry import mapping_claimers
from ...frameworks.engine_mappings import MASK, OPEN_REASON, looks_like_engine, turns_mask_on
from ...model import UNKNOWN, Launch, LaunchKind, Setting, Span
from ...records import record
from ...source import SourceFile
from .asts import ast_of
from .names import ENGINE_NAMES, vllm_aliases
from .ray_serve_llm import bound_names, config_names, engine_kwargs, entrypoint, runner_env
from .scope_writes import dict_bindings, inner_scopes, is_dict, scope_statements, statement_calls, written_keys, written_names

# The mask turned on by a literal as a dict key, a keyword or a subscript key (`"return_sampling_mask":
# True`, `return_sampling_mask=True`, `["return_sampling_mask"] = True`); not an attribute
# (`scheduler.return_sampling_mask = True`), a variable, or a mask given a name or a parameter
# (vLLM's own code passes `return_sampling_mask=return_sampling_mask`).
_WRITTEN = re.compile(r"""return_sampling_mask(["']\s*\]?\s*[:=]|=)\s*(?:True|1|["']?true)\b""")  # a literal first: fast
_VLLM = re.compile(r"vllm", re.IGNORECASE)
# Calls whose keywords build no engine configuration (test doubles, vLLM's own config objects).
_NOT_ENGINES = re.compile(r"^(?:SimpleNamespace|Namespace|\w*Mock|\w*Config|replace|patch|setattr|partial)$")
_MAX_DEPTH = 8


def _writes_mask(text: str) -> Iterator[int]:
    """Offsets where the mask is turned on by a literal key or keyword."""
    for match in _WRITTEN.finditer(text):
        before = text[match.start() - 1 : match.start()]
        if before in ("'", '"') if match.group(1) != "=" else not (before.isalnum() or before in "._"):
            yield match.start()


def candidate(text: str) -> bool:
    """Whether a file may hold such a mapping (cheap: most files never write the mask)."""
    return next(_writes_mask(text), None) is not None and (_VLLM.search(text) is not None or "ray.serve.llm" in text)


def mapping_launches(source: SourceFile) -> list[Launch]:
    """The launches of the engine mappings of a file (nothing when CPython cannot parse it: the
    libcst pass reports that)."""
    if not candidate(source.text):
        return []
    tree = ast_of(source.text)  # the parse `focus` made, when it made one
    if tree is None:
        return []
    reader = _Reader(source, {*ENGINE_NAMES, *vllm_aliases(source.text)})
    reader.read(tree)
    return reader.launches


@record
class _Mapping:
    """Settings in the order written, and where a fix may write."""

    settings: dict[str, Setting] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    container: Any = None
    places: dict[str, tuple[Any, int]] = field(default_factory=dict)
    name_spans: dict[str, Span] = field(default_factory=dict)


@record
class _Container:
    """A dict literal or a call's arguments, as `rendering` edits them."""

    sequence: Sequence
    quote: str
    kind: str  # "dict" or "call"


@record
class _Handle:
    """What `rendering` needs to write a fix into a dict literal or call (as the libcst pass's)."""

    call: _Container
    places: dict[str, tuple[Any, int]]
    name_spans: dict[str, Span]
    env_statements: dict[str, Span] = field(default_factory=dict)


class _Reader:
    """One pass over each scope: dict bindings and their writes, calls, engine calls."""

    def __init__(self, source: SourceFile, engines: set[str]) -> None:
        self.source = source
        self.engines = engines
        self.launches: list[Launch] = []
        index = source.index
        self.mask_lines = sorted({index.position(offset)[0] for offset in _writes_mask(source.text)})
        self.mask_names: set[str] = set()  # dicts whose literal or writes name the mask
        self.ray_configs = config_names(source.text)  # Ray Serve LLM's `LLMConfig`
        self.tree: ast.Module | None = None

    def hot(self, node: ast.AST, lines: list[int] | None = None) -> bool:
        """Whether the lines of `node` write the mask (the only mappings that can matter), or
        hold one of `lines`."""
        lines = self.mask_lines if lines is None else lines
        position = bisect.bisect_left(lines, node.lineno)  # type: ignore[attr-defined]
        return position < len(lines) and lines[position] <= node.end_lineno  # type: ignore[attr-defined]

    def _lines_naming(self, names: set[str]) -> list[int]:
        """The lines that name one of `names` (where a dict of that name may be bound)."""
        if not names:
            return []
        named = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
        return sorted({self.source.index.position(match.start())[0] for match in named.finditer(self.source.text)})

    def _spread_lines(self) -> list[int]:
        """The lines that spread a dict holding the mask (`**actor_kwargs`)."""
        if not self.mask_names:
            return []
        spread = re.compile(r"\*\*\s*(?:" + "|".join(map(re.escape, sorted(self.mask_names))) + r")\b")
        return sorted({self.source.index.position(match.start())[0] for match in spread.finditer(self.source.text)})

    # positions

    def offset(self, line: int, column: int) -> int:
        """ast's (line, UTF-8 byte column) as an offset into the decoded text."""
        text = self.source.index.line_text(line)
        if text.isascii():
            return self.source.index.offset(line, 1) + column
        return self.source.index.offset(line, 1) + len(text.encode("utf-8")[:column].decode("utf-8", "replace"))

    def span(self, first: ast.AST, last: ast.AST | None = None) -> Span:
        last = last or first
        return self.source.index.span(
            self.offset(first.lineno, first.col_offset),  # type: ignore[attr-defined]
            self.offset(last.end_lineno, last.end_col_offset),  # type: ignore[attr-defined]
        )

    def text(self, span: Span) -> str:
        return self.source.text[span.start : span.end]

    # scopes

    def read(self, tree: ast.Module) -> None:
        """Calls first (they take the dicts they spread), then the dicts no call took. A function
        or class whose lines neither write the mask, nor spread or name a dict that does, is not
        read: nothing there can count (vLLM's tests/test_config.py has 176 functions)."""
        self.tree = tree
        inner = list(inner_scopes(tree.body))
        scopes: list[tuple[list, dict] | None] = [None] * (len(inner) + 1)
        module: dict = {}

        def read_scope(position: int, body: list[ast.stmt]) -> None:
            statements = list(scope_statements(body))
            bindings = {**module, **dict_bindings(statements)}  # a function sees the module's dicts
            scopes[position] = (statements, bindings)
            self.mask_names |= {name for name, (_, value) in bindings.items() if self.hot(value)}
            self.mask_names |= {name for statement, _ in statements if self.hot(statement) for name in written_names(statement)}

        read_scope(0, tree.body)
        module = scopes[0][1]  # type: ignore[index]
        for position, scope in enumerate(inner, 1):
            if self.hot(scope):
                read_scope(position, scope.body)
        spreads = self._spread_lines()
        named = self._lines_naming(self.mask_names)
        for position, scope in enumerate(inner, 1):
            if scopes[position] is None and (self.hot(scope, spreads) or self.hot(scope, named)):
                read_scope(position, scope.body)
        consumed: set[int] = set()
        for statements, bindings in filter(None, scopes):
            for statement, _ in statements:
                if self.hot(statement) or self.hot(statement, spreads) or (self.ray_configs and self.hot(statement, named)):
                    for call in statement_calls(statement):
                        self._call(call, bindings, statements, consumed)
        for statements, bindings in filter(None, scopes):
            own = {id(statement) for statement, _ in statements}
            for name, (binding, value) in bindings.items():
                if id(value) not in consumed and id(binding) in own and name in self.mask_names:
                    self._dict(value, name, binding, bindings, statements)

    # values

    def evaluate(self, node: ast.AST, bindings: dict, depth: int = 0) -> tuple[Any, dict[str, Setting]]:
        if depth > _MAX_DEPTH:
            return UNKNOWN, {}
        if isinstance(node, ast.Constant):
            return node.value, {}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            value = node.operand.value
            return (-value if isinstance(value, (int, float)) and not isinstance(value, bool) else UNKNOWN), {}
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.evaluate(element, bindings, depth + 1)[0] for element in node.elts], {}
        if isinstance(node, ast.Name) and node.id in bindings and bindings[node.id][1] is not node:
            return self.evaluate(bindings[node.id][1], bindings, depth + 1)
        if is_dict(node):
            entries = self.entries(node, bindings, depth + 1)
            if entries is None:
                return UNKNOWN, {}
            return {setting.name: setting.value for setting in entries}, {setting.name: setting for setting in entries}
        return UNKNOWN, {}

    def entries(self, node: ast.AST, bindings: dict, depth: int = 0) -> list[Setting] | None:
        """Settings of a dict literal or `dict(k=v)` call (None: a key that is not a string)."""
        found = []
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
                    return None
                found.append(self.setting(key.value, key, value, bindings, depth))
            return found
        assert isinstance(node, ast.Call)
        for keyword in node.keywords:
            if keyword.arg is None:
                return None
            found.append(self.setting(keyword.arg, keyword, keyword.value, bindings, depth))
        return found

    def setting(self, name: str, first: ast.AST, value: ast.AST, bindings: dict, depth: int = 0) -> Setting:
        span = self.span(first, value)
        evaluated, keys = self.evaluate(value, bindings, depth + 1)
        return Setting(name, evaluated, span, self.text(span), self.span(value), keys)

    # mappings

    def _dict(self, value: ast.AST, name: str | None, binding: ast.stmt | None, bindings: dict, statements: list) -> None:
        found = _Mapping()
        self._literal(found, value, bindings)
        if name is not None:
            self._writes(found, name, binding, statements, bindings, until=None)
        self._judge(found, self.span(value))

    def _literal(self, found: _Mapping, value: ast.AST, bindings: dict) -> None:
        entries = self.entries(value, bindings)
        if entries is None:
            found.reasons.append(f"{self.text(self.span(value))[:40]} (keys not readable here)")
            return
        container = self._container(value)
        found.container = found.container or container
        for position, setting in enumerate(entries):
            found.settings[setting.name] = setting
            found.places[setting.name] = (container, position)
            element = value.keys[position] if isinstance(value, ast.Dict) else value.keywords[position]  # type: ignore[attr-defined]
            found.name_spans[setting.name] = self._name_span(element, setting.name)

    def _writes(self, found: _Mapping, name: str, binding: ast.stmt | None, statements: list, bindings: dict, until: int | None) -> None:
        """`name["k"] = v`, `name.update(...)`, `name.setdefault(...)`, `del name["k"]`,
        `name.pop("k")` after the binding (before offset `until`); a write in another block than
        the binding's (a branch, a loop) makes its key unknown."""
        home = next((chain for statement, chain in statements if statement is binding), None)
        if home is None and until is not None:
            home = next((chain for statement, chain in statements if self._contains(statement, until)), ())
        for statement, chain in statements:
            position = self.offset(statement.lineno, statement.col_offset)
            if binding is not None and position <= self.offset(binding.lineno, binding.col_offset):
                continue
            if until is not None and position >= until:
                break
            for key, value_node, first, kind in written_keys(statement, name):
                if key is None:
                    found.reasons.append(f"{self.text(self.span(statement))[:40]} (not readable here)")
                    continue
                certain = chain == home
                if kind == "default" and key in found.settings and found.settings[key].value is not UNKNOWN:
                    continue  # setdefault keeps a value already there
                if kind == "remove" or value_node is None:
                    if certain:
                        found.settings.pop(key, None)
                    else:
                        found.settings[key] = Setting(key, UNKNOWN, self.span(statement), self.text(self.span(statement)))
                    continue
                setting = self.setting(key, first, value_node, bindings)
                if not certain or kind == "default":
                    setting = Setting(key, UNKNOWN if not certain else setting.value, setting.span, setting.spelling)
                found.settings[key] = setting
                found.places.pop(key, None)

    def _contains(self, statement: ast.stmt, offset: int) -> bool:
        span = self.span(statement)
        return span.start <= offset < span.end and not isinstance(statement, (ast.If, ast.For, ast.While, ast.With, ast.Try))

    def _call(self, call: ast.Call, bindings: dict, statements: list, consumed: set[int]) -> None:
        callee = _callee(call)
        engine = callee in self.engines
        spreads = [keyword.value for keyword in call.keywords if keyword.arg is None]
        for spread in spreads:
            if isinstance(spread, ast.Name) and spread.id in bindings:
                consumed.add(id(bindings[spread.id][1]))
            elif is_dict(spread):
                consumed.add(id(spread))
        if engine:
            self._engine_writes(call, spreads, bindings, statements)
            return
        if callee in self.ray_configs:
            self._ray_serve(call, bindings, statements, consumed)
            return
        if not self.hot(call) and not any(isinstance(spread, ast.Name) and spread.id in self.mask_names for spread in spreads):
            return
        if callee is None or _NOT_ENGINES.match(callee) or (not call.keywords and not spreads):
            return
        found = _Mapping()
        container = self._container(call)
        found.container = container
        for position, keyword in enumerate(call.keywords):
            if keyword.arg is not None:
                setting = self.setting(keyword.arg, keyword, keyword.value, bindings)
                found.settings[keyword.arg] = setting
                found.places[keyword.arg] = (container, position)
                found.name_spans[keyword.arg] = self._name_span(keyword, keyword.arg)
            elif isinstance(keyword.value, ast.Name) and keyword.value.id in bindings:
                binding, value = bindings[keyword.value.id]
                self._literal(found, value, bindings)
                self._writes(found, keyword.value.id, binding, statements, bindings, until=self.span(call).start)
            elif is_dict(keyword.value):
                self._literal(found, keyword.value, bindings)
            else:
                found.reasons.append(f"**{self.text(self.span(keyword.value))}")
        if call.args and any(isinstance(arg, ast.Starred) for arg in call.args):
            found.reasons.append("*args")
        self._judge(found, self.span(call), call=True)

    def _engine_writes(self, call: ast.Call, spreads: list[ast.expr], bindings: dict, statements: list) -> None:
        """`kwargs[...] = ...` before `AsyncEngineArgs(*args, **kwargs)`, `kwargs` not a dict of
        this scope (a parameter): what the writes give, with the call's own keywords."""
        if any(keyword.arg == MASK for keyword in call.keywords):
            return  # the libcst pass reports the call
        for spread in spreads:
            if not isinstance(spread, ast.Name) or spread.id in bindings or spread.id not in self.mask_names:
                continue
            found = _Mapping()
            self._writes(found, spread.id, None, statements, bindings, until=self.span(call).start)
            if not turns_mask_on(found.settings):
                continue
            for keyword in call.keywords:
                if keyword.arg is not None:
                    found.settings[keyword.arg] = self.setting(keyword.arg, keyword, keyword.value, bindings)
            found.reasons.append(f"**{spread.id} (what the caller passes)")
            found.places = {}
            self._emit(found, self.span(call), f"{self.text(self.span(call.func))}(...)", known_engine=True)

    def _ray_serve(self, call: ast.Call, bindings: dict, statements: list, consumed: set[int]) -> None:
        """Ray Serve LLM's `LLMConfig(engine_kwargs=...)`: the whole engine configuration, served
        by `build_openai_app` or not (`ray_serve_llm`)."""
        kwargs = engine_kwargs(call)
        found = _Mapping()
        if isinstance(kwargs, ast.Name) and kwargs.id in bindings:
            binding, value = bindings[kwargs.id]
            consumed.add(id(value))
            self._literal(found, value, bindings)
            self._writes(found, kwargs.id, binding, statements, bindings, until=self.span(call).start)
        elif kwargs is not None and is_dict(kwargs):
            consumed.add(id(kwargs))
            self._literal(found, kwargs, bindings)
        if not turns_mask_on(found.settings) or self.tree is None:
            return
        served = entrypoint(self.tree, self.source.text, call, bound_names(self.tree, call))
        env_open = any(keyword.arg == "runtime_env" for keyword in call.keywords)  # Ray may set the workers' variables
        env = runner_env(call, self.span, self.text)
        self._emit(found, self.span(call), "Ray Serve LLM engine_kwargs", known_engine=True, entrypoint=served, env_open=env_open, env=env)

    # judging

    def _judge(self, found: _Mapping, anchor: Span, call: bool = False) -> None:
        if not turns_mask_on(found.settings):
            return
        for claimer in mapping_claimers():
            adapter = claimer.load()
            if adapter.claims(found.settings):
                found.settings = adapter.engine_settings(found.settings, anchor)
                self._emit(found, anchor, f"{claimer.name} engine arguments", known_engine=True)
                return
        if looks_like_engine(found.settings):
            found.reasons.insert(0, OPEN_REASON)
            self._emit(found, anchor, "engine arguments" + (" of a call" if call else " in a dict"), known_engine=False)

    def _emit(
        self,
        found: _Mapping,
        anchor: Span,
        label: str,
        known_engine: bool,
        entrypoint: str = "",
        env_open: bool = False,
        env: dict | None = None,
    ) -> None:
        handle = None
        if found.container is not None:
            places = {name: place for name, place in found.places.items() if name in found.settings}
            handle = _Handle(found.container, places, {n: s for n, s in found.name_spans.items() if n in places})
        self.launches.append(
            Launch(
                LaunchKind.PYTHON_CALL,
                anchor,
                dict(found.settings),
                open_reasons=tuple(found.reasons),
                label=label,
                handle=handle,
                entrypoint=entrypoint,
                env_open=env_open,
                env=env or {},
            )
        )

    def _container(self, node: ast.AST) -> _Container:
        span = self.span(node)
        if isinstance(node, ast.Dict):
            elements = tuple((self.span(key).start, self.span(value).end) for key, value in zip(node.keys, node.values) if key is not None)
            quote = next((self.text(self.span(key))[-1] for key in node.keys if isinstance(key, ast.Constant)), '"')
            return _Container(Sequence(elements, close=span.end - 1), quote if quote in "'\"" else '"', "dict")
        assert isinstance(node, ast.Call)
        elements = tuple((self.span(arg).start, self.span(arg).end) for arg in node.args) + tuple(
            (self.span(keyword).start, self.span(keyword).end) for keyword in node.keywords
        )
        quotes = [
            self.text(self.span(k.value))[:1] for k in node.keywords if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
        ]
        return _Container(Sequence(tuple(sorted(elements)), close=span.end - 1), next((q for q in quotes if q in "'\""), '"'), "call")

    def _name_span(self, element: ast.AST, name: str) -> Span:
        """A dict key with its quotes, or a keyword's name."""
        if isinstance(element, ast.keyword):
            start = self.span(element).start
            return self.source.index.span(start, start + len(name))
        return self.span(element)


# -- helpers over ast ---------------------------------------------------------------------------


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None

"""A call's arguments as the called function's parameters see them (`bind`)."""

from __future__ import annotations

import ast
from dataclasses import replace

from .dicts import as_val, container, entry as dict_entry, nested, spread
from .facts import NOTHING, Kwargs, Val, unknown as not_known
from .frames import Evaluates, Frame, parameters
from .refs import Function, Partial


class BoundArguments(dict):
    """A call's arguments by parameter name; `defaulted`: the parameters the call left to their defaults."""

    defaulted: frozenset[str] = frozenset()


def bind(
    reader: Evaluates, function: Function, node: ast.Call, frame: Frame, skip_self: bool | None = None, partial: Partial | None = None
) -> dict[str, Val]:
    """The call's arguments as the function's parameters see them; a parameter the call does
    not pass has its default (read in the function's module); `**kwargs` gets the rest. The call
    of a `partial` of the function passes the partial's arguments before its own."""
    definition = function.node
    params = parameters(definition)
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in definition.decorator_list)
    if skip_self if skip_self is not None else function.cls is not None and not static:
        params = params[1:]
    bound: dict[str, Val] = BoundArguments()
    rest = Kwargs(home=container(frame.module, node))
    unknown = False
    given = positional_values(reader, node.args, frame)
    if partial is not None:
        given = None if given is None or partial.positional is None else [*partial.positional, *given]
    if given is None:
        unknown, given = True, []
    extra: list[Val] = []
    for number, read in enumerate(given):
        if number < len(params):
            bound[params[number].arg] = read
        else:
            extra.append(read)
    if definition.args.vararg is not None and not unknown:
        bound[definition.args.vararg.arg] = Val([item.value for item in extra], ref=tuple(extra))
    names = {p.arg for p in params}
    if partial is not None:
        unknown = _spread_into(_via(partial.kwargs, partial.span), names, bound, rest) or unknown
    for keyword in node.keywords:
        if keyword.arg is None:
            more = spread(reader, keyword.value, frame)
            if partial is not None and more.reasons:  # `partial` lets the call's `**more` replace its keywords
                _opened(set(partial.kwargs.entries), bound, rest)
            unknown = _spread_into(more, names, bound, rest) or unknown
        elif keyword.arg in names:
            bound[keyword.arg] = reader.evaluate(keyword.value, frame)
        else:
            rest.entries[keyword.arg] = dict_entry(reader, frame, keyword.arg, keyword, keyword.value, None)
    defaults = parameter_defaults(definition)
    home = Frame(function.module, function.module.tree)
    for param in params:
        if param.arg not in bound and not unknown and param.arg in defaults:
            read = reader.evaluate(defaults[param.arg], home)  # decided at the default (`temperature: float = 0.0`)
            bound[param.arg] = replace(read, origin=read.span) if plain(read) else read
            bound.defaulted |= {param.arg}  # type: ignore[attr-defined]
    if definition.args.kwarg is not None:
        if unknown:
            rest.reasons.append(f"**{definition.args.kwarg.arg} (what the caller passes)")
        bound[definition.args.kwarg.arg] = as_val(rest)
    return bound


def _spread_into(given: Kwargs, names: set[str], bound: dict[str, Val], rest: Kwargs) -> bool:
    """`**given` bound: its keys that name parameters to them, the others to `rest`; whether it is open."""
    rest.assumed.extend(condition for condition in given.assumed if condition not in rest.assumed)
    for name, item in given.entries.items():
        if name in names:
            setting = item.setting
            # a dict the spread holds stays one (`**engine_kwargs` of the parameter then reads its keys)
            bound[name] = nested(item) or Val(setting.value, setting.keys, span=setting.value_span, origin=setting.span, hops=setting.via)
        else:
            rest.entries[name] = item
    return bool(given.reasons)


def _opened(names: set[str], bound: dict[str, Val], rest: Kwargs) -> None:
    """A partial's keywords a call's spread not known may replace: present, their values not known."""
    for name in names & set(rest.entries):
        rest.entries[name] = replace(not_known(rest.entries[name]), guards=(), otherwise=None)
    for name in names & set(bound):
        bound[name] = NOTHING


def _via(given: Kwargs, span) -> Kwargs:
    """A partial's keywords, each having passed through the partial."""
    return given.rebuilt({n: replace(e, setting=replace(e.setting, via=(*e.setting.via, span))) for n, e in given.entries.items()})


def positional_values(reader: Evaluates, args: list[ast.expr], frame: Frame) -> list[Val] | None:
    """A call's positional arguments, `*ARGS` of a known tuple or list spread (None: not known)."""
    found: list[Val] = []
    for argument in args:
        if not isinstance(argument, ast.Starred):
            found.append(reader.evaluate(argument, frame))
            continue
        items = reader.evaluate(argument.value, frame).ref
        if not isinstance(items, tuple):
            return None
        found.extend(items)
    return found


def parameter_defaults(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    arguments = definition.args
    positional = [*arguments.posonlyargs, *arguments.args]
    found = {param.arg: default for param, default in zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults)}
    found.update({param.arg: default for param, default in zip(arguments.kwonlyargs, arguments.kw_defaults) if default is not None})
    return found


def plain(read: Val) -> bool:
    """A default written as a literal in the signature (not a name or a mapping read elsewhere)."""
    return read.known and read.origin is None and read.span is not None and read.kwargs is None and not read.hops


def computed(value: ast.AST | None) -> bool:
    """A value the binding works out (a lookup's default, a call) rather than a constant spelled
    out (`TOP_K = -1`, `NO_TOP_K = 1 << 20`)."""
    return value is not None and any(isinstance(node, (ast.Call, ast.Subscript, ast.Attribute)) for node in ast.walk(value))

"""An OpenAI client's request method wrapped by `functools.partial` (`complete =
partial(client.completions.create, model=MODEL, temperature=0.0)`), then called (`complete(prompt=...)`):
each call sends the partial's keywords with its own over them, as `partial` does. The partial's
keywords are read where the partial is written, the call's where it is made; a call that
spreads `**kwargs` may override any of them, so nothing is read for it."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Iterator

from ....model import UNKNOWN, Request, Setting
from .callsites import calls
from .frames import Frame
from .module import Module
from .reader import Reader
from .refs import Partial, Qualified

_PARTIALS = ("functools.partial", "partial")
SetOf = Callable[[Reader, str, ast.keyword, Frame], Setting]


def partial_sends(reader: Reader, module: Module, is_request: Callable[[ast.Attribute], bool]) -> Iterator[tuple]:
    """(the partial as one call of the wrapped method, the method, the partial's frame, each call of
    it and its frame) for each partial of a request method (`is_request`) called in the module."""
    for made in calls(module, ("partial(",)):
        node, statement = made.node, made.placed.statement
        method = node.args[0] if node.args else None
        if not isinstance(method, ast.Attribute) or not is_request(method) or any(item.arg is None for item in node.keywords):
            continue
        frame = Frame(module, made.scope, made.cls, None, made.placed)
        callee = reader.evaluate(node.func, frame).ref
        if not (isinstance(callee, Qualified) and callee.name in _PARTIALS):
            continue
        names = [t.id for t in statement.targets if isinstance(t, ast.Name)] if isinstance(statement, ast.Assign) else []
        for name in names[:1]:
            for site in calls(module, (name + "(",)):
                site_frame = Frame(module, site.scope, site.cls, None, site.placed)
                held = reader.evaluate(site.node.func, site_frame).ref
                if isinstance(held, Partial) and held.span == module.span(node):
                    given = {item.arg for item in site.node.keywords}
                    keywords = [item for item in node.keywords if item.arg not in given]
                    sent = ast.copy_location(ast.Call(method, [], keywords), node)
                    ast.fix_missing_locations(sent)
                    sent.end_lineno, sent.end_col_offset = node.end_lineno, node.end_col_offset
                    yield sent, method, frame, site.node, site_frame


def with_call_keywords(
    reader: Reader, request: Request, site: ast.Call, frame: Frame, fields: tuple[str, ...], setting_of: SetOf
) -> Request:
    """The partial's request with the keywords the call itself gives (read in the call's frame)."""
    if any(item.arg is None for item in site.keywords):
        return replace(request, settings={}, open_ended=True)
    settings = dict(request.settings)
    open_ended = request.open_ended
    for item in site.keywords:
        if item.arg in fields:
            settings[item.arg] = setting_of(reader, item.arg, item, frame)
        elif item.arg == "extra_body":
            extra = reader.evaluate(item.value, frame)
            settings.update(extra.keys)
            open_ended = open_ended or extra.value is UNKNOWN
    return replace(request, settings=settings, open_ended=open_ended)

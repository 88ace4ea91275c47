"""The arguments a call of an engine passes, read as Python binds them: the first positional
argument is the model, keywords and `**` spreads in order, a `partial`'s own before them."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import Setting
from .dicts import container, entry as read_entry, spread
from .facts import Entry, Kwargs
from .frames import Evaluates, Frame
from .refs import Partial, handed_engine_options


def arguments(reader: Evaluates, node: ast.Call, frame: Frame, partial: Partial | None, positional: bool = True) -> Kwargs:
    module = frame.module
    place = container(module, node)
    found = Kwargs(home=place, sources={module.span(node)})  # writes into a parameter's dict are read here
    if partial is not None:
        found.merge(replace(partial.kwargs.rebuilt({n: _via(e, partial.span) for n, e in partial.kwargs.entries.items()}), sources=set()))
    every = sorted([*node.args, *node.keywords], key=lambda item: (item.lineno, item.col_offset))
    position = 0
    for argument in node.args:
        if isinstance(argument, ast.Starred):
            items = reader.evaluate(argument.value, frame).ref
            if not isinstance(items, tuple):
                found.reasons.append(f"*{module.text(argument.value)[:40]}")
            elif items and position == 0 and partial is None:
                first = items[0]
                setting = Setting(
                    "model", first.value, first.origin or module.span(argument), module.text(argument), first.span, via=first.hops
                )
                found.entries["model"] = Entry(setting)
            position += len(items) if isinstance(items, tuple) else 1
            continue
        if position == 0 and partial is None and positional:
            found.entries["model"] = read_entry(reader, frame, "model", argument, argument, place.at(every.index(argument)))
        position += 1
    for keyword in node.keywords:
        if keyword.arg is None:  # a key given twice is Python's TypeError; a partial's keys it may replace
            more = spread(reader, keyword.value, frame)
            if partial is None:  # a key the spread only may hold (an allowlist's) leaves the one given here standing
                more = more.rebuilt({name: item for name, item in more.entries.items() if not (item.guards and name in found.entries)})
            found.merge(more, overwrites=partial is not None)
        else:
            found.entries.pop(keyword.arg, None)
            found.entries[keyword.arg] = read_entry(reader, frame, keyword.arg, keyword, keyword.value, place.at(every.index(keyword)))
    handed = handed_engine_options(found.assumed)
    if handed is not None:
        # Every engine option is in the namespace: one given beside it too is Python's "multiple
        # values", and a fix cannot add one there (the parser's `set_defaults` would be the place).
        found.home = None
        if node.args or any(keyword.arg for keyword in node.keywords):
            found.reasons.append(f"the parser handed to `{handed[:40]}`")
    return found


def _via(item: Entry, span) -> Entry:
    return replace(item, setting=replace(item.setting, via=(*item.setting.via, span)), place=item.place)

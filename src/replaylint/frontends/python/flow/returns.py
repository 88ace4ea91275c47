"""What a function of the tree returns when it has several `return`s: each return is a branch,
taken when its `if` holds and no earlier return was taken (`if fast: return A` then
`return B`: B when `fast` is false). The mappings they return become one mapping whose keys
are each written under their branch, so the launch splits on the test and each finding says
its condition. A branch whose test the call decides (`build(fast=True)`) is the only one read.

Returns in a chain of branches (`if`/`elif`/`else`, a `match`'s cases) are read when every path
ends in a return or a `raise`; a return in a loop or an exception handler leaves the result
unknown, except a function that ends in `try: ... return A` whose handlers each end in a return
of the same mapping (mellea's `dataclasses.fields(cls)`, then `msgspec.structs.fields(cls)` on
`TypeError`): whichever is taken, the function returns that mapping."""

from __future__ import annotations

import ast

from .dicts import as_val, decided
from .facts import NOTHING, Kwargs, Val
from .frames import Evaluates, Frame
from .module import Guard, Placed


def branches(returns: list[Placed], raises: list[Placed] = (), raised_after: bool = False) -> list[tuple[Placed, tuple[Guard, ...]]] | None:
    """Each return with the guards of the path that takes it, or None when the returns are not
    a chain of branches (`if`/`elif`/`else`, a `match`'s cases) where every path ends in a
    return or a `raise` (`raises`); `raised_after`: also a `raise` after the chain that every path
    falling out of it reaches (`raise ValueError(...)` after the `if`/`elif` returns)."""
    if not returns:
        return None
    if any(placed.statement.value is None for placed in returns):  # type: ignore[attr-defined]
        return None
    if any(guard.opaque for placed in returns for guard in placed.guards):
        return None
    paths = []
    for number, placed in enumerate(returns):
        own = placed.guards
        negated = []  # the earlier returns, not taken on this path
        for earlier in returns[:number]:
            if any(Guard(g.node, not g.holds) in own for g in earlier.guards):
                continue  # an `elif` after it: its own tests already exclude the earlier branch
            if len(earlier.guards) != 1:
                return None
            negated.append(Guard(earlier.guards[0].node, not earlier.guards[0].holds))
        paths.append((placed, (*negated, *own)))
    ends = {placed.guards for placed in (*returns, *raises)}
    last = returns[-1].guards
    after = {placed.guards for placed in raises if raised_after and placed.order > returns[-1].order}
    if any(
        (*last[:number], Guard(guard.node, not guard.holds)) not in ends and not _caught(last[: number + 1], after)
        for number, guard in enumerate(last)
    ):
        return None  # a path may fall through, returning None
    return paths


FALLBACK = Guard(opaque=True, label="a try or its handler")  # each path of `fallbacks`


def fallbacks(function: ast.FunctionDef | ast.AsyncFunctionDef, returns: list[Placed]) -> list[tuple[Placed, tuple[Guard, ...]]] | None:
    """The returns of a function that ends in `try:` whose body and handlers each end in a return
    (and return nowhere else), each with the guards `(FALLBACK,)`; None for another function."""
    last = function.body[-1]
    if not isinstance(last, ast.Try) or last.orelse or last.finalbody:
        return None
    ends = [last.body[-1], *(handler.body[-1] for handler in last.handlers)]
    if len(returns) != len(ends) or any(placed.statement is not end for placed, end in zip(returns, ends)):
        return None
    if any(not isinstance(end, ast.Return) or end.value is None for end in ends):
        return None
    return [(placed, (FALLBACK,)) for placed in returns]


def _alike(reader: Evaluates, paths: list[tuple[Placed, tuple[Guard, ...]]], inner: Frame) -> Val:
    """The mapping each of the paths returns, when they all return the same keys and values."""
    reads = [reader.evaluate(placed.statement.value, inner.reading(placed)) for placed, _ in paths]  # type: ignore[attr-defined]
    first = reads[0].kwargs
    if first is None or not first.whole:
        return NOTHING
    for read in reads[1:]:
        if read.kwargs is None or not read.kwargs.whole or read.kwargs.value() != first.value():
            return NOTHING
    return reads[0]


def _caught(path: tuple[Guard, ...], after: set[tuple[Guard, ...]]) -> bool:
    """Whether a `raise` after the last return, on a path the chain's own path starts with, ends every path that falls out of it."""
    return any(path[: len(guards)] == guards and len(guards) < len(path) for guards in after)


def combined(reader: Evaluates, paths: list[tuple[Placed, tuple[Guard, ...]]], inner: Frame) -> Val:
    """The value the function returns: one mapping of the returns' keys, each under its path."""
    if all(guards == (FALLBACK,) for _, guards in paths):
        return _alike(reader, paths, inner)
    reads: list[tuple[Val, tuple[Guard, ...]]] = []
    for placed, guards in paths:
        frame = inner.reading(placed)
        left = decided(reader, guards, frame)
        if left is None:
            continue  # the call decides against this path
        reads.append((reader.evaluate(placed.statement.value, frame), left))  # type: ignore[attr-defined]
        if not left:
            break  # taken whenever it is reached: later returns are not
    if not reads:
        return NOTHING
    if len(reads) == 1:
        return reads[0][0]
    if any(read.kwargs is None for read, _ in reads):
        values = {repr(read.value) for read, _ in reads}
        return reads[0][0] if len(values) == 1 and reads[0][0].known else NOTHING
    found = Kwargs()
    for read, guards in reversed(reads):  # the first return's keys are tried first (`Entry.otherwise`)
        assert read.kwargs is not None
        found.merge(read.kwargs.guarded(guards))
    return as_val(found)

"""What a function of the tree returns when it has several `return`s: each return is a branch,
taken when its `if` holds and no earlier return was taken (`if fast: return A` then
`return B`: B when `fast` is false). The mappings they return become one mapping whose keys
are each written under their branch, so the launch splits on the test and each finding says
its condition. A branch whose test the call decides (`build(fast=True)`) is the only one read.

Only returns under one top-level `if` (or its `else`) before a last return are read: a return
in a loop, an exception handler or a nested branch leaves the result unknown."""

from __future__ import annotations

from .dicts import as_val, decided
from .facts import NOTHING, Kwargs, Val
from .frames import Evaluates, Frame
from .module import Guard, Placed


def branches(returns: list[Placed]) -> list[tuple[Placed, tuple[Guard, ...]]] | None:
    """Each return with the guards of the path that takes it, or None when the returns are not
    a chain of top-level branches ending in a return every path reaches."""
    if not returns:
        return None
    if any(placed.statement.value is None for placed in returns):  # type: ignore[attr-defined]
        return None
    *early, last = returns
    if any(len(placed.guards) != 1 or placed.guards[0].opaque for placed in early):
        return None
    if last.guards and not (len(last.guards) == 1 and _complement(last.guards[0], early)):
        return None  # a path may fall through, returning None
    paths = []
    taken: list[Guard] = []  # the branches of earlier returns, not taken on later paths
    for placed in returns:
        own = placed.guards
        negated = tuple(Guard(g.node, not g.holds) for g in taken if not (own and g.node is own[0].node))
        paths.append((placed, (*negated, *own)))
        taken.extend(own)
    return paths


def _complement(guard: Guard, early: list[Placed]) -> bool:
    return not guard.opaque and any(p.guards[0].node is guard.node and p.guards[0].holds != guard.holds for p in early)


def combined(reader: Evaluates, paths: list[tuple[Placed, tuple[Guard, ...]]], inner: Frame) -> Val:
    """The value the function returns: one mapping of the returns' keys, each under its path."""
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

"""The asts of the Python texts parsed in this run, kept for the readers after `focus`: the file
parsed last (`mappings` and the value flow read it instead of parsing the file again) and small
modules parsed before (an ast is never changed)."""

from __future__ import annotations

import ast
import gc
import warnings
from collections import deque
from typing import Iterator

_last: tuple[str, ast.Module] | None = None  # the file parsed last, for the readers after `focus`
# Small modules parsed before, by their text: a module the flow of several files imports (vLLM's
# `tests/conftest.py`, read for its own check and again for `test_logprobs.py`'s flow) is parsed
# once. An ast takes about 30 bytes a character: modules of at most `_KEPT_SIZE` characters,
# `_KEPT_CHARACTERS` in all (about 15 MB).
_kept: dict[str, ast.Module] = {}
_KEPT_SIZE = 100_000
_KEPT_CHARACTERS = 500_000


def parsed(text: str) -> ast.Module | None:
    """The ast made of this text, if it was the last one parsed (the readers after `focus`,
    `mappings` and the value flow, read it instead of parsing the file again) or is a small
    module parsed before (an ast is never changed)."""
    return _last[1] if _last is not None and _last[0] is text else _kept.get(text)


def remember(text: str, tree: ast.Module | None) -> None:
    """Remember the ast of `text` for `parsed`."""
    global _last
    _last = (text, tree) if tree is not None else None
    if tree is not None and len(text) <= _KEPT_SIZE:
        _kept.pop(text, None)
        _kept[text] = tree
        while sum(map(len, _kept)) > _KEPT_CHARACTERS:
            del _kept[next(iter(_kept))]


_frozen_by_the_run = False  # the run froze what it imported (`run.forked_reader`): never thawed here


def out_of_collections() -> None:
    """Takes the objects made since the last collection, a new ast's nodes among them (made while
    collections wait), out of the young generations: each collection of those would walk every
    node (as long as the parse); freed nodes still go at once (an ast has no reference cycles).
    They join what the run froze, else the oldest generation (a long-lived process collects them there)."""
    global _frozen_by_the_run
    _frozen_by_the_run = _frozen_by_the_run or gc.get_freeze_count() > 0  # (a walk of the frozen: only while none are)
    gc.freeze()
    if not _frozen_by_the_run:
        gc.unfreeze()


def ast_of(text: str) -> ast.Module | None:
    """The ast of `text`, parsed once for all the readers of a file (`focus` may not have
    parsed it: `prescan` settles most files without); None when CPython cannot read it (the
    libcst pass reports that)."""
    tree = parsed(text)
    if tree is not None:
        return tree
    collecting = gc.isenabled()
    gc.disable()  # as in `_parse`
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    finally:
        if collecting:
            out_of_collections()
            gc.enable()
    remember(text, tree)
    return tree


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk`: the same nodes in the same order (breadth first), each node's children read
    from its fields without `ast.iter_child_nodes`' generators (a quarter of the walk's time)."""
    waiting = deque([node])
    while waiting:
        node = waiting.popleft()
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                waiting.extend([child for child in value if isinstance(child, ast.AST)])
            elif isinstance(value, ast.AST):
                waiting.append(value)
        yield node

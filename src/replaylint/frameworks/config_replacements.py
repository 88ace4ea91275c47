"""A fork's `dataclasses.replace` of a framework's config object inside the function that builds
the engine's arguments: SkyRL's `ie_cfg = dataclasses.replace(cfg.generator.inference_engine,
engine_init_kwargs={**cfg.generator.inference_engine.engine_init_kwargs, "return_sampling_mask":
True})`, whose pass-through dict is then copied onto vLLM's namespace as the launch's was.

Read with CPython's parser (nothing of the tree runs): the field's new value as a merge of the
config's own dict (`**CONFIG.FIELD`, `dict(CONFIG.FIELD, k=v)`, `CONFIG.FIELD | {...}`) and literal
keys, those before the config's own dict under the launch's keys and those after it over them. A
dict merged that is not read here, a value that drops the config's own dict, or another field the
replace changes is listed as not read (it keeps a launch open)."""

from __future__ import annotations

import ast

from ..model import UNKNOWN
from ..records import record
from .built_dicts import Written
from .fork_source import dict_pairs, literal, merged_parts, snippet

_REPLACES = ("dataclasses.replace", "replace")


@record(unsafe_hash=True)
class Replacement:
    """`TARGET = dataclasses.replace(CONFIG, FIELD=...)`: the name it binds and the field's keys."""

    target: str  # as written: `ie_cfg`
    under: tuple[tuple[str, ast.expr], ...]  # keys before the config's own dict: the launch's win
    over: tuple[tuple[str, ast.expr], ...]  # keys after it: they win
    unread: tuple[ast.expr, ...]  # what the replace changes that is not read here
    condition: str = ""  # the test it is made under

    def not_read(self, text: str) -> tuple[Written, ...]:
        """What the replace changes that is not read here, as writes not read."""
        return tuple(Written("", UNKNOWN, snippet(text, node), node.lineno, True, self.condition) for node in self.unread)


def replacement(statement: ast.stmt, field: str, configs: tuple[str, ...], condition: str = "") -> Replacement | None:
    """The replace a statement binds under the test `condition` (`configs`: how the function spells
    the config object; the replaced one's own spelling counts too); None: another statement."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(call := statement.value, ast.Call)):
        return None
    if ast.unparse(call.func) not in _REPLACES or len(call.args) != 1 or ast.unparse(call.args[0]) not in configs:
        return None
    owners = {*configs, ast.unparse(call.args[0])}
    unread = tuple(keyword.value for keyword in call.keywords if keyword.arg != field)
    value = next((keyword.value for keyword in call.keywords if keyword.arg == field), None)
    if value is None:
        return Replacement(ast.unparse(statement.targets[0]), (), (), unread, condition)
    parts = merged_parts(value) or [(None, value)]
    own = [index for index, (key, part) in enumerate(parts) if key is None and ast.unparse(part) in {f"{o}.{field}" for o in owners}]
    if not own:
        return Replacement(ast.unparse(statement.targets[0]), (), (), (*unread, value), condition)  # the launch's keys dropped
    under: list[tuple[str, ast.expr]] = []
    over: list[tuple[str, ast.expr]] = []
    for index, (key, part) in enumerate(parts):
        if index == own[-1]:
            continue
        pairs = [(key, part)] if key is not None else dict_pairs(part)
        if pairs is None:
            unread += (part,)
            continue
        (under if index < own[-1] else over).extend(pairs)
    return Replacement(ast.unparse(statement.targets[0]), tuple(under), tuple(over), unread, condition)


def replaced_writes(text: str, found: Replacement, condition: str, under: dict, over: dict) -> None:
    """The keys the replace gave the field, as a copy of it that runs under `condition` writes them
    (`under` the launch's keys, or `over` them)."""
    test = " and ".join(filter(None, (found.condition, condition)))
    for pairs, into in ((found.under, under), (found.over, over)):
        into.update({key: Written(key, literal(node), snippet(text, node), node.lineno, True, test) for key, node in pairs})

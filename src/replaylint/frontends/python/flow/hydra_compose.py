"""Hydra's compose API: `with initialize(config_path="conf"): cfg = compose(config_name="rollout",
overrides=["vllm.logprobs_mode=raw_logprobs"])`. The config is `conf/rollout.yaml` next to the
module that calls `initialize` (as `@hydra.main`'s), and each override written in the list
replaces (or, with `+`/`++`, adds) its dotted key, written where the override string is, so a
finding points at it.

What stays open: an override that is not a literal string, one that deletes (`~key`) or names
a key the config does not have without `+` (Hydra refuses it), a config directory given by
absolute path (`initialize_config_dir`), and everything `yaml_configs` leaves open."""

from __future__ import annotations

import ast
import os
from dataclasses import replace

from ....model import UNKNOWN, Setting
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Frame
from .hydra_defaults import hydra_config_file
from .module import Module

_INITIALIZE = ("hydra.initialize", "hydra.experimental.initialize")


def composed(reader, node: ast.Call, frame: Frame) -> Val:
    """The config `compose(config_name=..., overrides=[...])` makes under `initialize(config_path=...)`."""
    module = frame.module
    given = _strings(node)
    folder = _config_path(module, frame.scope, node)
    if "config_name" not in given or folder is None or node.args:
        return NOTHING
    name = given["config_name"] if given["config_name"].endswith((".yaml", ".yml")) else given["config_name"] + ".yaml"
    top = os.path.normpath(os.path.join(os.path.dirname(module.path), folder))
    read = hydra_config_file(reader, os.path.normpath(os.path.join(top, name)), top)
    if read.kwargs is None:
        return NOTHING
    overrides = next((k.value for k in node.keywords if k.arg == "overrides"), None)
    if overrides is None:
        return read
    from .dicts import as_val

    found = read.kwargs.copy()
    if not isinstance(overrides, (ast.List, ast.Tuple)):
        found.reasons.append(f"{module.text(overrides)[:40]} (Hydra overrides not readable here)")
        return as_val(found, read.span)
    for item in overrides.elts:
        _override(module, found, item)
    return as_val(found, read.span)


def _override(module: Module, found: Kwargs, item: ast.expr) -> None:
    text = item.value if isinstance(item, ast.Constant) and isinstance(item.value, str) else None
    key, equals, value = text.partition("=") if text is not None else ("", "", "")
    adds = key.startswith("+")
    path = key.lstrip("+").split(".")
    if not equals or key.startswith("~") or not all(path):
        found.reasons.append(f"{module.text(item)[:40]} (a Hydra override not read)")
        return
    import yaml  # Hydra reads an override's value as YAML

    try:
        known = yaml.safe_load(value) if value else None
    except yaml.YAMLError:
        known = UNKNOWN
    # no value span: a fix would have to write the override's text, not the value's literal
    setting = Setting(path[-1], known, module.span(item), module.text(item), None)
    if not _written(found, path, Entry(setting), adds):
        found.reasons.append(f"{module.text(item)[:40]} (a key the config does not have)")


def _written(found: Kwargs, path: list[str], entry: Entry, adds: bool) -> bool:
    """`found` with the dotted key replaced (or added, `adds`); False when its mapping is not there."""
    head, rest = path[0], path[1:]
    if not rest:
        if head not in found.entries and not adds:
            return False
        found.entries[head] = entry
        return True
    inner = found.entries.get(head)
    if inner is None or not isinstance(inner.ref, Kwargs):
        return False
    nested = inner.ref.copy()
    if not _written(nested, rest, entry, adds):
        return False
    found.entries[head] = replace(inner, setting=replace(inner.setting, value=UNKNOWN, choices=()), ref=nested)
    return True


def _strings(call: ast.Call) -> dict[str, str]:
    return {k.arg: k.value.value for k in call.keywords if k.arg and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)}


def _config_path(module: Module, scope: ast.AST, node: ast.Call) -> str | None:
    """The `config_path` of the `initialize(...)` the call is made under: a `with` around it, or
    a call of its own earlier in the same scope."""
    for statement in ast.walk(scope):
        if isinstance(statement, ast.With) and _inside(node, statement):
            for item in statement.items:
                if isinstance(item.context_expr, ast.Call) and _initializes(module, item.context_expr):
                    return _strings(item.context_expr).get("config_path", ".")
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and statement.lineno < node.lineno:
            if _initializes(module, statement.value):
                return _strings(statement.value).get("config_path", ".")
    return None


def _inside(node: ast.AST, statement: ast.With) -> bool:
    end = statement.end_lineno or statement.lineno
    return statement.lineno <= node.lineno <= end  # type: ignore[attr-defined]


def _initializes(module: Module, call: ast.Call) -> bool:
    head, _, rest = module.text(call.func).partition(".")
    base = module.imports.get(head, head)
    return (f"{base}.{rest}" if rest else base) in _INITIALIZE

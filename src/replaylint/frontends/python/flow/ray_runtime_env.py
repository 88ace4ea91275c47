"""The environment Ray starts an actor's process with: the `env_vars` of the `runtime_env` given to
`.options(...)`, to `ray.remote(...)` (the class's decorator, or the call that made the actor
class), or to the job's `ray.init(...)` in the module that makes the actor. A `runtime_env` spelt
out is read by the environment's writer (`environ`); one the code builds elsewhere
(`ray.init(runtime_env=get_runtime_env())`, a helper that copies a module-level dict) is read by
the reader where it is given."""

from __future__ import annotations

import ast
from typing import Iterator

from .callsites import Call, calls
from .engine_names import actor_class
from .environ import module_value
from .frames import ActorEnv, Frame
from .module import Module


def actor_env_vars(module: Module, cls: ast.ClassDef, home: Module, site: Call) -> Iterator[ActorEnv]:
    """What an actor of `cls` made at `site` (in `home`) starts with, in the order Ray applies
    it: the job's, the class's, then the options'."""
    node = site.node
    if _makes_actor(node):  # the job's `ray.init(runtime_env=...)` in the module that makes the actor
        for init in _calls_of(home, "init"):
            yield from _given(home, init.node, Frame(home, init.scope, init.cls, at=init.placed))
    for decorator in cls.decorator_list:
        if isinstance(decorator, ast.Call):
            yield from _given(module, decorator, Frame(module, module.tree))
    made = actor_class(node.func)
    if isinstance(made, ast.Name):
        made = module_value(home, made.id)
    at = Frame(home, site.scope, site.cls, at=site.placed)
    if isinstance(made, ast.Call) and isinstance(made.func, ast.Call) and home.text(made.func.func).endswith("remote"):
        yield from _given(home, made.func, at)
    options = node.func.value if isinstance(node.func, ast.Attribute) and node.func.attr == "remote" else None
    if isinstance(options, ast.Call) and isinstance(options.func, ast.Attribute) and options.func.attr == "options":
        yield from _given(home, options, at)


def _makes_actor(site: ast.Call) -> bool:
    return isinstance(site.func, ast.Attribute) and site.func.attr == "remote"


def _calls_of(module: Module, name: str) -> list[Call]:
    """The module's `ray.<name>(...)` calls (`ray.init(...)`), when it imports ray."""
    if "ray" not in module.imports or f"ray.{name}(" not in module.source.text:
        return []
    return [call for call in calls(module, (f"ray.{name}(",)) if module.text(call.node.func) == f"ray.{name}"]


def _given(module: Module, call: ast.Call, at: Frame) -> Iterator[ActorEnv]:
    """The `env_vars` a call's `runtime_env` gives: a literal, a module-level one by name
    (`runtime_env=RUNTIME_ENV`), `RuntimeEnv(env_vars=...)`; else the `runtime_env` read at `at`."""
    for keyword in call.keywords:
        if keyword.arg != "runtime_env":
            continue
        value = keyword.value
        if isinstance(value, ast.Name):
            value = module_value(module, value.id) or value
        if isinstance(value, ast.Dict):
            yield from (
                ActorEnv(module, v) for k, v in zip(value.keys, value.values) if isinstance(k, ast.Constant) and k.value == "env_vars"
            )
        elif isinstance(value, ast.Call) and any(k.arg == "env_vars" for k in value.keywords):
            yield from (ActorEnv(module, k.value) for k in value.keywords if k.arg == "env_vars")
        else:
            yield ActorEnv(module, keyword.value, at)

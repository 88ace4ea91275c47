"""The classes of a fork's module as Ray starts them: the class a `ray.remote(Name)` makes an
actor of, its bases in the module, and a method as that class runs it (an override in place of
the parent's, the parent's where it calls `super()`)."""

from __future__ import annotations

import ast

from .fork_source import dict_pairs, statements


def started_classes(module: ast.Module) -> list[str]:
    """The classes the module makes Ray actors of (`ray.remote(Name)`), in order."""
    found = []
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "remote":
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "ray" and len(node.args) == 1:
                if isinstance(node.args[0], ast.Name) and node.args[0].id not in found:
                    found.append(node.args[0].id)
    return found


def class_chain(module: ast.Module, name: str) -> list[ast.ClassDef]:
    """The module's class `name` and the bases it has in the module, the class itself first (one
    base each: a class of several bases ends the chain)."""
    classes = {node.name: node for node in module.body if isinstance(node, ast.ClassDef)}
    chain: list[ast.ClassDef] = []
    while name in classes and len(chain) < 8:
        chain.append(classes[name])
        bases = classes[name].bases
        name = bases[0].id if len(bases) == 1 and isinstance(bases[0], ast.Name) else ""
    return chain


def method_statements(chain: list[ast.ClassDef], name: str) -> list[tuple[ast.stmt, bool]]:
    """The statements a call of method `name` runs on the first class of `chain` (`statements`'
    pairs): the most derived definition's, with a `super().name(...)` statement replaced by the
    parent's (none: the parent's never run)."""
    for index, klass in enumerate(chain):
        method = next((s for s in klass.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name), None)
        if method is None:
            continue
        found = []
        for statement, top in statements(method.body):
            if top and _calls_super(statement, name):
                found += method_statements(chain[index + 1 :], name)
            else:
                found.append((statement, top))
        return found
    return []


def _calls_super(statement: ast.stmt, name: str) -> bool:
    call = statement.value if isinstance(statement, ast.Expr) else None
    if isinstance(call, ast.Await):
        call = call.value
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == name
        and isinstance(call.func.value, ast.Call)
        and getattr(call.func.value.func, "id", "") == "super"
    )


def method_dicts(module: ast.Module, owner: ast.ClassDef) -> dict[str, list[tuple[str, ast.expr]]]:
    """The dicts `self.method()` gives in a method of `owner`: a method without parameters whose
    one `return` is a dict literal (a hook: `def extra_engine_args(self): return {}`), resolved on
    the class the module starts as a Ray actor (`ray.remote(Subclass)`: its override wins), as
    `self.name()`. Two started classes that derive from `owner` leave it unread (empty)."""
    chains = [chain for name in started_classes(module) if owner in (chain := class_chain(module, name))]
    if len(chains) > 1:
        return {}
    chain = chains[0] if chains else class_chain(module, owner.name) or [owner]
    found: dict[str, list[tuple[str, ast.expr]]] = {}
    for klass in reversed(chain):  # the most derived last: its definition stands
        for method in klass.body:
            if isinstance(method, ast.FunctionDef) and len(method.args.args) == 1 and not method.args.vararg and not method.args.kwarg:
                returns = [node.value for node in ast.walk(method) if isinstance(node, ast.Return)]
                pairs = dict_pairs(returns[0]) if len(returns) == 1 and returns[0] is not None else None
                if pairs is not None:
                    found[f"self.{method.name}()"] = pairs
                else:
                    found.pop(f"self.{method.name}()", None)
    return found

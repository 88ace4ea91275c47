"""The classes of a fork's module as Ray starts them: the class a `ray.remote(Name)` makes an
actor of, its bases in the module, and a method as that class runs it (an override in place of
the parent's, the parent's where it calls `super()`)."""

from __future__ import annotations

import ast

from .fork_source import attribute_write, dict_pairs, statements

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def started_classes(module: ast.Module) -> list[str]:
    """The classes the module makes Ray actors of (`ray.remote(Name)`), in order."""
    return list(dict.fromkeys(name for name, _ in started_choices(module)))


def started_choices(module: ast.Module) -> list[tuple[str, str]]:
    """The classes the module makes Ray actors of, each with the test it is chosen under ("":
    always): `ray.remote(Name)`, and `ray.remote(A if TEST else B)` (a name the function binds
    once as TEST is read as its value: `replay = os.environ.get("X") == "1"`)."""
    found = []
    for function in _functions_and_module(module):
        bound = _bound_once(function)
        for node in _own_nodes(function):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "remote"):
                continue
            if not (isinstance(node.func.value, ast.Name) and node.func.value.id == "ray" and len(node.args) == 1):
                continue
            chosen = node.args[0]
            if isinstance(chosen, ast.Name):
                found.append((chosen.id, ""))
            elif isinstance(chosen, ast.IfExp) and isinstance(chosen.body, ast.Name) and isinstance(chosen.orelse, ast.Name):
                test = ast.unparse(bound.get(chosen.test.id, chosen.test) if isinstance(chosen.test, ast.Name) else chosen.test)
                found += [(chosen.body.id, test), (chosen.orelse.id, f"not ({test})")]
    return found


def _functions_and_module(module: ast.Module) -> list[ast.AST]:
    return [module, *(node for node in ast.walk(module) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))]


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a function (or the module) outside the functions it holds."""
    found, stack = [], list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(node)
            stack.extend(ast.iter_child_nodes(node))
    return found


def _bound_once(scope: ast.AST) -> dict[str, ast.expr]:
    """The names a function binds once, by a plain assignment (`name = value`), to their values."""
    nodes = _own_nodes(scope)
    stores: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
    plain = (node for node in nodes if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name))
    return {node.targets[0].id: node.value for node in plain if stores.get(node.targets[0].id) == 1}  # type: ignore[attr-defined]


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
    `self.name()`. Two started classes that derive from `owner` leave it unread (empty), but for
    those `method_choices` gives."""
    chains = [chain for name in started_classes(module) if owner in (chain := class_chain(module, name))]
    if len(chains) > 1:
        return {}
    return _hook_dicts(chains[0] if chains else class_chain(module, owner.name) or [owner])


def method_choices(module: ast.Module, owner: ast.ClassDef) -> dict[str, list[tuple[str, list[tuple[str, ast.expr]]]]]:
    """The hooks' dicts (as `method_dicts`) when the module starts one of two classes that derive
    from `owner` by a test (`ray.remote(A if TEST else B)`, and no other start of either): each
    hook's dict on each class with the test that class is started under."""
    choices = [(name, test) for name, test in started_choices(module) if owner in class_chain(module, name)]
    if len(choices) != 2 or not all(test for _, test in choices) or len({name for name, _ in choices}) != 2:
        return {}
    found: dict[str, list[tuple[str, list[tuple[str, ast.expr]]]]] = {}
    dicts = [(test, _hook_dicts(class_chain(module, name))) for name, test in choices]
    for hook in set(dicts[0][1]) & set(dicts[1][1]):
        found[hook] = [(test, hooks[hook]) for test, hooks in dicts]
    return found


def _hook_dicts(chain: list[ast.ClassDef]) -> dict[str, list[tuple[str, ast.expr]]]:
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


def parameter_writes(module: ast.Module, base: str, method: str) -> tuple[list[tuple[str, ast.expr, int]], list[ast.stmt]] | None:
    """What the override of `method` on the class the module starts as a Ray actor (one started
    class deriving from `base`) does to its first parameter before it calls `super().method(...)`:
    (attribute, value, line) of each `param.NAME = value` (or `setattr(param, "NAME", value)`) run
    on every call, and the statements that use the parameter otherwise (under an `if`, handed to
    another call). None: no started class overrides it (or more than one started class derives from `base`)."""
    chains = [chain for chain in map(lambda name: class_chain(module, name), started_classes(module)) if base in [k.name for k in chain]]
    if len(chains) != 1:
        return None
    override = next((m for k in chains[0] for m in k.body if isinstance(m, _FUNCTIONS) and m.name == method), None)
    owner = next((k for k in chains[0] if override in k.body), None)
    if override is None or owner is None or owner.name == base or len(override.args.args) < 2:
        return None
    parameter = override.args.args[1].arg
    writes: list[tuple[str, ast.expr, int]] = []
    others: list[ast.stmt] = []
    for statement, top in statements(override.body):
        if top and _calls_super(statement, method):
            break
        write = attribute_write(statement, parameter) if top else None
        if write is not None:
            writes.append((*write, statement.lineno))
        if any(isinstance(n, ast.Name) and n.id == parameter for n in ast.walk(write[1] if write is not None else statement)):
            others.append(statement)
    return writes, others

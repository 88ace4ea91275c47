"""The order Python looks a class's members up in (its C3 MRO, when every base is a class of the
module) and the `__init__` an object of it runs."""

from __future__ import annotations

import ast

from .module import FUNCTIONS, Module

_ROOTS = ("object", "ABC", "Generic", "Protocol")


def mro(module: Module, cls: ast.ClassDef) -> list[ast.ClassDef] | None:
    """Python's C3 order of the class and its bases, when every base is a class of the module
    (None: a base from elsewhere, whose members are not read)."""
    parents = []
    for base in cls.bases:
        name = base.id if isinstance(base, ast.Name) else None
        if name in _ROOTS:
            continue
        parent = module.classes.get(name) if name is not None else None
        order = mro(module, parent) if parent is not None and parent is not cls else None
        if order is None:
            return None
        parents.append(order)
    return _merged([cls], [*parents, [p[0] for p in parents]])


def _merged(head: list[ast.ClassDef], orders: list[list[ast.ClassDef]]) -> list[ast.ClassDef] | None:
    orders = [list(order) for order in orders if order]
    while orders:
        good = next((o[0] for o in orders if not any(o[0] in other[1:] for other in orders)), None)
        if good is None:
            return None  # no consistent order: Python refuses the class
        head.append(good)
        orders = [[c for c in order if c is not good] for order in orders]
        orders = [order for order in orders if order]
    return head


def init_of(module: Module, cls: ast.ClassDef) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The `__init__` an object of the class runs: its own, else the first of its MRO's (bases of the module)."""
    for owner in mro(module, cls) or [cls]:
        init = next((m for m in owner.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
        if init is not None:
            return init
    return None

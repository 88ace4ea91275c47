"""Functions that give a mapping's keys as attributes, read as the mapping itself: align-anything's
`dict_to_namedtuple(dic)` (`namedtuple("Config", dic.keys())(**{k: convert(v) for k, v in
dic.items()})`, `convert` turning a nested dict the same way), and the `SimpleNamespace(**d)` or
`argparse.Namespace(**d)` a recursive helper makes. `cfg.vllm_cfgs.SamplingParams.top_k` of
what such a function returns is then the mapping's entry, where the file that wrote it says.

The function is recognised by its shape, never run: one parameter, every `return` a construction
of such a class from `**` the parameter (or a comprehension over its items that keeps each value
or hands it to a converter whose every `return` is the value or the function again), and
nothing else than the class's binding and the converter's definition besides."""

from __future__ import annotations

import ast

from .frames import parameters
from .module import FUNCTIONS
from .refs import Function

_NAMESPACES = ("SimpleNamespace", "types.SimpleNamespace", "Namespace", "argparse.Namespace")
_FIELDS_OF = ("keys",)


def viewed_mapping(function: Function, node: ast.Call) -> ast.expr | None:
    """The mapping a call of such a function is given, when the function makes a view of it."""
    if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return None
    return node.args[0] if makes_view(function.node, function.module.functions) else None


def makes_view(function: ast.FunctionDef | ast.AsyncFunctionDef, siblings: dict[str, ast.AST]) -> bool:
    """Whether calling the function gives its one argument's keys as attributes (`siblings`: the
    module's functions by name, for a converter defined beside it)."""
    params = parameters(function)
    if len(params) != 1 or function.decorator_list:
        return False
    given = params[0].arg
    classes: set[str] = set()
    converters = dict(siblings)
    returns = []
    for statement in function.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # the docstring
        if isinstance(statement, FUNCTIONS):
            converters[statement.name] = statement
        elif isinstance(statement, ast.Assign) and _names_class(statement, given):
            classes.add(statement.targets[0].id)  # type: ignore[attr-defined]
        elif isinstance(statement, ast.Return) and statement.value is not None:
            returns.append(statement.value)
        else:
            return False
    return bool(returns) and all(_view_of(value, given, classes, converters, function.name) for value in returns)


def _names_class(statement: ast.Assign, given: str) -> bool:
    """`cfg = namedtuple("Config", dic.keys())`."""
    return len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name) and _tuple_of_keys(statement.value, given)


def _tuple_of_keys(node: ast.expr, given: str) -> bool:
    if not (isinstance(node, ast.Call) and _name(node.func) in ("namedtuple", "collections.namedtuple") and len(node.args) == 2):
        return False
    fields = node.args[1]
    if isinstance(fields, ast.Call) and _name(fields.func) in ("list", "tuple") and len(fields.args) == 1:
        fields = fields.args[0]
    if isinstance(fields, ast.Call) and isinstance(fields.func, ast.Attribute) and fields.func.attr in _FIELDS_OF and not fields.args:
        fields = fields.func.value
    return isinstance(fields, ast.Name) and fields.id == given


def _view_of(value: ast.expr, given: str, classes: set[str], converters: dict[str, ast.AST], name: str) -> bool:
    """`cfg(**{k: convert(v) for k, v in dic.items()})`, `SimpleNamespace(**dic)`, `namedtuple("C", dic.keys())(**dic)`."""
    if not (isinstance(value, ast.Call) and not value.args and len(value.keywords) == 1 and value.keywords[0].arg is None):
        return False
    made = value.func
    if not (_name(made) in _NAMESPACES or (isinstance(made, ast.Name) and made.id in classes) or _tuple_of_keys(made, given)):
        return False
    spread = value.keywords[0].value
    if isinstance(spread, ast.Name):
        return spread.id == given
    if not (isinstance(spread, ast.DictComp) and len(spread.generators) == 1 and not spread.generators[0].ifs):
        return False
    generator = spread.generators[0]
    target, source = generator.target, generator.iter
    pair = isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts)
    items = isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "items"
    if not (pair and items and isinstance(source.func.value, ast.Name) and source.func.value.id == given):  # type: ignore[union-attr]
        return False
    key, item = (e.id for e in target.elts)  # type: ignore[attr-defined]
    return isinstance(spread.key, ast.Name) and spread.key.id == key and _kept(spread.value, item, converters, name)


def _kept(value: ast.expr, item: str, converters: dict[str, ast.AST], name: str, depth: int = 0) -> bool:
    """The item as it is, the view made of it again (`name(v)`), or a converter doing one of those."""
    if isinstance(value, ast.Name):
        return value.id == item
    if isinstance(value, ast.IfExp):
        return _kept(value.body, item, converters, name, depth) and _kept(value.orelse, item, converters, name, depth)
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and len(value.args) == 1 and not value.keywords):
        return False
    if not (isinstance(value.args[0], ast.Name) and value.args[0].id == item):
        return False
    if value.func.id == name:
        return True
    converter = converters.get(value.func.id)
    return depth < 1 and isinstance(converter, FUNCTIONS) and _converts(converter, converters, name)


def _converts(function: ast.FunctionDef | ast.AsyncFunctionDef, converters: dict[str, ast.AST], name: str) -> bool:
    """`def convert(value): if isinstance(value, dict): return dict_to_namedtuple(value); return value`."""
    params = parameters(function)
    if len(params) != 1 or function.decorator_list:
        return False
    returns = [node for node in _own_nodes(function) if isinstance(node, ast.Return)]
    writes = [
        node for node in _own_nodes(function) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Global, ast.Nonlocal))
    ]
    return bool(returns) and not writes and all(r.value is not None and _kept(r.value, params[0].arg, converters, name, 1) for r in returns)


def _own_nodes(function: ast.AST):
    """The nodes of a function's body, not those of functions defined in it."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, (*FUNCTIONS, ast.Lambda, ast.ClassDef)):
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return ""

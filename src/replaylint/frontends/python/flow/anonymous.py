"""Lambdas and comprehensions as the functions Python makes of them: `make_engine = lambda: LLM(**ARGS)`,
`defaultdict(lambda: LLM(...))`, `[LLM(**a) for a in CONFIGS]`. Each is read as a function of
its own (`as_function`): its parameters (a lambda's, a comprehension's target) are bound to
what each call site of the lambda passes, or to each item of an iterable the reader knows;
otherwise they are unknown. Names it does not bind are read in the function that holds it
(a closure), as that function's call sites give them."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable, Iterator

from ....records import record
from ..asts import walk
from .callsites import Call, calls, scoped_statements
from .facts import Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module, Placed

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_MAX_ITEMS = 8  # items of a known iterable read one by one


@record(unsafe_hash=True)
class Made:
    """Where a lambda or comprehension is written: the scope, class and statement that hold it."""

    node: ast.expr
    scope: ast.AST
    cls: ast.ClassDef | None
    placed: Placed


def as_function(module: Module, node: ast.expr, statement: ast.stmt | None = None, made: Made | None = None) -> ast.FunctionDef:
    """The function Python makes of a lambda or a comprehension (one per node and module),
    named as `statement` binds it (`make_engine = lambda: ...`), else `<lambda>`."""
    known: dict[int, ast.FunctionDef] = module.__dict__.setdefault("_anonymous", {})
    places: dict[int, Made] = module.__dict__.setdefault("_anonymous_made", {})
    held = known.get(id(node))
    if held is not None:
        if made is not None:
            places.setdefault(id(held), made)
        return held
    if isinstance(node, ast.Lambda):
        args, body = node.args, node.body
    else:
        # the targets of the comprehensions inside it too: they are never the enclosing scope's names
        targets = list(
            dict.fromkeys(n.id for g in walk(node) if isinstance(g, ast.comprehension) for n in walk(g.target) if isinstance(n, ast.Name))
        )
        args = ast.arguments(posonlyargs=[], args=[ast.arg(t) for t in targets], kwonlyargs=[], kw_defaults=[], defaults=[])
        body = node.value if isinstance(node, ast.DictComp) else node.elt  # type: ignore[attr-defined]
    name = _name(statement, node) if statement is not None and isinstance(node, ast.Lambda) else "<lambda>"
    returned = ast.copy_location(ast.Return(body), node)
    function = ast.copy_location(ast.FunctionDef(name, args, [returned], [], None, None), node)
    known[id(node)] = function
    if made is not None:
        places[id(function)] = made
    return function


def made_of(module: Module, function: ast.AST) -> Made | None:
    """Where the lambda or comprehension a function was made of is written (None: a `def`)."""
    return module.__dict__.get("_anonymous_made", {}).get(id(function))


def scoped_calls(module: Module, words: tuple[str, ...]) -> list[Call]:
    """`calls`, with those inside a lambda or comprehension read in its function."""
    found = []
    for call in calls(module, words):
        holder = _holder(call.placed.statement, call.node)
        if holder is None:
            found.append(call)
            continue
        function = as_function(module, holder, call.placed.statement, Made(holder, call.scope, call.cls, call.placed))
        found.append(Call(call.node, module.statements(function)[0], function, call.cls))
    found += _lambda_calls(module, words)
    return found


def _lambda_calls(module: Module, words: tuple[str, ...]) -> Iterator[Call]:
    """The calls inside lambdas (`calls` does not look into them) on lines with `words`."""
    lines = module.lines_with(words)
    for placed, scope, cls in scoped_statements(module, module.lines_with(("lambda",))):
        if isinstance(placed.statement, FUNCTIONS):
            continue  # its body's statements come next
        inside = {id(n) for o in walk(placed.statement) if isinstance(o, (ast.Lambda, *_COMPREHENSIONS)) for n in walk(o) if n is not o}
        for node in walk(placed.statement):
            if not isinstance(node, ast.Lambda) or not module.touches(node, lines) or id(node) in inside:
                continue  # a lambda inside a lambda or comprehension: its free names may be theirs
            function = as_function(module, node, placed.statement, Made(node, scope, cls, placed))
            for inner in _own_nodes(node.body):
                if isinstance(inner, ast.Call) and module.touches(inner, lines):
                    yield Call(inner, module.statements(function)[0], function, cls)


def _own_nodes(root: ast.AST) -> Iterator[ast.AST]:
    """The nodes of an expression, not those of a lambda or comprehension inside it."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, (ast.Lambda, *_COMPREHENSIONS)))


def _holder(root: ast.AST, target: ast.AST) -> ast.expr | None:
    """The outermost comprehension of `root` (lambdas not entered) that holds `target`; the
    first iterable of a comprehension is read where the comprehension is."""
    stack: list[tuple[ast.AST, ast.expr | None]] = [(root, None)]
    while stack:
        node, holder = stack.pop()
        if node is target:
            return holder
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.stmt, ast.Lambda)):
                continue
            if isinstance(node, _COMPREHENSIONS) and child is node.generators[0]:
                stack.append((child.iter, holder))  # type: ignore[attr-defined]
                stack.extend((part, holder or node) for part in (child.target, *child.ifs))  # type: ignore[attr-defined]
            else:
                stack.append((child, holder or (node if isinstance(node, _COMPREHENSIONS) else None)))
    return None


def _name(statement: ast.stmt, node: ast.expr) -> str:
    """`make_engine` of `make_engine = lambda: ...`: the name its calls are made by."""
    if isinstance(statement, ast.Assign) and statement.value is node and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Name):
            return target.id
    return "<lambda>"


def frames(
    reader: Evaluates, module: Module, function: ast.FunctionDef, plain: Frame, outer_frames: Callable[[Call], list[Frame]]
) -> list[Frame]:
    """The frames a lambda's or comprehension's function is read in: each of its enclosing
    function's, with its parameters bound (each call of the lambda, each item iterated)."""
    made = made_of(module, function)
    assert made is not None
    enclosing = isinstance(made.scope, FUNCTIONS)
    outers = outer_frames(Call(made.node, made.placed, made.scope, made.cls)) if enclosing else [Frame(module, module.tree)]  # type: ignore[arg-type]
    found = []
    for outer in outers[:_MAX_ITEMS]:
        around = outer.reading(made.placed)
        sites = (*around.sites, (made.scope, made.placed)) if enclosing else ()
        here = replace(plain, outer=around, sites=sites, actor_env=around.actor_env, init=around.init, instance=around.instance)
        for args in _arguments(reader, module, made, function, around.reading(made.placed)):
            found.append(replace(here, args=args))
    return found


def _arguments(reader: Evaluates, module: Module, made: Made, function: ast.FunctionDef, around: Frame) -> list[dict[str, Val] | None]:
    node = made.node
    if isinstance(node, ast.Lambda):
        if not function.args.args and not function.args.kwonlyargs and function.args.vararg is None and function.args.kwarg is None:
            return [{}]
        from .binding import bind
        from .refs import Function

        sites = [s for s in calls(module, (function.name + "(",)) if isinstance(s.node.func, ast.Name) and s.node.func.id == function.name]
        bound = [bind(reader, Function(module, function), s.node, Frame(module, s.scope, s.cls, None, s.placed)) for s in sites]
        return bound[:_MAX_ITEMS] or [None]
    generators = node.generators  # type: ignore[attr-defined]
    nested = any(isinstance(inner, _COMPREHENSIONS) and inner is not node for inner in walk(node))
    if len(generators) != 1 or generators[0].is_async or nested:
        return [None]  # items of several iterables: not read one by one
    items = _items(reader, reader.evaluate(generators[0].iter, around))
    if items is None:
        return [None]
    found = []
    for item in items[:_MAX_ITEMS]:
        args = _targets(generators[0].target, item)
        if args is None:
            return [None]
        found.append(args)
    return found or [None]


def _items(reader: Evaluates, read: Val) -> list[Val] | None:
    """The items of a literal list or tuple the reader read (None: not known)."""
    if isinstance(read.ref, tuple) and isinstance(read.value, list):
        return list(read.ref)
    return None


def _targets(target: ast.expr, item: Val) -> dict[str, Val] | None:
    if isinstance(target, ast.Name):
        return {target.id: item}
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(item.ref, tuple) and len(item.ref) == len(target.elts):
        found: dict[str, Val] = {}
        for element, value in zip(target.elts, item.ref):
            inner = _targets(element, value)
            if inner is None:
                return None
            found.update(inner)
        return found
    return None

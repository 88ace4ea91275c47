"""A module-level dict of classes or functions filled when the module is imported: by a
registering decorator (`HANDLERS = {}`, `def register(name): def wrap(cls): HANDLERS[name] = cls;
return cls; return wrap`, then `@register("openai")`; also `@register` writing
`HANDLERS[cls.__name__]`) or by a base class's `__init_subclass__` (`REGISTRY[cls.name] = cls`
for each subclass). Each decorated definition (each subclass) is an entry under its key.

The entries are read only when they are all known: a writer of another shape, a decorator used
other than on a module-level definition or named by a module near (which may register more),
a key not known, leave the dict open as before (`written in ...`)."""

from __future__ import annotations

import ast

from ....model import UNKNOWN, Setting
from .binding import bind
from .facts import Entry, Kwargs
from .frames import Evaluates, Frame, parameters
from .function_writes import written_by_functions
from .members import class_member
from .module import FUNCTIONS, Module
from .objects import Class
from .refs import Function

Definition = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def registered(reader: Evaluates, found: Kwargs, name: str, frame: Frame) -> Kwargs:
    """`found` (the module-level dict `name` as its module's own statements leave it) with the
    entries its registering decorators or `__init_subclass__` add, those defined before the
    statement read when it is read at the module's level; open where they cannot all be read."""
    module = frame.module
    writers = module.functions_writing(name)
    if not writers:
        return found
    entries = _entries(reader, module, name, writers)
    if entries is None:
        found.reasons.extend(f"`{name}` written in `{function.name}`" for function in writers)
        return written_by_functions(reader, found, name, frame, writers)
    before = frame.at.statement.lineno if frame.scope is module.tree and frame.at is not None else None
    for line, key, entry in entries:
        if before is None or line < before:
            found.entries.pop(key, None)
            found.entries[key] = entry
    return found


def _entries(reader: Evaluates, module: Module, name: str, writers: list) -> list[tuple[int, str, Entry]] | None:
    """(line, key, entry) of each registration, in the order they run; None: one is not read."""
    found: list[tuple[int, str, Entry]] = []
    seen: set[int] = set()
    for writer in writers:
        if id(writer) in seen:
            continue
        made = _registrations(reader, module, name, writer)
        if made is None:
            return None
        handled, registrations = made
        seen |= {id(function) for function in handled}
        found += registrations
    return sorted(found, key=lambda item: item[0])


def _registrations(reader: Evaluates, module: Module, name: str, writer: ast.AST) -> tuple[list, list] | None:
    """(the writers this shape accounts for, its registrations) of the writer's shape, or None."""
    top = module.tree.body
    if writer in top:  # `register` itself (a plain decorator), or a factory whose nested `wrap` writes
        inner = _returned_inner(writer)  # type: ignore[arg-type]
        return _decorator(reader, module, name, inner or writer, writer if inner is not None else None)  # type: ignore[arg-type]
    outer = next((f for f in top if isinstance(f, FUNCTIONS) and writer in f.body), None)
    if outer is not None and _returned_inner(outer) is writer:
        return _decorator(reader, module, name, writer, outer)  # type: ignore[arg-type]
    base = next((c for c in top if isinstance(c, ast.ClassDef) and writer in c.body), None)
    if base is not None and getattr(writer, "name", "") == "__init_subclass__":
        return _subclasses(reader, module, name, base, writer)  # type: ignore[arg-type]
    return None


def _returned_inner(function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.FunctionDef | None:
    """The function nested in `function` that it returns (`return wrap`)."""
    nested = {s.name: s for s in function.body if isinstance(s, ast.FunctionDef)}
    last = function.body[-1] if function.body else None
    returned = last.value.id if isinstance(last, ast.Return) and isinstance(last.value, ast.Name) else None
    return nested.get(returned or "")


def _stored_key(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, held: str) -> ast.expr | None:
    """The key of the one `name[key] = held` of the function's body (its own statements, none
    under a branch), when that and `return held` are all it does with `name`."""
    writes = [
        s
        for s in function.body
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Subscript)
        and isinstance(s.targets[0].value, ast.Name)
        and s.targets[0].value.id == name
    ]
    every = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name]
    if len(writes) != 1 or len(every) != 1 or not (isinstance(writes[0].value, ast.Name) and writes[0].value.id == held):
        return None
    return writes[0].targets[0].slice  # type: ignore[attr-defined]


def _returns(function: ast.FunctionDef | ast.AsyncFunctionDef, held: str) -> bool:
    last = function.body[-1] if function.body else None
    return isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == held


def _decorator(
    reader: Evaluates, module: Module, name: str, storing: ast.FunctionDef | ast.AsyncFunctionDef, factory: ast.FunctionDef | None = None
) -> tuple[list, list] | None:
    """`@register` over `def register(cls): NAME[cls.__name__] = cls; return cls` (`storing`), or
    `@register("openai")` over the `factory` `def register(name): def wrap(cls): NAME[name] = cls;
    return cls; return wrap` (`wrap` storing)."""
    params = parameters(storing)
    held = params[0].arg if len(params) == 1 else ""
    key = _stored_key(storing, name, held) if held else None
    if key is None or not _returns(storing, held):
        return None
    decorated = _decorated(reader, module, (factory or storing).name, call=factory is not None)
    if not decorated:  # a function that stores its argument, never used as a decorator: whoever calls it may store more
        return None
    registrations = []
    for definition, decorator in decorated:
        given = bind(reader, Function(module, factory), decorator, Frame(module, module.tree)) if factory is not None else {}
        text = _key_of(reader, module, key, held, definition, given)  # type: ignore[arg-type]
        if text is None:
            return None
        registrations.append(_registration(module, text, definition, decorator))
    return [storing, *([factory] if factory is not None else [])], registrations


def _subclasses(
    reader: Evaluates, module: Module, name: str, base: ast.ClassDef, hook: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[list, list] | None:
    """Each subclass of `base` in the module, under the key its `__init_subclass__` stores it by
    (`REGISTRY[cls.__name__] = cls`, a class attribute `cls.name`, a class keyword `name=`)."""
    params = parameters(hook)
    held = params[0].arg if params else ""
    key = _stored_key(hook, name, held) if held else None
    subclasses = _subclasses_of(module, base)
    if key is None or subclasses is None or _named_near(reader, module, base.name):
        return None
    registrations = []
    for definition in subclasses:
        given = {k.arg: reader.evaluate(k.value, Frame(module, module.tree)) for k in definition.keywords if k.arg}
        text = _key_of(reader, module, key, held, definition, given)
        if text is None:
            return None
        registrations.append(_registration(module, text, definition, definition))
    return [hook], registrations


def _named_near(reader: Evaluates, module: Module, name: str) -> bool:
    """Whether a module near may import `name` from this one (and so register more)."""
    tree = getattr(reader, "tree", None)
    return tree is None or tree.named_by_importers(module.path, name)


def _subclasses_of(module: Module, base: ast.ClassDef) -> list[ast.ClassDef] | None:
    """The module-level classes deriving from `base` through classes of the module, in order;
    None where one is made elsewhere (in a function, under a branch)."""
    family, found = {base.name}, []
    for statement in module.tree.body:
        if isinstance(statement, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in family for b in statement.bases):
            family.add(statement.name)
            found.append(statement)
    every = [c for c in ast.walk(module.tree) if isinstance(c, ast.ClassDef) and any(getattr(b, "id", None) in family for b in c.bases)]
    return found if len(every) == len(found) else None


def _decorated(reader: Evaluates, module: Module, decorator: str, call: bool) -> list[tuple[Definition, ast.expr]] | None:
    """The module-level definitions `decorator` decorates (`@register("x")` with `call`, else
    `@register`), each with its decorator; None where the name is used otherwise (called,
    handed on, under a branch) or a module near names it (registering more)."""
    found: list[tuple[Definition, ast.expr]] = []
    uses = [n for n in ast.walk(module.tree) if isinstance(n, ast.Name) and n.id == decorator]
    for statement in module.tree.body:
        if not isinstance(statement, (ast.ClassDef, *FUNCTIONS)):
            continue
        for item in statement.decorator_list:
            named = item.func if call and isinstance(item, ast.Call) else item
            if isinstance(named, ast.Name) and named.id == decorator:
                found.append((statement, item))
    if len(found) != len(uses) or _named_near(reader, module, decorator):
        return None
    return found


def _key_of(reader: Evaluates, module: Module, key: ast.expr, held: str, definition: Definition, given: dict) -> str | None:
    """The text `key` holds for `definition` (`held` names it): a literal, a parameter the
    decorator's call or the class statement gives, `held.__name__`, a class attribute `held.name`."""
    if isinstance(key, ast.Constant):
        value = key.value
    elif isinstance(key, ast.Name) and key.id in given:
        value = given[key.id].value
    elif isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) and key.value.id == held:
        if key.attr == "__name__":
            value = definition.name
        elif isinstance(definition, ast.ClassDef):
            value = class_member(reader, module, definition, key.attr).value  # type: ignore[arg-type]
        else:
            value = UNKNOWN
    else:
        value = UNKNOWN
    return value if isinstance(value, str) else None


def _registration(module: Module, key: str, definition: Definition, decorator: ast.AST) -> tuple[int, str, Entry]:
    """The entry `key` of a registered definition, written where the decorator (the class) says so."""
    span = module.span(decorator)
    ref = Class(module, definition) if isinstance(definition, ast.ClassDef) else Function(module, definition)
    setting = Setting(key, UNKNOWN, span, module.text(decorator), span)
    return definition.lineno, key, Entry(setting, ref=ref)


def registered_into(module: Module, definition: ast.AST | None) -> set[str]:
    """The module-level names the decorators of a module-level definition write into (`HANDLERS` of
    `@register("openai")`): the registries that may hold it."""
    if not isinstance(definition, (ast.ClassDef, *FUNCTIONS)):
        return set()
    named = {(d.func if isinstance(d, ast.Call) else d) for d in definition.decorator_list}
    names = {d.id for d in named if isinstance(d, ast.Name)}
    decorators = [s for s in module.tree.body if isinstance(s, FUNCTIONS) and s.name in names]
    return {
        target.value.id
        for decorator in decorators
        for node in ast.walk(decorator)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
    }

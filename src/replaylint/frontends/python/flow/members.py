"""What an object's attribute holds: `self.x` set in one method of its class, a class attribute
(`MODE = "raw_logprobs"`), a method or `@property`, and the attributes written on an object after it
is made (`sp.top_k = 0`, `cfg.logprobs_mode = ...`)."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from typing import Any, Protocol

from ....records import record
from ..asts import walk
from ..names import matches_from
from .attribute_writes import attributes_written
from .binding import bind, plain
from .class_order import mro
from .dicts import as_val, writes_into, written
from .facts import NOTHING, Val
from .frames import Evaluates, Frame, binds, reaching
from .grown_actors import grown_by_method
from .guarded_sets import home_of as _home, taken, tried_first
from .inherited import inherited_attribute
from .module import FUNCTIONS, POST_INITS, Module, Placed
from .objects import Class, Instance, as_kwargs, field, is_record
from .refs import Bound, Engine, Function
from .setup_calls import setup_frame
from .stepped_attributes import refreshed, stepped_in_init
from .subclass_inits import passed_up


class Reader(Evaluates, Protocol):
    """What this module asks of the reader (`reader.Reader`, which imports this module)."""

    tree: Any  # `tree.Tree`: where a method's frame is made

    def returned(self, function: Function, node: ast.Call | None, frame: Frame, hops: tuple = ()) -> Val: ...


def object_attribute(reader: Reader, receiver: ast.expr, attr: str, frame: Frame) -> Val:
    """`r.llm` where `r = Rollout(...)` (a class of the tree, not a record): `self.llm` as the
    class sets it, read with the arguments of that construction."""
    binding = reaching(frame, receiver.id) if isinstance(receiver, ast.Name) else None
    made = binding.value if binding is not None and binding.kind == "value" and binding.element is None else None
    cls = reader.evaluate(made.func, frame).ref if isinstance(made, ast.Call) else None
    if not isinstance(cls, Class) or is_record(cls):
        return NOTHING
    init = next((m for m in cls.node.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
    args = bind(reader, Function(cls.module, init, cls.node), made, frame) if init is not None else {}  # type: ignore[arg-type]
    return self_attribute(reader, attr, Frame(cls.module, cls.module.tree, cls.node, init=args))


def self_attribute(reader: Reader, attr: str, frame: Frame, set_later: bool = False) -> Val:
    """`self.x`, set once in one method of the class (mostly `__init__`). `set_later`: what an
    object whose method is called on it holds, no write of None counted (`self.llm = None` in
    `__init__`, the engine set by `start()`)."""
    cls = frame.cls
    assert cls is not None
    validated = _validator_write(reader, frame.module, cls, attr)
    if validated is not None:
        return validated  # what the validator leaves in `values` is the field
    target = f"self.{attr}"
    sets = []
    for method in _methods(frame.module, cls):
        for placed in frame.module.statements(method):
            statement = placed.statement
            if isinstance(statement, ast.Assign) or (isinstance(statement, ast.AnnAssign) and statement.value is not None):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]  # `self.x: T` alone sets nothing
                for element in _attribute_targets(frame.module, targets, target):
                    sets.append((method, placed, statement.value, element))
    if set_later:
        sets = [found for found in sets if not (isinstance(found[2], ast.Constant) and found[2].value is None)]
    setters = (*POST_INITS, "__init__") if not is_record(Class(frame.module, cls)) else POST_INITS  # a plain object's (`init_objects`)
    if frame.instance is not None and attr in frame.instance.entries and all(s[0].name in setters for s in sets):
        return field(reader, Val(kwargs=frame.instance), attr, frame)  # the record's (a method's `self._model = ...` wins)
    sets = tried_first(sets) if len(sets) > 1 else sets
    sets = refreshed(frame, sets, setters) if len(sets) > 1 else sets
    stepped = stepped_in_init(reader, frame, sets) if len(sets) > 1 else None
    if stepped is not None:
        return stepped  # `__init__` sets it, then calls a method that sets it again
    if len(sets) != 1 or (sets[0][1].guards and not taken(reader, sets[0][1], _home(reader, frame, sets[0][0]))):
        if not sets and frame.instance is not None and frame.instance.reasons:
            return NOTHING  # a field the construction's unread arguments (`**cfg`) may set
        if not sets:
            inherited = inherited_attribute(reader, attr, frame)  # set by a base's `__init__` in another module
            if inherited is not NOTHING:
                return inherited
            return _class_attribute_here(reader, class_member(reader, frame.module, cls, attr, frame), target, frame)
        return NOTHING
    method, placed, value, element = sets[0]
    same = method is frame.scope
    home = _home(reader, frame, method)
    if home.args is not None and method.name == "__init__":  # a base's: what `super().__init__(...)` passes it
        home = replace(home, args=passed_up(reader, frame.module, mro(frame.module, cls) or [cls], method, home.args))
    elif not same and method.name not in setters:
        home = setup_frame(reader, frame, method, home)  # `recipe.setup(cfg)`, which stores `self.cfg = cfg`
    read = reader.evaluate(value, home.reading(placed))
    if read.value == [] and method.name == "__init__" and (grown := grown_by_method(reader, attr, read, home)) is not NOTHING:
        return grown  # `self.workers.append(actor)` in a method `__init__` calls in a loop
    if element is not None:  # `kw, self.sampling_kwargs = build(...)`: its item of the tuple
        items = read.ref if isinstance(read.ref, tuple) else ()
        read = items[element] if element < len(items) else NOTHING
    if isinstance(read.ref, Engine) and not any(_sets_attributes(frame.module, other, target) for other in cls.body if other is not method):
        # `self.val_params = copy.deepcopy(self.params)`, then `self.val_params.temperature = 0.0`
        return with_attributes(reader, read, target, home, placed, frame.at if same else None)
    if read.kwargs is None:
        return read
    mutated = written(reader, read.kwargs, target, home, placed, frame.at if same else None)
    if not same:
        mutated = written(reader, mutated, target, frame, None, frame.at)
    for other in cls.body:
        if isinstance(other, FUNCTIONS) and other is not method and other is not frame.scope:
            if writes_into(frame.module, other, target):
                mutated.reasons.append(f"`{target}` written in `{other.name}`")  # called before or after: not known here
    hops = read.hops if same else (*read.hops, frame.module.span(placed.statement))
    return replace(as_val(mutated, read.span), hops=hops)


def constant_subclasses(module: Module, cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.ClassDef]:
    """The module's subclasses of `cls` that run `method` as theirs (no `__init__` or method of that
    name of their own) with a class constant of their own that it reads through `self`
    (`LOGPROBS_MODE = "raw_logprobs"` of an eval worker): their objects build another engine."""
    read = {node.attr for node in walk(method) if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "self"}
    found = []
    for sub in module.tree.body:
        if not isinstance(sub, ast.ClassDef) or not any(getattr(base, "id", None) == cls.name for base in sub.bases):
            continue
        own = {s.name for s in sub.body if isinstance(s, FUNCTIONS)}
        if own & {"__init__", method.name}:
            continue
        if any(binds(s, attr) is not None for s in sub.body if isinstance(s, (ast.Assign, ast.AnnAssign)) for attr in read):
            found.append(sub)
    return found


def _sets_attributes(module: Module, method: ast.stmt, target: str) -> bool:
    """Whether another method writes an attribute of the object `self.x` holds (`self.x.top_k = 0`)."""
    return isinstance(method, FUNCTIONS) and f"{target}." in module.text(method)


def _methods(module: Module, cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The methods an object of the class runs as its own: the class's, and its bases' (of the
    module) when it has no `__init__` of its own or that one calls `super().__init__`."""
    own = [statement for statement in cls.body if isinstance(statement, FUNCTIONS)]
    init = next((m for m in own if m.name == "__init__"), None)
    if init is not None and not _writes_super_init(init):
        return own
    names = {m.name for m in own}
    inherited = [m for base in (mro(module, cls) or [cls])[1:] for m in base.body if isinstance(m, FUNCTIONS)]
    return [*own, *(m for m in inherited if m.name not in names or m.name == "__init__")]


def _writes_super_init(init: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether `ast.unparse(init)` holds `super().__init__(`, told from its nodes (an unparse of a long
    `__init__` cost a fifth of a module's flow): a call `super().__init__(...)` (`mysuper()`, `x.super()`
    too), or a string that holds it."""
    for node in walk(init):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            if (b"super().__init__(" if isinstance(node.value, bytes) else "super().__init__(") in node.value:
                return True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__":
            made = node.func.value
            if isinstance(made, ast.Call) and not made.args and not made.keywords and _ends_super(made.func):
                return True
    return False


def _ends_super(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id.endswith("super")) or (isinstance(func, ast.Attribute) and func.attr.endswith("super"))


_VALIDATORS = ("model_validator", "root_validator")


def before_validator(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """pydantic's `@model_validator(mode="before")` / `@root_validator(pre=True)`: it gets the constructor's keywords."""
    for decorator in method.decorator_list:
        if isinstance(decorator, ast.Call) and getattr(decorator.func, "id", getattr(decorator.func, "attr", "")) in _VALIDATORS:
            if any(k.arg in ("mode", "pre") and getattr(k.value, "value", None) in ("before", True) for k in decorator.keywords):
                return True
    return False


def _validator_write(reader: Reader, module: Module, cls: ast.ClassDef, attr: str) -> Val | None:
    """A field a before-validator writes into its `values` (`values["client"] = LLM(...)`), when one does, once."""
    found = []
    for method in (m for m in cls.body if isinstance(m, FUNCTIONS) and before_validator(m)):
        values = method.args.args[1].arg if len(method.args.args) > 1 else None
        for placed in module.statements(method):
            statement = placed.statement
            target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
            if isinstance(target, ast.Subscript) and getattr(target.value, "id", None) == values:
                if isinstance(target.slice, ast.Constant) and target.slice.value == attr:
                    found.append((method, placed, statement.value))  # type: ignore[union-attr]
    if len(found) != 1 or found[0][1].guards:
        return None
    method, placed, value = found[0]
    return reader.evaluate(value, Frame(module, method, cls, None, placed))


def instance_property(reader: Reader, made: Instance, attr: ast.Attribute, frame: Frame) -> Val:
    """`args.engine_kwargs`: a `@property` of a record's class, read with the record's fields as
    `self`'s, passing through the attribute read; `cfg.to_engine_kwargs`: a plain method bound to
    them (NOTHING when the class has no such member; a parser's namespace has no class body);
    `cfg.__dict__`: the fields, as `vars(cfg)`."""
    if attr.attr == "__dict__":
        return as_kwargs(Val(ref=made), frame.module.span(attr))
    body = getattr(made.cls.node, "body", ())
    method = next((s for s in body if isinstance(s, FUNCTIONS) and s.name == attr.attr), None)
    if method is None and made.parser is not None:
        from .parsers import not_given

        return not_given(reader, made.parser, attr.attr)
    if method is None:
        return NOTHING
    function = Function(made.cls.module, method, made.cls.node)
    if not any(_is_property(d) for d in method.decorator_list):  # a plain method, called with the record as `self`
        return Val(ref=Bound(function, made.fields)) if not method.decorator_list else NOTHING
    reading = replace(frame, cls=made.cls.node, instance=made.fields, init=None)
    return reader.returned(function, None, reading, (frame.module.span(attr),))


def _attribute_targets(module: Module, targets: list[ast.expr], target: str) -> list[int | None]:
    """Where an assignment's targets write `self.x`: the whole value (None) or an item of a tuple target."""
    found: list[int | None] = []
    for written_to in targets:
        if isinstance(written_to, ast.Attribute) and module.text(written_to) == target:
            found.append(None)
        elif isinstance(written_to, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in written_to.elts):
            found += [number for number, e in enumerate(written_to.elts) if isinstance(e, ast.Attribute) and module.text(e) == target]
    return found


def _class_attribute_here(reader: Reader, read: Val, target: str, frame: Frame) -> Val:
    """A class attribute read through `self`, with what the methods write into it (`self.KW["k"] = v`)."""
    if read.kwargs is None:
        return read
    cls = frame.cls
    assert cls is not None
    mutated = written(reader, read.kwargs, target, frame, None, frame.at)
    for other in cls.body:
        if isinstance(other, FUNCTIONS) and other is not frame.scope and writes_into(frame.module, other, target):
            mutated.reasons.append(f"`{target}` written in `{other.name}`")
    return replace(as_val(mutated, read.span), hops=read.hops)


def class_member(reader: Reader, module: Module, cls: ast.ClassDef, attr: str, frame: Frame | None = None, exact: bool = False) -> Val:
    """A member the class body defines: a class attribute (`MODE = "raw_logprobs"`, read as
    `self.MODE` or `Engine.MODE`; unknown when the module writes it elsewhere, `Engine.MODE = ...`),
    a method, or a `@property` read through `self` (what it returns)."""
    if _written_elsewhere(module, cls, attr, subclasses=not exact):  # `Base.ENGINE` is Base's, whatever a subclass defines
        return NOTHING
    owner = _defining(module, cls, attr)
    if owner is not cls:  # a base of the module defines it (`class Engine(ReplayMixin, Base)`)
        method = next((s for s in owner.body if isinstance(s, FUNCTIONS) and s.name == attr), None) if owner is not None else None
        if method is not None:
            return Val(ref=Function(module, method, cls))
        if (
            owner is None
            or _written_elsewhere(module, owner, attr, subclasses=False)
            or any(isinstance(s, FUNCTIONS) and s.name == attr for s in cls.body)
        ):
            return NOTHING
    for statement in (owner or cls).body:  # a constant of the class, or the one it inherits (`REPLAY = True` of its base)
        bound = binds(statement, attr) if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if bound is not None and bound.kind == "value":
            read = reader.evaluate(bound.value, Frame(module, module.tree))
            if read.span is not None and read.span.path != module.path:  # another file's value (a config key) taken here
                read = read.via(module.span(statement))
            if is_enum(cls):  # a `str` Enum's member is equal to its text (vLLM compares with it); another's is not
                return (
                    replace(read, ref=Member(read), span=None)
                    if _is_str_enum(cls) and isinstance(read.value, str)
                    else Val(ref=Member(read))
                )
            return replace(read, origin=read.span) if plain(read) else read  # decided in the class body (`TOP_K = -1`)
        if isinstance(statement, FUNCTIONS) and statement.name == attr:
            function = Function(module, statement, cls)
            if frame is not None and any(_is_property(d) for d in statement.decorator_list):
                return reader.returned(function, None, replace(frame, args=None))
            return Val(ref=function)
    return NOTHING


def super_member(module: Module, cls: ast.ClassDef, method: ast.AST, attr: str) -> Val:
    """`super().attr` in `method` of an object of `cls`: the next class of `cls`'s MRO after the
    one defining `method` that has `attr` (mixins: `ReplayMixin` before `Base` in `class Engine(ReplayMixin, Base)`)."""
    order = mro(module, cls)
    here = next((number for number, c in enumerate(order or ()) if method in c.body), None)
    if order is None or here is None:
        return NOTHING
    for candidate in order[here + 1 :]:
        found = next((s for s in candidate.body if isinstance(s, FUNCTIONS) and s.name == attr), None)
        if found is not None:
            return Val(ref=Function(module, found, cls))
        if any(binds(s, attr) is not None for s in candidate.body):
            return NOTHING
    return NOTHING


def _defining(module: Module, cls: ast.ClassDef, attr: str) -> ast.ClassDef | None:
    """The class of `cls`'s MRO whose body defines `attr` (`cls` itself when its MRO is not known)."""
    order = mro(module, cls) or [cls]
    return next((c for c in order if any(binds(s, attr) is not None for s in c.body)), None)


def app_state(reader: Reader, module: Module, attr: str) -> Val | None:
    """`request.app.state.engine`: what the module's one `app.state.engine = ...` (a Starlette or
    FastAPI app's state, set in its lifespan or a startup hook) holds; None when it sets it
    nowhere or more than once."""
    found = []
    for scope in (module.tree, *(n for n in walk(module.tree) if isinstance(n, FUNCTIONS))):
        for placed in module.statements(scope):
            statement = placed.statement
            target = statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
            if isinstance(target, ast.Attribute) and target.attr == attr and isinstance(target.value, ast.Attribute):
                if target.value.attr == "state":
                    found.append((scope, placed, statement.value))  # type: ignore[union-attr]
    if len(found) != 1 or found[0][1].guards:
        return None
    scope, placed, value = found[0]
    return reader.evaluate(value, Frame(module, scope, None, None, placed))


def _written_elsewhere(module: Module, cls: ast.ClassDef, attr: str, subclasses: bool = True) -> bool:
    """`Engine.MODE = ...`, `cls.KW["k"] = v`, `setattr(Engine, ...)`, or a subclass of the module
    that defines its own `MODE`: the class body's value is not the one every reader sees."""
    owners = (f"{cls.name}.", "cls.", "__class__.")
    written = re.compile(
        rf"\b(?:{cls.name}|cls|__class__)\.{attr}\b\s*(?:[-+*/|]?=(?!=)|\[[^\]]*\]\s*=(?!=)|\.(?:update|setdefault|pop|clear)\()"
    )
    if next(matches_from(written, module.source.text, owners), None) is not None:  # (`search` tries `\b` at every character: 6 ms on 60 KB)
        return True
    if re.search(rf"setattr\(\s*(?:{cls.name}|cls)\b", module.source.text):
        return True
    return subclasses and any(
        isinstance(node, ast.ClassDef)
        and any(getattr(base, "id", getattr(base, "attr", None)) == cls.name for base in node.bases)
        and any(binds(statement, attr) is not None or getattr(statement, "name", None) == attr for statement in node.body)
        for node in module.tree.body
    )


@record(unsafe_hash=True)
class Member:
    """A member of an `Enum` class: its `.value` is what the class body assigns."""

    value: Val


def member_attribute(member: Member, attr: str) -> Val:
    return member.value if attr == "value" else NOTHING


def is_enum(cls: ast.ClassDef) -> bool:
    return any((base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")).endswith("Enum") for base in cls.bases)


def _is_str_enum(cls: ast.ClassDef) -> bool:
    """`class Mode(str, Enum)` or `class Mode(StrEnum)`: a member is a `str` equal to its value."""
    names = [base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "") for base in cls.bases]
    return "str" in names or "StrEnum" in names


def with_attributes(reader: Reader, read: Val, name: str, frame: Frame, placed: Placed, until: Placed | None) -> Val:
    """An engine or params construction with the attributes written on it after (`sp.top_k = 0`)."""
    written_after = attributes_written(reader, name, frame, placed, until)
    if not written_after.entries and not written_after.reasons:
        return read
    made = read.ref
    if isinstance(made, Instance):  # `cfg.logprobs_mode = ...` after `cfg = EngineConfig()`
        fields = made.fields.copy()
        fields.merge(written_after)
        return replace(read, ref=replace(made, fields=fields))
    if made.attributes is not None:
        merged = made.attributes.copy()
        merged.merge(written_after)
        written_after = merged
    return replace(read, ref=replace(made, attributes=written_after))


def _is_property(decorator: ast.expr) -> bool:
    return (
        isinstance(decorator, ast.Name)
        and decorator.id in ("property", "cached_property")
        or (isinstance(decorator, ast.Attribute) and decorator.attr == "cached_property")
    )

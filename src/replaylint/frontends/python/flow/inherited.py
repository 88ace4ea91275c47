"""`self.x` an object gets from its base class's `__init__` in another module of the tree
(evalplus's `VllmDecoder(DecoderBase)`: `super().__init__(name, **kwargs)`, then
`self.temperature = temperature` in `provider/base.py`): the base's `__init__` read with what
the subclass's `super().__init__(...)` passes, itself read with the object's construction."""

from __future__ import annotations

import ast

from .binding import bind
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module, Placed
from .objects import Class
from .refs import Engine, Function, Qualified, engine_name
from .subclass_inits import super_init

_MAX_LEVELS = 3  # base classes followed up from the object's class
_ROOTS = ("object", "ABC", "Generic", "Protocol")


def inherited_attribute(reader: Evaluates, attr: str, frame: Frame) -> Val:
    """`self.attr` set once, unconditionally, in the `__init__` of a base class of another module
    that the object's `__init__` runs through `super().__init__(...)`, or that runs as its own
    (no `__init__` in the class), and no other method of that base sets it; a plain value, one
    of vLLM's engines, or a mapping the classes' methods only read or copy (lagent's
    `self.gen_params = dict(top_k=top_k, ...)`; another object may be changed elsewhere)."""
    module, cls, init_args = frame.module, frame.cls, frame.init
    target = f"self.{attr}"
    classes = []
    for _ in range(_MAX_LEVELS):
        classes.append(cls)
        if cls is None:
            return NOTHING
        init = _init(cls)
        base = _single_base(reader, module, cls)
        found = super_init(module, init) if init is not None else None
        if base is None or (found is None and init is not None) or base.module is module:  # a base of the module: its MRO is read there
            return NOTHING
        base_init = _init(base.node)
        if base_init is None:
            return NOTHING
        if found is None:  # no `__init__` of its own (`class VLLM(VLLMSimple)`): the base's runs, its arguments not bound here
            super_call, args = None, None
        else:
            placed, super_call = found
            sub_frame = Frame(module, init, cls, init_args, placed, frame.depth + 1, frame.stack, init_args)  # type: ignore[arg-type]
            args = bind(reader, Function(base.module, base_init, base.node), super_call, sub_frame) if init_args is not None else None
        sets = _sets(base.module, base.node, target)
        if sets is None or _by_name(module.text(cls)):
            return NOTHING
        method = next((m for m in base.node.body if isinstance(m, FUNCTIONS) and m.name == attr), None) if not sets else None
        if method is not None:  # lagent's `self.update_gen_params(**kwargs)` of `BaseLLM`
            return inherited_method(base, method, classes, args)
        if len(sets) != 1 or sets[0][0] is not base_init or sets[0][1].guards or isinstance(sets[0][1].statement, ast.AugAssign):
            if sets:
                return NOTHING
            module, cls, init_args = base.module, base.node, args  # `self.attr` is set further up
            continue
        _, at, value = sets[0]
        home = Frame(base.module, base_init, base.node, args, at, frame.depth + 1, frame.stack, args)
        read = reader.evaluate(value, home)
        if read.kwargs is not None and not all(_mapping_kept(c, attr) for c in (*classes, base.node)):
            return NOTHING
        if read.ref is not None and not _engine(reader, read.ref):
            return NOTHING
        return read.via(module.span(super_call)) if super_call is not None else read
    return NOTHING


def inherited_method(base: Class, method: ast.FunctionDef | ast.AsyncFunctionDef, below: list, args: dict | None) -> Val:
    """A method of the base read with the arguments its `__init__` got, where no class below it
    defines the name or sets or changes an attribute the method reads."""
    reads = {node.attr for node in ast.walk(method) if isinstance(node, ast.Attribute) and _on_self(node)}
    for cls in below:
        stored = {t.attr for t in ast.walk(cls) if isinstance(t, ast.Attribute) and isinstance(t.ctx, ast.Store) and _on_self(t)}
        defined = {s.name for s in cls.body if isinstance(s, (*FUNCTIONS, ast.ClassDef))}
        named = {t.id for s in cls.body if isinstance(s, (ast.Assign, ast.AnnAssign)) for t in ast.walk(s) if isinstance(t, ast.Name)}
        if method.name in defined | named or reads & stored or not all(_mapping_kept(cls, attr) for attr in reads):
            return NOTHING
    return Val(ref=Function(base.module, method, base.node, init=args))


_COPIES = ("copy", "deepcopy", "dict", "copy.copy", "copy.deepcopy")
_READS = ("get", "copy", "items", "keys", "values")


def _mapping_kept(cls: ast.ClassDef, attr: str) -> bool:
    """Whether every use of `self.attr` in the class's methods only reads the mapping (an item, a
    `get`, a `**` spread) or copies it (`copy(self.gen_params)`): no method changes it in place."""
    parents = {child: node for node in ast.walk(cls) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(cls):
        if not (isinstance(node, ast.Attribute) and node.attr == attr and _on_self(node) and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load):
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in _READS and isinstance(parents.get(parent), ast.Call):
            continue
        if isinstance(parent, ast.keyword) and parent.arg is None or isinstance(parent, ast.Dict) and node in parent.values:
            continue  # `f(**self.gen_params)`, `{**self.gen_params}`
        if isinstance(parent, ast.Call) and node in parent.args and ast.unparse(parent.func) in _COPIES:
            continue
        return False
    return True


def _engine(reader: Evaluates, made: object) -> bool:
    """Whether `made` is the construction of one of vLLM's engines (`self.client = LLM(...)`): the
    requests sent to it reach that construction, whatever arguments it is read with."""
    if not isinstance(made, Engine):
        return False
    called = reader.evaluate(made.call.func, made.frame).ref
    return isinstance(called, Qualified) and engine_name(called.name)


def _init(cls: ast.ClassDef) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next((m for m in cls.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)


def _single_base(reader: Evaluates, module: Module, cls: ast.ClassDef) -> Class | None:
    """The class's one base of the tree (roots such as `ABC` aside), resolved where the class is."""
    bases = [base for base in cls.bases if not (isinstance(base, ast.Name) and base.id in _ROOTS)]
    if len(bases) != 1 or cls.keywords:
        return None
    found = reader.evaluate(bases[0], Frame(module, module.tree)).ref
    return found if isinstance(found, Class) else None


def _sets(module: Module, cls: ast.ClassDef, target: str) -> list[tuple[ast.AST, Placed, ast.expr]] | None:
    """Every assignment of `target` (`self.temperature`) in the class's methods (None: the class
    may set attributes by name, `setattr(self, k, v)`)."""
    if _by_name(module.text(cls)):
        return None
    found = []
    for method in (m for m in cls.body if isinstance(m, FUNCTIONS)):
        for placed in module.statements(method):
            statement = placed.statement
            if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and statement.value is not None:
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                if any(target in (module.text(t), *map(module.text, getattr(t, "elts", ()))) for t in targets):
                    found.append((method, placed, statement.value))
    return found


def _by_name(text: str) -> bool:
    return "setattr(" in text or "__dict__" in text


def reads_inherited(module: Module, cls: ast.ClassDef, init: ast.AST | None, method: ast.AST) -> bool:
    """Whether a method reads an attribute its class never sets, while `__init__` hands its
    parameters to `super().__init__(...)` (`self.temperature` of evalplus's decoders): what the
    object's construction passes may decide the request."""
    found = super_init(module, init) if isinstance(init, FUNCTIONS) and method is not init else None
    if found is None:
        return False
    names = {param.arg for param in (*init.args.args[1:], *init.args.kwonlyargs, init.args.kwarg) if param is not None}  # type: ignore[union-attr]
    handed = {node.id for node in ast.walk(found[1]) if isinstance(node, ast.Name)}
    if not names & handed:
        return False
    own = {t.attr for t in ast.walk(cls) if isinstance(t, ast.Attribute) and isinstance(t.ctx, ast.Store) and _on_self(t)}
    return any(isinstance(node, ast.Attribute) and _on_self(node) and node.attr not in own for node in ast.walk(method))


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"

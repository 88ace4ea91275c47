"""Where an HTTP client reader looks past the call it reads: a factory of the tree that returns
the client (`client = make_client(cfg)`, `def make_client(cfg): return OpenAI(base_url=cfg.base_url)`),
read with the call's arguments bound to its parameters; and the parameters of the function the
request is sent from, when no caller in the tree calls it. Also the `openai` module as a client
(`openai.base_url = ...`), and the `base_url` a construction's `**kwargs` gives (`spread_keyword`).

Those parameters are judged as the value flow judges a function's `**kwargs` (`Reader.parameter`)
and a script's `"$@"`: a function of the module that nothing in the tree calls or hands on runs,
as written, with its own defaults (`def rollout(prompt, cfg=SamplerConfig())`: `cfg` is a
`SamplerConfig()`), and what rests on one says so ("when the caller of `rollout` passes no
`cfg`"). They decide the client's address (the OpenAI client's `base_url`, a posted URL) and
the fields of a posted JSON body the function's own reading leaves unknown, when every field
they decide carries that condition (`bodies.sent_fields`: `asdict(sampling)` of a parameter's
default `SamplingConfig()` does); an OpenAI call's fields are read as before.
A parameter without a default stays unknown; a method, a decorated function (a framework calls
it), one called or handed on in its module or named by another module that imports it, or
`forwarded-arguments = "open"` keep them all unknown."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Callable

from .binding import bind, parameter_defaults
from .frames import Frame
from .module import FUNCTIONS, Module, Placed
from .reader import Reader
from .refs import Function

_MAX_FACTORIES = 3  # nested factories followed (`make_client` calling `_base_client`)
_MAX_SITES = 6  # constructions of a client's class followed

Made = list[tuple[ast.Call, Frame]]


def factory_made(reader: Reader, node: ast.Call | ast.Subscript, frame: Frame, made_by: Callable[[ast.expr, Frame], Made]) -> Made:
    """The constructions a call of a function of the tree returns, each with the frame of its
    `return` (the call's arguments bound); empty unless every `return` gives one (`made_by`).
    Also an item of the tuples it returns (`_returned_item`)."""
    if isinstance(node, ast.Subscript):
        return _returned_item(reader, node, frame, made_by)
    function = reader.evaluate(node.func, frame).ref
    if not isinstance(function, Function) or not (function.cls is None or _static(function)) or len(frame.stack) >= _MAX_FACTORIES:
        return []
    if id(function.node) in frame.stack:
        return []
    returns = [placed for placed in function.module.statements(function.node) if isinstance(placed.statement, ast.Return)]
    if not returns or any(placed.statement.value is None for placed in returns):  # type: ignore[attr-defined]
        return []
    args = bind(reader, function, node, frame)
    inner = Frame(function.module, function.node, None, args, None, frame.depth + 1, (*frame.stack, id(function.node)))
    found: Made = []
    for placed in returns:
        made = made_by(placed.statement.value, inner.reading(placed))  # type: ignore[attr-defined]
        if not made:
            return []
        found += made
    return found


def _static(function: Function) -> bool:
    """A `@staticmethod` (`cls._create_client(model_config)`): its arguments bind as a function's."""
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.node.decorator_list)


def _returned_item(reader: Reader, node: ast.Subscript, frame: Frame, made_by: Callable[[ast.expr, Frame], Made]) -> Made:
    """The constructions an item of the tuples a factory of the tree returns is (`client, model =
    policy_client()`, read as `policy_client()[0]`, of `return client, section["model"]`)."""
    index = node.slice.value if isinstance(node.slice, ast.Constant) else None
    if not isinstance(node.value, ast.Call) or not isinstance(index, int) or isinstance(index, bool):
        return []

    def item(value: ast.expr, inner: Frame) -> Made:
        items = value.elts if isinstance(value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in value.elts) else []
        return made_by(items[index], inner) if 0 <= index < len(items) else []

    return factory_made(reader, node.value, frame, item)


def as_written(reader: Reader, frame: Frame) -> Frame:
    """The frame of a request sent from a function no caller in the tree calls: its parameters'
    defaults bound, each resting on the caller passing none."""
    function, module = frame.function, frame.module
    if function is None or frame.args is not None or frame.cls is not None or not _runs_as_written(reader, module, function):
        return frame
    args = _defaults(reader, module, function, f"the caller of `{function.name}`")
    return replace(frame, args=args) if args else frame


def setter_frames(reader: Reader, frame: Frame, method: ast.FunctionDef | ast.AsyncFunctionDef, placed: Placed) -> list[Frame]:
    """The frames of the method of `frame`'s class that sets a client attribute (`self.client =
    OpenAI(base_url=base_url)` in `__init__`), read at that statement: `__init__` with each
    construction's arguments in the tree bound (`VLLMClient()` leaves `base_url` its default),
    else with its defaults as written (and its `**kwargs` empty), each resting on the code that
    makes the class passing none; another method with its parameters unknown, its `self` as each
    construction's arguments to `__init__` made it (llama-stack's `initialize()` reading `self.config.url`)."""
    module, cls = frame.module, frame.cls
    plain = Frame(module, method, cls, None, placed, frame.depth + 1, frame.stack)
    if cls is None or reader.tree.context.forwarded_arguments == "open":
        return [plain]
    from .engines import constructions  # the engines' reading of where a class is made

    made = constructions(reader, module, cls, elsewhere_too=True)[:_MAX_SITES]
    if method.name != "__init__":
        return _constructed_frames(reader, plain, made) or [plain]
    function = Function(module, method, cls)
    frames = [
        replace(plain, args=bind(reader, function, site.node, Frame(home, site.scope, site.cls, None, site.placed))) for home, site in made
    ]
    if frames:
        return frames
    caller = f"the code that makes `{cls.name}`"
    args = _defaults(reader, module, method, caller)
    if method.args.kwarg is not None:  # `kwargs.setdefault("base_url", URL)`: judged as written, as a default is
        from .dicts import as_val
        from .facts import Kwargs

        args[method.args.kwarg.arg] = as_val(Kwargs(assumed=[f"{caller} passes no `**{method.args.kwarg.arg}`"]))
    return [replace(plain, args=args)]


def _constructed_frames(reader: Reader, plain: Frame, made: list) -> list[Frame]:
    """Another method (`async def initialize(self)` setting `self.client = AsyncOpenAI(base_url=self.config.url)`),
    read with what `__init__` was given at each construction of the class: its `self` attributes hold that."""
    from .class_order import init_of
    from .engines import caller_frame

    cls, module = plain.cls, plain.module
    init = init_of(module, cls) if cls is not None else None
    if init is None:
        return []
    function = Function(module, init, cls)
    return [
        replace(plain, init=bind(reader, function, site.node, caller_frame(reader, home, site)), made=home.span(site.node))
        for home, site in made
    ]


def _defaults(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef, caller: str) -> dict:
    """The function's parameter defaults, each resting on `caller` passing none."""
    args = {}
    for name, default in parameter_defaults(function).items():
        read = reader.evaluate(default, Frame(module, module.tree))
        condition = f"{caller} passes no `{name}`, leaving {module.line(default)}'s `{module.text(default)}`"
        args[name] = replace(read, assumptions=(*read.assumptions, (condition, module.span(default))))
    return args


def defaults_read(node: ast.expr | None, frame: Frame) -> list[str]:
    """The conditions of the parameter defaults (`as_written`) an expression reads in `frame`."""
    names = {part.id for part in ast.walk(node) if isinstance(part, ast.Name)} if node is not None else set()
    given = frame.args or {}
    return list(dict.fromkeys(condition for name in sorted(names & given.keys()) for condition, _ in given[name].assumptions))


def _runs_as_written(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether no caller in the tree calls the function."""
    if reader.tree.context.forwarded_arguments == "open" or function.decorator_list or function not in module.tree.body:
        return False
    if module.name_uses(function.name):
        return False  # called or handed on in its module: those calls decide
    return not reader.tree.named_by_importers(module.path, function.name)


def self_sets(frame: Frame, attribute: str, made_only: bool = False) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, Placed]]:
    """The statements of the class's methods that set `self.<attribute>`, each with its method
    (`made_only`: not those that set it to None)."""
    assert frame.cls is not None
    return [
        (method, placed)
        for method in frame.cls.body
        if isinstance(method, FUNCTIONS)
        for placed in frame.module.statements(method)
        if isinstance(placed.statement, ast.Assign)
        and any(is_self(t, attribute) for t in placed.statement.targets)
        and not (made_only and _none(placed.statement.value))
    ]


def assigned(cls: ast.ClassDef, attribute: str) -> list[ast.expr]:
    """What the class's code sets `self.<attribute>` to, but None."""
    assigns = [node for node in ast.walk(cls) if isinstance(node, ast.Assign) and any(is_self(t, attribute) for t in node.targets)]
    return [node.value for node in assigns if not _none(node.value)]


def _none(value: ast.expr) -> bool:
    """`self.client = None` (set in `__init__`, made later): no request is ever sent to None."""
    return isinstance(value, ast.Constant) and value.value is None


def with_bound(frame: Frame, name: str) -> ast.expr | None:
    """What `with X(...) as name:` binds, when that `with` is the one statement binding the name
    in the function read (else the module)."""
    module = frame.module
    statements = [placed.statement for placed in module.binders(frame.scope, name)] or [
        placed.statement for placed in module.binders(module.tree, name)
    ]
    if len(statements) != 1 or not isinstance(statements[0], (ast.With, ast.AsyncWith)):
        return None
    items = [item for item in statements[0].items if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == name]
    return items[0].context_expr if len(items) == 1 else None


def is_self(target: ast.expr, attr: str) -> bool:
    return isinstance(target, ast.Attribute) and target.attr == attr and isinstance(target.value, ast.Name) and target.value.id == "self"


_MAX_BRANCHES = 4  # assignments of a client name read for the one whose branch holds


def decided_binding(reader: Reader, frame: Frame, name: str) -> ast.expr | None:
    """The value of the one assignment of `name` in the function read whose branches hold with
    the caller's values (arena-hard's `if api_dict: client = OpenAI(base_url=...)`, `else: client =
    OpenAI()`, given an endpoint), every other one's not holding; None where a test is not decided."""
    from .logic import decided

    if not isinstance(frame.scope, FUNCTIONS):
        return None
    bound = frame.module.binders(frame.scope, name)
    if not 1 < len(bound) <= _MAX_BRANCHES or not all(isinstance(placed.statement, ast.Assign) for placed in bound):
        return None
    holding = []
    for placed in bound:
        left = decided(reader, placed.guards, frame.reading(placed))
        if left:  # a test not decided
            return None
        if left is not None:
            holding.append(placed.statement)
    return holding[0].value if len(holding) == 1 else None  # type: ignore[attr-defined]


def spread_keyword(reader: Reader, call: ast.Call, frame: Frame, name: str) -> tuple[object, str] | None:
    """What a construction's `**mapping` gives the keyword `name` it does not write itself
    (`kwargs.setdefault("base_url", URL)`, then `super().__init__(**kwargs)`), and the conditions
    that rests on; None when no spread gives a value known there, unguarded."""
    from .call_arguments import arguments

    if any(item.arg == name for item in call.keywords) or all(item.arg is not None for item in call.keywords):
        return None
    found = arguments(reader, call, frame, None, positional=False)
    held = found.entries.get(name)
    if held is None or found.reasons or held.guards or not held.setting.known:
        return None
    return held.setting.value, " and ".join(dict.fromkeys([*found.assumed, *(condition for condition, _ in held.assumptions)]))


def module_client(receiver: ast.expr | None, frame: Frame) -> list[tuple[ast.Call, Frame]]:
    """The `openai` module as a client: the one `openai.base_url = ...` of the module, read as
    `OpenAI(base_url=...)` (the SDK's module client takes it); empty when it is not set there once."""
    module = frame.module
    if not (isinstance(receiver, ast.Name) and receiver.id == "openai" and "import openai" in module.source.text):
        return []
    values = [
        statement.value
        for statement in module.tree.body
        if isinstance(statement, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == "base_url" and ast.unparse(t.value) == "openai" for t in statement.targets)
    ]
    made = ast.Call(ast.Name("OpenAI", ast.Load()), [], [ast.keyword("base_url", values[0])]) if len(values) == 1 else None
    return [] if made is None else [(made, Frame(module, module.tree, None, None, None))]

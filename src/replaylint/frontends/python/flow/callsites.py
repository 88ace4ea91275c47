"""The calls of a module found by the words on their lines (`calls`), each with the statement
and scope it is in: where the value flow looks for engines, requests and call sites."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Iterator

from ....records import record
from ..asts import walk
from .frames import Frame, parameters
from .module import FUNCTIONS, Module, Placed


@record(unsafe_hash=True)
class Call:
    """A call of the module with the statement and scope it is in."""

    node: ast.Call
    placed: Placed
    scope: ast.AST
    cls: ast.ClassDef | None


def calls(module: Module, words: tuple[str, ...]) -> list[Call]:
    """The calls on the lines that hold one of `words` (a call's name), each with its statement
    and scope; statements on other lines are not looked into."""
    lines = module.lines_with(words)
    return [
        Call(node, placed, scope, cls)
        for placed, scope, cls in scoped_statements(module, lines)
        for node in _calls_on(placed.statement, lines, module)
    ]


def scoped_statements(module: Module, lines: list[int]) -> Iterator[tuple[Placed, ast.AST, ast.ClassDef | None]]:
    """The statements of every scope that touch `lines`, each with its scope and class: a
    function's own statement (its decorators and defaults) and then its body's; a class's
    methods, never the class statement itself."""
    pending: list[tuple[ast.AST, ast.ClassDef | None]] = [(module.tree, None)]
    while pending:
        scope, cls = pending.pop()
        for placed in module.statements(scope):
            statement = placed.statement
            if not module.touches(statement, lines):
                continue
            if isinstance(statement, ast.ClassDef):
                pending.extend((method, statement) for method in statement.body if isinstance(method, FUNCTIONS))
                continue
            if isinstance(statement, FUNCTIONS):
                pending.append((statement, cls))
            yield placed, scope, cls


def _calls_on(statement: ast.stmt, lines: list[int], module: Module) -> Iterator[ast.Call]:
    """The calls of a statement's own expressions that touch `lines` (other subtrees skipped)."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if node is not statement and hasattr(node, "end_lineno") and not module.touches(node, lines):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, (ast.stmt, ast.Lambda)))


# the calls of a function in the modules near its own that import it
Near = Callable[[ast.FunctionDef | ast.AsyncFunctionDef], Iterable[tuple[Module, "Call"]]]


def closure_sites(module: Module, closure: ast.FunctionDef | ast.AsyncFunctionDef, near: Near | None = None) -> list[tuple[Module, Call]]:
    """The calls of a closure a module-level factory returns (`build = make_builder(mode)`, then
    `build(model)`), found through the names the factory's results are bound to: in the module,
    else in the modules near it that import the factory (`near`: the factory's calls there;
    KernelBench's `inference_server = create_inference_server_from_presets(...)` in a script)."""
    if closure in module.tree.body:
        return []
    factory = next((f for f in module.tree.body if isinstance(f, FUNCTIONS) and closure in f.body), None)
    returned = factory is not None and any(
        isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id == closure.name for n in walk(factory)
    )
    if not returned:
        return []
    assert factory is not None
    factories = [factory, *_handing_on(module, factory)]  # `setup_model(path)` returning `get_infer_next_token(llm)`
    found = [(module, site) for site in _bound_calls(module, calls(module, tuple(f.name + "(" for f in factories)), factories)]
    if found or near is None:
        return found
    by_home: dict[int, tuple[Module, list[Call]]] = {}
    for home, made in (made for each in factories for made in near(each)):
        by_home.setdefault(id(home), (home, []))[1].append(made)
    return [(home, site) for home, made_there in by_home.values() for site in _bound_calls(home, made_there)]


def _handing_on(module: Module, factory: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module-level functions that hand on what `factory` returns: `return factory(...)`, or
    `fn = factory(...)`, then `return fn`."""
    found = []
    for function in (f for f in module.tree.body if isinstance(f, FUNCTIONS) and f is not factory):
        nodes = list(walk(function))
        if not any(_calls_name(n, factory.name) for n in nodes):
            continue
        made = {name for n in nodes if (name := _bound_to_call(n, factory.name)) is not None}
        returned = [n.value for n in nodes if isinstance(n, ast.Return) and n.value is not None]
        if any(_calls_name(value, factory.name) or (isinstance(value, ast.Name) and value.id in made) for value in returned):
            found.append(function)
    return found


def _calls_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _bound_to_call(node: ast.AST, name: str) -> str | None:
    """The name `node` binds to a call of `name` (`fn = factory(...)`), if it is such a binding."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _calls_name(node.value, name):
        return node.targets[0].id
    return None


def _bound_calls(module: Module, made: list[Call], factories: list[ast.FunctionDef | ast.AsyncFunctionDef] | None = None) -> list[Call]:
    """The calls of the names the results of `made` (calls of `factories`, when given) are bound to."""
    names = set()
    called = {f.name for f in factories} if factories is not None else None
    for call in made:
        statement = call.placed.statement
        if called is not None and not (isinstance(call.node.func, ast.Name) and call.node.func.id in called):
            continue
        if isinstance(statement, ast.Assign) and statement.value is call.node and isinstance(statement.targets[0], ast.Name):
            names.add(statement.targets[0].id)
    found = calls(module, tuple(sorted(name + "(" for name in names))) if names else []
    return [site for site in found if isinstance(site.node.func, ast.Name) and site.node.func.id in names]


def decides_by_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a branch of the function tests one of its parameters (`if logprobs_mode:`): the
    caller then decides which keys reach the engine. A test of `self` (`if self.max_model_len is not None:`)
    is the object's: its construction decides it, and the engine's contexts read that."""
    known = getattr(function, "_replaylint_decides", None)  # asked for each engine and request of the function
    if known is None:
        names = {param.arg for param in parameters(function)} - {"self", "cls"}
        known = any(
            isinstance(node, (ast.If, ast.IfExp)) and any(isinstance(n, ast.Name) and n.id in names for n in walk(node.test))
            for node in walk(function)
        )
        function._replaylint_decides = known  # type: ignore[union-attr]  (an ast is never changed: `asts`)
    return known


def reads_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.AST, through_locals: bool = False) -> bool:
    """Whether the engine's arguments name a parameter of its function (`LLM(cfg.model,
    logprobs_mode=cfg.logprobs_mode)`): what the caller passes decides them. `through_locals`: or
    a local the function builds from them (`params = {"dtype": cfg.vllm.dtype}`, then `LLM(**params)`)."""
    if not isinstance(node, ast.Call) or function.name.startswith("test_"):
        return False  # a comprehension's engines are read in its function's frames; pytest calls a test
    names = {param.arg for param in parameters(function)} - {"self", "cls"}
    names = _derived(names, function) if through_locals and names else names
    given = [*node.args, *(keyword.value for keyword in node.keywords)]
    return any(isinstance(n, ast.Name) and n.id in names for argument in given for n in walk(argument))


def reaches_from_callers(function: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.AST) -> bool:
    """Whether what the function's callers pass reaches the engine it builds: its `**kwargs`, a
    branch on a parameter, or arguments read from its parameters or from a local built of them
    (`params = {"dtype": cfg.vllm.dtype}`, then `LLM(**params)`)."""
    return function.args.kwarg is not None or decides_by_parameter(function) or reads_parameter(function, node, through_locals=True)


def words_of_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef, words: ast.expr) -> bool:
    """Whether a command's words are a local the function builds from its parameters (`cmd =
    ["python", "-m", ..., str(config.port)]`, `cmd.append(f"--{k}")` in a loop over
    `cfg.vllm_kwargs.items()`): what the caller passes decides them."""
    names = {param.arg for param in parameters(function)} - {"self", "cls"}
    return isinstance(words, ast.Name) and words.id not in names and words.id in _derived(names, function)


def reads_stored_parameter(cls: ast.ClassDef, init: ast.AST | None, method: ast.AST, later: bool = False) -> bool:
    """Whether a method reads an attribute `__init__` stores a parameter in (`self.config =
    config`, then `copy.deepcopy(self.config)` where the engine is built), or one it (or a method
    it calls, `self.init_model()`) makes from such (`self.sampling_params =
    SamplingParams(top_k=self.args.top_k)`): what the object's construction passes decides the engine.
    `later`: also one another method builds from such (`reads_built_later`)."""
    if not isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef)) or method is init:
        return False
    stored = _stored(cls, init, method)
    reached = (method, *_own_methods_called(cls, method))  # `cmd = [..., *self._server_args()]`
    found = any(self_attribute(node) in stored for function in reached for node in walk(function))
    return found or (later and reads_built_later(cls, init, method))


def reads_built_later(cls: ast.ClassDef, init: ast.AST | None, method: ast.AST) -> bool:
    """Whether a method reads an attribute another method (not `__init__`) builds from what
    `__init__` stored (xinference's `VLLMModel`: `load()` builds `self._engine` from
    `self._model_config`, and `async_generate` sends to it): what the object's construction
    passes decides that attribute too."""
    if not isinstance(init, FUNCTIONS) or method is init:
        return False
    stored = _stored(cls, init, None)
    built: set[str] = set()
    for other in cls.body if stored else ():
        if isinstance(other, FUNCTIONS) and other is not init and other is not method:
            assigns = [node for node in walk(other) if isinstance(node, ast.Assign)]
            seeds = {name for node in assigns if _reads_any(node.value, stored) for name in map(_written_name, node.targets) if name}
            names = _derived(seeds - {"self"}, other)
            built |= {attr for node in assigns if _made_of(node.value, names, stored) for attr in _self_targets(node)} - stored
    return bool(built) and any(self_attribute(node) in built for node in walk(method))


def _reads_any(value: ast.expr, stored: set[str]) -> bool:
    return any(self_attribute(node) in stored for node in walk(value))


def reads_stored_in_init(cls: ast.ClassDef, init: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.AST) -> bool:
    """Whether an engine `__init__` builds reads an attribute it stores a parameter in
    (`self.model_path = config["generator_model_path"]`, then `LLM(self.model_path, ...)`): what
    the object's construction passes decides the engine."""
    stored = _stored(cls, init, None)
    return bool(stored) and any(self_attribute(part) in stored for part in walk(node))


def _stored(cls: ast.ClassDef, init: ast.FunctionDef | ast.AsyncFunctionDef, method: ast.AST | None) -> set[str]:
    """The attributes `__init__` (or a method it calls, but `method`) stores its parameters in, or makes from them."""
    names = _derived({param.arg for param in parameters(init)[1:]}, init)
    stored: set[str] = set()
    called = {self_attribute(node.func) for node in walk(init) if isinstance(node, ast.Call)}  # `self.init_model()`
    setters = [init, *(m for m in cls.body if isinstance(m, FUNCTIONS) and m.name in called and m is not method)]
    assigns = [node for setter in setters for node in walk(setter) if isinstance(node, ast.Assign)]
    updates = [node.value for node in walk(init) if _adds_to(node)]  # `self.config.update(config)`: a parameter stored into it
    for _ in range(_STORED_ROUNDS):  # `self.cfg_sp, self.cfg_llm = cfg.SamplingParams, cfg.LLM`, then `self.top_k = self.cfg_sp.top_k`
        more = {attr for statement in assigns if _made_of(statement.value, names, stored) for attr in _self_targets(statement)}
        more |= {
            attr for call in updates if any(_made_of(a, names, stored) for a in call.args) if (attr := self_attribute(call.func.value))
        }
        if more <= stored:
            break
        stored |= more
    return stored


def _own_methods_called(cls: ast.ClassDef, method: ast.AST) -> list[ast.AST]:
    """The class's methods that `method` calls as `self.name(...)`."""
    called = {self_attribute(node.func) for node in walk(method) if isinstance(node, ast.Call)} - {None}
    return [m for m in cls.body if isinstance(m, FUNCTIONS) and m.name in called and m is not method]


_STORED_ROUNDS = 4  # attributes made from attributes made from a parameter


def _derived(names: set[str], init: ast.AST) -> set[str]:
    """`names` and the local names `__init__` builds from them (`sampling_kwargs = {"max_tokens":
    config.response_length}`, `sampling_kwargs[key] = getattr(config, key)`, a loop's over them)."""
    found = set(names)
    writes = [node for node in walk(init) if isinstance(node, (ast.Assign, ast.AugAssign, ast.For)) or _adds_to(node) or _annotated(node)]
    while True:
        more = set()
        for node in writes:
            value = node.iter if isinstance(node, ast.For) else node.value
            if any(isinstance(n, ast.Name) and n.id in found for n in walk(value)):
                targets = [node.target] if isinstance(node, (ast.AugAssign, ast.For, ast.AnnAssign)) else _targets(node)
                more |= {_written_name(target) for target in targets} - {None, "self"}  # type: ignore[arg-type]
        if more <= found:
            return found
        found |= more


def _annotated(node: ast.AST) -> bool:
    """`cmd: list[str] = [...]`: an annotated assignment with a value."""
    return isinstance(node, ast.AnnAssign) and node.value is not None


def _adds_to(node: ast.AST) -> bool:
    """`words.append(x)`, `words.extend(xs)`, `kw.update(x)` as a statement."""
    call = node.value if isinstance(node, ast.Expr) else None
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("append", "extend", "update")


def _targets(node: ast.Assign | ast.Expr) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.value.func.value]  # type: ignore[attr-defined]


def _written_name(target: ast.expr) -> str | None:
    """The local name an assignment target writes into (`kw` of `kw`, `kw["k"]`, `kw.x`)."""
    while isinstance(target, (ast.Subscript, ast.Attribute)):
        target = target.value
    return target.id if isinstance(target, ast.Name) else None


def keyword(node: ast.Call, name: str) -> ast.expr | None:
    """The value of a call's keyword argument `name=`, if given."""
    return next((item.value for item in node.keywords if item.arg == name), None)


def self_attribute(node: ast.AST) -> str | None:
    """`x` of `self.x`."""
    is_self = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
    return node.attr if is_self else None  # type: ignore[union-attr]


def _self_targets(statement: ast.Assign) -> set[str]:
    """The `self` attributes an assignment writes, also as items of a tuple (`self.a, self.b = ...`)."""
    targets = [item for target in statement.targets for item in (target.elts if isinstance(target, ast.Tuple) else [target])]
    return {attr for target in targets if (attr := self_attribute(target))}


def _made_of(value: ast.expr, names: set[str], stored: set[str]) -> bool:
    """Whether a value is a parameter, a call that reads one or `self.x` of a stored one
    (`SamplingParams(n=self.args.n)`), or a part of one (`cfg.LLM`, `self.cfg_sp.top_k`, a tuple of those)."""
    if isinstance(value, (ast.Tuple, ast.List)):  # `[*defaults, *(extra_args or [])]`
        return any(_made_of(item, names, stored) for item in value.elts)
    if isinstance(value, ast.Starred):
        return _made_of(value.value, names, stored)
    if isinstance(value, ast.BoolOp):  # `extra_args or []`
        return any(_made_of(item, names, stored) for item in value.values)
    while isinstance(value, (ast.Attribute, ast.Subscript)) and self_attribute(value) is None:
        value = value.value
    if isinstance(value, ast.Name) and value.id in names or self_attribute(value) in stored:
        return True
    return isinstance(value, ast.Call) and any(
        self_attribute(node) in stored or (isinstance(node, ast.Name) and node.id in names) for node in walk(value)
    )


def hands_parameter(init: ast.AST | None, method: ast.AST) -> bool:
    """Whether `__init__` passes one of its parameters to the method (`self._create_auto_model(config)`,
    lighteval's): what the object's construction passes decides the engine."""
    if not isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(method, FUNCTIONS) or method is init:
        return False
    names = {param.arg for param in parameters(init)[1:]}
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method.name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and any(isinstance(n, ast.Name) and n.id in names for argument in (*node.args, *node.keywords) for n in walk(argument))
        for node in walk(init)
    )


_HANDED = ("Process(", "Thread(", ".submit(")


def handed_sites(module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Call]:
    """The calls a library makes of a function handed to it, as the call it makes:
    `Process(target=main, args=(...), kwargs={...})` (also `Thread`) and `executor.submit(main, a, b)`
    of a `concurrent.futures` executor made in the same scope (another `submit` may pass more)."""
    if function.name not in module.source.text:
        return []
    found = []
    for site in calls(module, _HANDED):
        node, func = site.node, site.node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        if last in ("Process", "Thread") and _named(keywords.get("target"), function.name):
            given = keywords.get("args")
            positional = (
                list(given.elts)
                if isinstance(given, (ast.Tuple, ast.List))
                else [_spread(ast.Starred(given, ast.Load()), given)]
                if given
                else []
            )
            more = [_spread(ast.keyword(None, keywords["kwargs"]), keywords["kwargs"])] if "kwargs" in keywords else []
        elif last == "submit" and node.args and _named(node.args[0], function.name) and _executor(module, site):
            positional, more = node.args[1:], node.keywords
        else:
            continue
        made = ast.Call(ast.Name(function.name, ast.Load()), positional, more)
        for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            setattr(made, name, getattr(node, name))
        found.append(Call(made, site.placed, site.scope, site.cls))
    return found


def _named(node: ast.expr | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _spread(made, given: ast.expr):
    """`*args` or `**kwargs` of the call a library makes, placed where it is written."""
    return ast.copy_location(made, given)


_EXECUTORS = ("ThreadPoolExecutor", "ProcessPoolExecutor")


def _executor(module: Module, site: Call) -> bool:
    """Whether `site`'s receiver is bound in its scope to an executor (`with ProcessPoolExecutor() as pool`)."""
    receiver = site.node.func.value  # type: ignore[attr-defined]
    if not isinstance(receiver, ast.Name):
        return False
    for placed in module.binders(site.scope, receiver.id):
        statement = placed.statement
        made = (
            [item.context_expr for item in statement.items if _named(item.optional_vars, receiver.id)]
            if isinstance(statement, ast.With)
            else []
        )
        made += [statement.value] if isinstance(statement, ast.Assign) and _named(statement.targets[0], receiver.id) else []
        if any(isinstance(m, ast.Call) and ast.unparse(m.func).rsplit(".", 1)[-1] in _EXECUTORS for m in made):
            return True
    return False


def takes_a_config_of_the_tree(reader, module: Module, cls: ast.ClassDef) -> bool:
    """Whether the class's `__init__` takes an object of a class of another module of the tree
    (`args: GRPOConfig`): who makes the class then decides the engine's settings."""
    init = next((m for m in cls.body if isinstance(m, FUNCTIONS) and m.name == "__init__"), None)
    for param in parameters(init) if init is not None else ():
        annotation = param.annotation
        if isinstance(annotation, ast.Name) and annotation.id in module.imports:
            found = reader.tree.resolve(module.imports[annotation.id], module)
            if found is not None and found[1] is not None:
                return True
    return False


def argument_at(call: ast.Call, keyword: str, position: int) -> ast.expr | None:
    """The argument a call gives by `keyword` or at `position` among its positional ones (None: not given)."""
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    positional = [argument for argument in call.args if not isinstance(argument, ast.Starred)]
    return positional[position] if len(positional) > position else None


def led_by(module: Module, home: Module, site: Call, site_frame: Frame) -> dict[str, object]:
    """A call in another module that led here: at its top level (a script that imports the
    engine's module), else in a function there, read where that function is called."""
    if home is module:
        return {}
    return {"importer": (home, site.placed)} if site.scope is home.tree else {"caller": site_frame}

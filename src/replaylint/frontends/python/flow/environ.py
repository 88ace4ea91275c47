"""The runner variable as the code leaves it before an engine starts: `os.environ[...] = ...`,
`os.environ.setdefault(...)`, `os.environ.update({...})`, `os.environ |= {...}`,
`os.environ.pop(...)`, `del os.environ[...]`, in the module's own statements, the caller's before the call that leads to the engine, and
the engine's function before its construction. A write under a branch leaves the value
unknown. `os.putenv(...)` is not one: it changes the C environment a child process inherits, not
`os.environ`, the mapping vLLM reads in the process that builds the engine."""

from __future__ import annotations

import ast
from dataclasses import field, replace

from ....model import UNKNOWN, Setting, Span
from ....records import record
from ....vllm.engine_fields import RUNNER_ENV
from .binding import bind
from .constructed_writes import constructed, construction, self_method
from .dicts import nested
from .environ_statements import copied, is_environ, names_runner, write_of
from .facts import Kwargs
from .frames import Evaluates, Frame
from .logic import decided
from .modal_images import modal_env
from .module import FUNCTIONS, Module, Placed
from .package_inits import imported_bare, package_inits
from .refs import Function


@record(unsafe_hash=True)
class RunnerWrites:
    """The runner variable where an engine starts: its setting (empty: the code does not write
    it), the statements a fix may remove (a write that is a statement of its own), and the
    writes whose branch is decided against there (`if cfg.legacy_runner:` of a flag the
    construction leaves False), which never run."""

    env: dict[str, Setting]
    statements: dict[str, Span]
    not_run: tuple[Span, ...] = ()
    assumptions: tuple[tuple[str, Span], ...] = ()  # the defaults the variable's value rests on (a config an option's default names)


def runner_variable(frame: Frame, reader: Evaluates | None = None) -> tuple[dict[str, Setting], dict[str, Span]]:
    """The runner variable's setting where `frame` reads, and the statements a fix may remove."""
    writes = runner_writes(frame, reader)
    if writes.assumptions:  # no launch here to say what the value rests on
        return {name: replace(setting, value=UNKNOWN) for name, setting in writes.env.items()}, writes.statements
    return writes.env, writes.statements


def runner_writes(frame: Frame, reader: Evaluates | None = None) -> RunnerWrites:
    writer = _Writer(reader, {}, {})
    writer.leading_to(frame)
    if writer.unreached:
        writer.env = {name: replace(setting, value=UNKNOWN) for name, setting in writer.env.items()}
    written = writer.env.get(RUNNER_ENV)
    resting = tuple(dict.fromkeys(a for a in writer.assumptions if written is not None and a[1] == written.span))
    return RunnerWrites(writer.env, writer.statements, tuple(writer.not_run), resting)


_MAX_CALLS = 2  # functions of the tree entered to find their writes (a setup helper and one it calls)
_MAX_CALLERS = 3  # calls in other modules' functions that led to the engine, followed out


@record
class _Writer:
    """Applies the writes of statements in order; a call of a function of the tree made as a
    statement of its own (`setup_envvars_for_vllm()`) has its writes applied where it is made."""

    reader: Evaluates | None
    env: dict[str, Setting]
    statements: dict[str, Span]
    depth: int = 0
    holding: tuple = ()  # the branches known to be taken (those of the call that leads to the engine)
    importer: Module | None = None  # another module whose top-level call leads to the engine: its imports run too
    ran: set[str] = field(default_factory=set)  # the modules of the tree an import ran (once each)
    not_run: list[Span] = field(default_factory=list)  # writes under a branch decided against
    callers: int = 0  # calls in other modules' functions followed out
    assumptions: list[tuple[str, Span]] = field(default_factory=list)
    unreached: bool = False  # a caller's call that leads to the engine never runs: what it writes is not the engine's

    def leading_to(self, frame: Frame) -> None:
        """The writes that run before `frame`'s statement: those leading to a call in another
        module's function that led here first (FlashRAG's script makes its `Config`, then calls
        the function that builds the engine)."""
        if frame.caller is not None and self.callers < _MAX_CALLERS:
            self.callers += 1
            self.unreached = self.unreached or not self._reaches(frame.caller)
            self.leading_to(frame.caller)
            self._made_first(frame)
        module = frame.module
        # What the process starts with: a Modal container's image and secrets (`modal_images`), a
        # Ray actor's `runtime_env={"env_vars": {...}}`.
        for given in (*modal_env(frame), *frame.actor_env):
            if given.at is None:
                self.mapping(given.module, given.node, ())
            else:
                self.runtime_env(given.node, given.at)
        if frame.importer is not None:  # a script's top level that imports the module and calls it: its writes ran first
            self.importer, (importer, site) = frame.importer[0], frame.importer
            self.holding = site.guards
            self.apply(importer, importer.tree, site)
            self.holding = ()
        if frame.scope is not module.tree and not any(scope is module.tree for scope, _ in frame.sites):
            self.packages(module)  # started by an importer only: the packages around the module ran first
        if frame.scope is not module.tree:
            # A function runs after the module's statements; the functions those call are not entered
            # (`main()` may be what builds the engine, and write the environment after it). Called from
            # the module (`if __name__ == "__main__": ... main()`), it runs after those before the call,
            # whose branches it shares then hold.
            top = next((placed for scope, placed in frame.sites if scope is module.tree), None)
            self.holding = top.guards if top is not None else ()
            self.apply(module, module.tree, top, enter=top is not None)
            self.holding = ()
        for scope, placed in frame.sites:
            if scope is not module.tree:
                self.apply(module, scope, placed)
        if isinstance(frame.scope, FUNCTIONS):
            # The branches the construction sits under are taken when it runs: a write under the same
            # `if` (MinerU's `if key not in self._models:` around both) is made as written.
            self.holding = frame.at.guards if frame.at is not None else ()
            self.apply(module, frame.scope, frame.at, within=frame)
            self.holding = ()
        elif frame.at is not None:
            self.env.clear()
            self.apply(module, module.tree, frame.at)

    def _made_first(self, frame: Frame) -> None:
        """A method of an object whose caller is where the object is made (`backend = Backend()`,
        `return backend_class()`, then `backend.initialize()`): its `__init__` ran before the
        method, with the writes it makes (`self._setup_environment()`)."""
        caller, method = frame.caller, frame.scope
        if caller is None or caller.at is None or frame.cls is None or not isinstance(method, FUNCTIONS) or method.name == "__init__":
            return
        statement = caller.at.statement
        call = statement.value if isinstance(statement, ast.Return) else constructed(statement)
        if not isinstance(call, ast.Call) or self.reader is None or self.depth >= _MAX_CALLS:
            return
        here = caller.reading(caller.at)
        entered = construction(self.reader, call, here)
        if entered is not None and entered[2].cls is frame.cls:
            self.holding = caller.at.guards
            self._run(*entered, caller.at.guards)
            self.holding = ()

    def _reaches(self, caller: Frame) -> bool:
        """Whether the call in `caller` that leads to the engine may run: its branches are not
        decided against there (`if config["framework"] == "vllm":` of a config that says another)."""
        if self.reader is None or caller.at is None:
            return True
        return decided(self.reader, caller.at.guards, caller, []) is not None

    def apply(
        self, module: Module, scope: ast.AST, until: Placed | None, guards: tuple = (), enter: bool = True, within: Frame | None = None
    ) -> None:
        """`within`: the engine's own frame, whose bindings (`self`, the caller's arguments) its
        statements are read with (`str(config.pop(VAR, 0))` of the dict the caller passed)."""
        for placed in module.statements(scope):
            if until is not None and placed.order >= until.order:
                break
            here = within.reading(placed) if within is not None else Frame(module, scope, at=placed)
            self._statement(module, placed, (*guards, *placed.guards), enter, here)

    def _statement(self, module: Module, placed: Placed, guards: tuple, enter: bool, here: Frame) -> None:
        statement = placed.statement
        settled = self._settled(module, statement, guards, enter, here)
        if settled is None:
            self.not_run.append(module.span(statement))
            return
        guards = settled
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            if (enter and self._entered(module, statement.value, guards, here)) or self._updated(module, statement.value, guards, here):
                return
        made = constructed(statement) if enter and self.reader is not None and self.depth < _MAX_CALLS else None
        entered = made is not None and (construction(self.reader, made, here) or self_method(self.reader, made, here))
        if entered:
            self._run(*entered, guards)
            return
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            self._imported(module, statement, guards)
            return
        loop = copied(module, statement)
        if loop is not None:  # `for key, value in VLLM_ENV.items(): os.environ[key] = value` (or `= str(value)`)
            self.mapping(module, loop[0], guards, here, texts=loop[1])
            return
        if isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.BitOr) and is_environ(module, statement.target):
            self.mapping(module, statement.value, guards, here)  # `os.environ |= {...}`
            return
        write = write_of(module, statement)
        if write is None:
            return
        kind, value = write
        span = module.span(statement)
        if kind == "remove":
            self.env.pop(RUNNER_ENV, None)
            return
        if kind == "default" and RUNNER_ENV in self.env:
            return
        self._set(module, value, span, module.text(statement), guards, here)
        self.statements[RUNNER_ENV] = span

    def _settled(self, module: Module, statement: ast.stmt, guards: tuple, enter: bool, here: Frame) -> tuple | None:
        """The guards of a statement that may write the environment, less the branches the
        reader decides where it reads (the construction's arguments: `if cfg.legacy_runner:` of
        a dataclass flag left False); None: a branch is decided against, the statement never runs.
        A branch decided by a default of the run (an option's) stays undecided."""
        untaken = tuple(guard for guard in guards if guard not in self.holding)
        if not untaken or self.reader is None or not _may_write(module, statement, enter):
            return guards
        assumed: list[str] = []
        left = decided(self.reader, untaken, here, assumed)
        if assumed:  # `--legacy-runner` off by default: the run may turn it on
            return guards
        return None if left is None else tuple(guard for guard in guards if guard in self.holding) + left

    def entry(self, module: Module, mapping: ast.expr, guards: tuple) -> None:
        """A dict literal of variables (`{"VLLM_USE_V2_MODEL_RUNNER": "0", ...}`, `dict(NAME="0", ...)`)
        written into the environment."""
        if isinstance(mapping, ast.Call) and isinstance(mapping.func, ast.Name) and mapping.func.id == "dict":
            for argument in mapping.args[:1]:
                self.mapping(module, argument, guards)
            self._keywords(module, mapping.keywords, guards)
            return
        if not isinstance(mapping, ast.Dict):
            return
        for key, value in zip(mapping.keys, mapping.values):
            if key is None:
                self.env[RUNNER_ENV] = Setting(RUNNER_ENV, UNKNOWN, module.span(mapping), module.text(mapping))  # `**more`: not known
            elif names_runner(key):
                self._set(module, value, module.span(key), f"{module.text(key)}: {module.text(value)}", guards)
                self.statements.pop(RUNNER_ENV, None)  # a key of a dict, not a statement a fix may remove

    def _set(self, module: Module, value: ast.expr | None, span: Span, raw: str, guards: tuple, frame: Frame | None = None) -> None:
        if isinstance(value, ast.Name) and isinstance(bound := module_value(module, value.id), ast.Constant):
            value = bound  # `RUNNER = "0"` at module level, then `os.environ[...] = RUNNER`
        known = self._text(module, value, frame) if self._taken(guards) else UNKNOWN
        value_span = module.span(value) if value is not None else None
        self.env[RUNNER_ENV] = Setting(RUNNER_ENV, known, span, raw, value_span)

    def _taken(self, guards: tuple) -> bool:
        return all(guard in self.holding for guard in guards)

    def _text(self, module: Module, value: ast.expr | None, frame: Frame | None) -> object:
        """The text written: a literal, or what the reader knows of the expression where it is
        written (`str(0)`, a module constant), unless that rests on a default of the run."""
        if isinstance(value, ast.Constant):
            return value.value if isinstance(value.value, str) else UNKNOWN
        if value is None or self.reader is None:
            return UNKNOWN
        read = self.reader.evaluate(value, frame or Frame(module, module.tree))
        return read.value if isinstance(read.value, str) and not read.assumptions else UNKNOWN

    def _keywords(self, module: Module, keywords: list[ast.keyword], guards: tuple) -> None:
        for keyword in keywords:
            if keyword.arg is None:  # `**more`: not known
                self.env[RUNNER_ENV] = Setting(RUNNER_ENV, UNKNOWN, module.span(keyword), module.text(keyword))
            elif keyword.arg == RUNNER_ENV:
                self._set(module, keyword.value, module.span(keyword), module.text(keyword), guards)
                self.statements.pop(RUNNER_ENV, None)

    def _updated(self, module: Module, call: ast.Call, guards: tuple, frame: Frame) -> bool:
        """`os.environ.update({...})`, `os.environ.update(NAME)` of a module-level dict, `os.environ.update(NAME="0")`."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "update" and is_environ(module, func.value)):
            return False
        for argument in call.args[:1]:
            self.mapping(module, argument, guards, frame)
        self._keywords(module, call.keywords, guards)
        return True

    def mapping(self, module: Module, mapping: ast.expr, guards: tuple, frame: Frame | None = None, texts: bool = False) -> None:
        """A dict written into the environment: a literal, or a module-level one by name (of this
        module, imported, or brought by a star import); else a mapping the reader knows where it is
        written (`os.environ.update(settings.ENV)`), its entry for the variable. `texts`: each value
        written as `str(value)` (a config file's `0` is the text "0")."""
        found = self._named_dict(module, mapping.id) if isinstance(mapping, ast.Name) else (module, mapping)
        if found is not None and _spelt(found[1]):
            self.entry(*found, guards)
        elif frame is not None and self.reader is not None:
            self._known(mapping, guards, frame, texts)

    def runtime_env(self, node: ast.expr, at: Frame) -> None:
        """A Ray `runtime_env` the reader knows where it is given: its `env_vars`' variable (a
        mapping that may hold keys nobody can see leaves it unknown)."""
        read = self.reader.evaluate(node, at).kwargs if self.reader is not None else None
        item = read.entries.get("env_vars") if read is not None and not read.reasons else None
        env_vars = nested(item) if item is not None and not item.guards else None
        if env_vars is not None and env_vars.kwargs is not None:
            self._entry_of(env_vars.kwargs, ())

    def _known(self, mapping: ast.expr, guards: tuple, frame: Frame, texts: bool = False) -> None:
        read = self.reader.evaluate(mapping, frame).kwargs if self.reader is not None else None
        if read is not None:
            self._entry_of(read, guards, texts)
        elif RUNNER_ENV in self.env:  # a mapping not known may hold the variable
            self.env[RUNNER_ENV] = replace(self.env[RUNNER_ENV], value=UNKNOWN)

    def _entry_of(self, read: Kwargs, guards: tuple, texts: bool = False) -> None:
        written = read.entries.get(RUNNER_ENV)
        if written is None:
            if read.reasons and RUNNER_ENV in self.env:  # keys nobody can see may hold it
                self.env[RUNNER_ENV] = replace(self.env[RUNNER_ENV], value=UNKNOWN)
            return
        setting = written.setting
        carried = all(span == setting.span for _, span in written.assumptions)  # (`runner_writes` says only these)
        whole = self._taken(guards) and not written.guards and not read.reasons and carried
        value = str(setting.value) if texts and type(setting.value) is int else setting.value
        known = value if isinstance(value, str) and whole else UNKNOWN
        self.assumptions.extend(written.assumptions)  # a config file an option's default names
        self.env[RUNNER_ENV] = Setting(RUNNER_ENV, known, setting.span, setting.spelling, setting.value_span)
        self.statements.pop(RUNNER_ENV, None)  # a key of a mapping, not a statement a fix may remove

    def _named_dict(self, module: Module, name: str) -> tuple[Module, ast.expr] | None:
        value = module_value(module, name)
        tree = getattr(self.reader, "tree", None)  # the reader's tree resolves the imports
        if value is not None or tree is None:
            return (module, value) if value is not None else None
        wanted = [module.imports[name]] if name in module.imports else [f"{base}.{name}" for base in module.star_imports]
        for qualified in wanted:
            found = tree.resolve(qualified, module)
            if found is not None and found[1] is not None and (value := module_value(found[0], found[1])) is not None:
                return found[0], value
        return None

    def _imported(self, module: Module, statement: ast.Import | ast.ImportFrom, guards: tuple) -> None:
        """`import proj.env`: a module of the tree runs its own statements when first imported
        (the environment it writes at import time), looked at only when its text names the variable."""
        tree = getattr(self.reader, "tree", None)
        if tree is None or module not in (tree.module, self.importer) or self.depth >= _MAX_CALLS:
            return
        for name in (run for qualified in _imported_names(module, statement) for run in _run_by_import(qualified)):
            found = tree.module_text(name) if name.strip(".") else None
            if found is None or found[0] in self.ran or RUNNER_ENV not in found[1]:
                continue
            self.ran.add(found[0])
            target = tree.open_file(*found)
            if target is None or target is module:
                continue
            self.depth += 1
            try:
                self.apply(target, target.tree, None, guards, enter=False)
            finally:
                self.depth -= 1

    def packages(self, module: Module) -> None:
        """The `__init__.py` of each package around the module, outermost first: importing
        `inference.local.glm` runs `inference/__init__.py` (LongWriter-V's `os.environ[...] = "0"`)
        before the module's statements. Not when a file beside the module imports it by its bare
        name (a script there puts the folder on `sys.path`, and no package is imported)."""
        tree = getattr(self.reader, "tree", None)
        if tree is None or self.depth >= _MAX_CALLS or imported_bare(module, tree.context):
            return
        for path in reversed(package_inits(module.path, tree.context.read_text)):
            text = tree.context.read_text(path)
            if text is None or RUNNER_ENV not in text or path in self.ran:
                continue
            self.ran.add(path)
            target = tree.open_file(path, text)
            if target is None or target is module:
                continue
            self.depth += 1
            try:
                self.apply(target, target.tree, None, (), enter=False)
            finally:
                self.depth -= 1

    def _run(self, module: Module, function: ast.AST, frame: Frame, guards: tuple) -> None:
        """The statements of a function a statement runs, read in `frame` (a construction's `__init__`)."""
        self.depth += 1
        try:
            self.apply(module, function, None, guards, within=frame)
        finally:
            self.depth -= 1

    def _entered(self, module: Module, call: ast.Call, guards: tuple, here: Frame) -> bool:
        """A module-level function of the tree the statement calls: its statements read with the
        call's arguments (`apply_backend_env_vars("vllm")`: `REGISTRY[name]["env_vars"]`). One call
        deeper than `_MAX_CALLS` only into a function that names `environ` itself."""
        if self.reader is None or self.depth > _MAX_CALLS or not isinstance(call.func, (ast.Name, ast.Attribute)):
            return False
        callee = self.reader.evaluate(call.func, Frame(module, module.tree)).ref
        if not isinstance(callee, Function) or callee.cls is not None:
            return False
        if self.depth == _MAX_CALLS and "environ" not in callee.module.text(callee.node):
            return False
        args = bind(self.reader, callee, call, here)
        within = Frame(callee.module, callee.node, None, args, None, here.depth, here.stack)
        self.depth += 1
        try:
            self.apply(callee.module, callee.node, None, guards, within=within)
        finally:
            self.depth -= 1
        return True


def _may_write(module: Module, statement: ast.stmt, enter: bool) -> bool:
    """Whether a statement may write the environment: it names it, or calls a function of the
    tree that may (entered)."""
    if enter and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        return True
    return "environ" in module.text(statement)


def _spelt(mapping: ast.expr | None) -> bool:
    """A dict the writer reads itself: a literal, or `dict(...)`."""
    return isinstance(mapping, ast.Dict) or (
        isinstance(mapping, ast.Call) and isinstance(mapping.func, ast.Name) and mapping.func.id == "dict"
    )


def _run_by_import(qualified: str) -> list[str]:
    """The modules an import of a dotted name runs, packages first (`a.b.c`: `a`, `a.b`, `a.b.c`,
    the last when it is a module); of a relative name, its module and the name as a submodule."""
    if qualified.startswith("."):
        return [qualified.rpartition(".")[0], qualified]
    parts = qualified.split(".")
    return [".".join(parts[:count]) for count in range(1, len(parts) + 1)]


def _imported_names(module: Module, statement: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement of the module loads (`proj.env`, `.settings.X`)."""
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    named = [module.imports[alias.asname or alias.name] for alias in statement.names if (alias.asname or alias.name) in module.imports]
    return named or list(module.star_imports[:1])


def module_value(module: Module, name: str) -> ast.expr | None:
    """What a module-level name is bound to, when its one assignment says."""
    found = [
        s.value for s in module.tree.body if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    return found[0] if len(found) == 1 else None

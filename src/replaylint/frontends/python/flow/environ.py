"""The runner variable as the code leaves it before an engine starts: `os.environ[...] = ...`,
`os.environ.setdefault(...)`, `os.putenv(...)`, `os.environ.update({...})`, `os.environ |= {...}`,
`os.environ.pop(...)`, `del os.environ[...]`,
in the module's own statements, the caller's before the call that leads to the engine, and
the engine's function before its construction. A write under a branch leaves the value
unknown."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from ....model import UNKNOWN, Setting, Span
from ....vllm.engine_fields import RUNNER_ENV
from .frames import Evaluates, Frame, expressions
from .module import FUNCTIONS, Module, Placed
from .refs import Function

_CALLS = ("environ.setdefault", "environ.pop", "putenv")


def runner_variable(frame: Frame, reader: Evaluates | None = None) -> tuple[dict[str, Setting], dict[str, Span]]:
    """The runner variable's setting where `frame` reads (empty: the code does not write it), and
    the statements a fix may remove (a write that is a statement of its own)."""
    module = frame.module
    env: dict[str, Setting] = {}
    statements: dict[str, Span] = {}
    writer = _Writer(reader, env, statements)
    for home, value in frame.actor_env:  # Ray's `runtime_env={"env_vars": {...}}`: the actor starts with it
        writer.entry(home, value, ())
    if frame.scope is not module.tree:
        # A function runs after the module's statements; the functions those call are not entered
        # (`main()` may be what builds the engine, and write the environment after it).
        writer.apply(module, module.tree, None, enter=False)
    for scope, placed in frame.sites:
        if scope is not module.tree:
            writer.apply(module, scope, placed)
    if isinstance(frame.scope, FUNCTIONS):
        writer.apply(module, frame.scope, frame.at)
    elif frame.at is not None:
        env.clear()
        writer.apply(module, module.tree, frame.at)
    return env, statements


_MAX_CALLS = 2  # functions of the tree entered to find their writes (a setup helper and one it calls)


@dataclass
class _Writer:
    """Applies the writes of statements in order; a call of a function of the tree made as a
    statement of its own (`setup_envvars_for_vllm()`) has its writes applied where it is made."""

    reader: Evaluates | None
    env: dict[str, Setting]
    statements: dict[str, Span]
    depth: int = 0

    def apply(self, module: Module, scope: ast.AST, until: Placed | None, guards: tuple = (), enter: bool = True) -> None:
        for placed in module.statements(scope):
            if until is not None and placed.order >= until.order:
                break
            self._statement(module, placed, (*guards, *placed.guards), enter, scope)

    def _statement(self, module: Module, placed: Placed, guards: tuple, enter: bool, scope: ast.AST) -> None:
        statement = placed.statement
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            here = Frame(module, scope, at=placed)
            if (enter and self._entered(module, statement.value, guards)) or self._updated(module, statement.value, guards, here):
                return
        if isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.BitOr) and _is_environ(module, statement.target):
            self._merged(module, statement.value, guards, Frame(module, scope, at=placed))  # `os.environ |= {...}`
            return
        write = _write(module, statement)
        if write is None:
            return
        kind, value = write
        span = module.span(statement)
        if kind == "remove":
            self.env.pop(RUNNER_ENV, None)
            return
        if kind == "default" and RUNNER_ENV in self.env:
            return
        self._set(module, value, span, module.text(statement), guards, Frame(module, scope, at=placed))
        self.statements[RUNNER_ENV] = span

    def entry(self, module: Module, mapping: ast.expr, guards: tuple) -> None:
        """A dict literal of variables (`{"VLLM_USE_V2_MODEL_RUNNER": "0", ...}`) written into the environment."""
        if not isinstance(mapping, ast.Dict):
            return
        for key, value in zip(mapping.keys, mapping.values):
            if key is None:
                self.env[RUNNER_ENV] = Setting(RUNNER_ENV, UNKNOWN, module.span(mapping), module.text(mapping))  # `**more`: not known
            elif _names_runner(key):
                self._set(module, value, module.span(key), f"{module.text(key)}: {module.text(value)}", guards)
                self.statements.pop(RUNNER_ENV, None)  # a key of a dict, not a statement a fix may remove

    def _set(self, module: Module, value: ast.expr | None, span: Span, raw: str, guards: tuple, frame: Frame | None = None) -> None:
        known = UNKNOWN if guards else self._text(module, value, frame)
        value_span = module.span(value) if value is not None else None
        self.env[RUNNER_ENV] = Setting(RUNNER_ENV, known, span, raw, value_span)

    def _text(self, module: Module, value: ast.expr | None, frame: Frame | None) -> object:
        """The text written: a literal, or what the reader knows of the expression where it is
        written (`str(0)`, a module constant), unless that rests on a default of the run."""
        if isinstance(value, ast.Constant):
            return value.value if isinstance(value.value, str) else UNKNOWN
        if value is None or self.reader is None:
            return UNKNOWN
        read = self.reader.evaluate(value, frame or Frame(module, module.tree))
        return read.value if isinstance(read.value, str) and not read.assumptions else UNKNOWN

    def _updated(self, module: Module, call: ast.Call, guards: tuple, frame: Frame) -> bool:
        """`os.environ.update({...})` or `os.environ.update(NAME)` of a module-level dict."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "update" and _is_environ(module, func.value) and call.args):
            return False
        self._merged(module, call.args[0], guards, frame)
        return True

    def _merged(self, module: Module, mapping: ast.expr | None, guards: tuple, frame: Frame) -> None:
        """A dict literal, or a module-level dict by name, merged into the environment; else a
        mapping the reader knows (`os.environ.update(settings.ENV)`), its entry for the variable."""
        literal = _module_dict(module, mapping.id) if isinstance(mapping, ast.Name) else mapping
        if isinstance(literal, ast.Dict) or self.reader is None or mapping is None:
            if literal is not None:
                self.entry(module, literal, guards)
            return
        found = self.reader.evaluate(mapping, frame).kwargs
        written = found.entries.get(RUNNER_ENV) if found is not None else None
        if written is not None:
            setting = written.setting
            known = setting.value if isinstance(setting.value, str) and not guards and not written.guards else UNKNOWN
            self.env[RUNNER_ENV] = Setting(RUNNER_ENV, known, setting.span, setting.spelling, setting.value_span)
            self.statements.pop(RUNNER_ENV, None)  # a key of a mapping, not a statement a fix may remove

    def _entered(self, module: Module, call: ast.Call, guards: tuple) -> bool:
        if self.reader is None or self.depth >= _MAX_CALLS or not isinstance(call.func, (ast.Name, ast.Attribute)):
            return False
        callee = self.reader.evaluate(call.func, Frame(module, module.tree)).ref
        if not isinstance(callee, Function) or callee.cls is not None:
            return False
        self.depth += 1
        try:
            self.apply(callee.module, callee.node, None, guards)
        finally:
            self.depth -= 1
        return True


def _module_dict(module: Module, name: str) -> ast.expr | None:
    found = [
        s.value for s in module.tree.body if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    return found[0] if len(found) == 1 else None


def _write(module: Module, statement: ast.stmt) -> tuple[str, ast.expr | None] | None:
    if isinstance(statement, (ast.Assign, ast.Delete)):
        for target in statement.targets:
            if isinstance(target, ast.Subscript) and _is_environ(module, target.value) and _names_runner(target.slice):
                return ("set", statement.value) if isinstance(statement, ast.Assign) else ("remove", None)
        return None
    for node in expressions(statement):
        if isinstance(node, ast.Call) and node.args and _names_runner(node.args[0]):
            func = module.text(node.func)
            if func.endswith(_CALLS) and ("os" in module.imports or "environ" in module.imports):
                if func.endswith("pop"):
                    return "remove", None
                if len(node.args) > 1:
                    return ("default" if func.endswith("setdefault") else "set"), node.args[1]
    return None


def _is_environ(module: Module, node: ast.expr) -> bool:
    text = module.text(node)
    return text in ("os.environ", "environ")


def _names_runner(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == RUNNER_ENV


def runtime_env_vars(site: ast.Call) -> Iterator[ast.expr]:
    """The `env_vars` of `Actor.options(runtime_env={"env_vars": {...}})` (or `RuntimeEnv(env_vars={...})`)."""
    func = site.func
    options = func.value if isinstance(func, ast.Attribute) and func.attr == "remote" else None
    if not (isinstance(options, ast.Call) and isinstance(options.func, ast.Attribute) and options.func.attr == "options"):
        return
    for keyword in options.keywords:
        if keyword.arg != "runtime_env":
            continue
        value = keyword.value
        if isinstance(value, ast.Dict):
            yield from (v for k, v in zip(value.keys, value.values) if isinstance(k, ast.Constant) and k.value == "env_vars")
        elif isinstance(value, ast.Call):
            yield from (k.value for k in value.keywords if k.arg == "env_vars")

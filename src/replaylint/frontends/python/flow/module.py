"""One module as the value-flow reader sees it: CPython's ast of the file, positions as spans,
the names it imports, its functions and classes, and the statements of a scope in order with
the branches they sit under (`Guard`)."""

from __future__ import annotations

import ast
import bisect
import functools
from collections import Counter
from dataclasses import field
from typing import Iterator

from ....model import Span
from ....records import record
from ....source import SourceFile
from ..asts import ast_of, walk
from ..names import vllm_module

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


@record(unsafe_hash=True)
class Guard:
    """A branch a statement sits under: `if test:` (`holds`) or its `else:`. `opaque`: a loop
    body or an exception handler (`label`), which may run any number of times or never. Two
    guards are the same branch when they are the same `if` statement's."""

    node: ast.expr | None = None
    holds: bool = True
    opaque: bool = False
    label: str = ""
    loop: ast.For | ast.AsyncFor | None = field(default=None, compare=False)  # the `for` of a loop body
    fallback_of: ast.Try | None = field(default=None, compare=False)  # the `try` an `except ImportError:` body stands in for

    @functools.cached_property
    def test(self) -> str:
        """The test as written (`replay`, `config.get('speculative')`): made when a message or a
        launch's outcomes need it."""
        return ast.unparse(self.node) if self.node is not None else self.label


def describe(test: str, holds: bool) -> str:
    """`replay` is true, `x > 1` holds, ... as a message says it."""
    if test.replace(".", "").replace("_", "").isalnum():
        return f"`{test}` is {'true' if holds else 'false'}"
    return f"`{test}`" if holds else f"not `{test}`"


@record(unsafe_hash=True)
class Placed:
    """A statement of a scope, with the branches it sits under and its order in the scope."""

    statement: ast.stmt
    guards: tuple[Guard, ...]
    order: int


@record
class Module:
    """The facts of one parsed module (`name`: its dotted name in the tree, when known)."""

    source: SourceFile
    tree: ast.Module
    name: str = ""
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    import_statements: dict[str, ast.stmt] = field(default_factory=dict)  # local name -> its import
    star_imports: list[str] = field(default_factory=list)  # `from .defaults import *`: the modules, last first
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    _scopes: dict[int, list[Placed]] = field(default_factory=dict)
    _owners: dict[int, int] = field(default_factory=dict)  # id of a Placed -> id of its scope
    _tests: dict[int, Placed] = field(default_factory=dict)  # id of an `if`'s test -> the `if`
    _lines: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    _binders: dict[int, dict[str, list[Placed]]] = field(default_factory=dict)
    _writers: dict[str, list] | None = None  # module-level names -> the functions that write keys into them
    _handed: set[str] | None = None  # names read other than as the function of a call
    _uses: Counter[str] | None = None  # names -> how many times the module names them
    _enclosing: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] | None = None  # id of a function -> the function it is written in
    _values: set[str] | None = None  # names given as a keyword's or a dict's value
    _renames: dict[str, set[str]] | None = None  # a name -> the names an assignment binds to it (`model_cls = VLLMModel`)

    @property
    def path(self) -> str:
        return self.source.path

    # positions

    def offset(self, line: int, column: int) -> int:
        """ast's (line, UTF-8 byte column) as an offset into the decoded text."""
        index = self.source.index
        text = index.line_text(line)
        if text.isascii():
            return index.offset(line, 1) + column
        return index.offset(line, 1) + len(text.encode("utf-8")[:column].decode("utf-8", "replace"))

    def span(self, first: ast.AST, last: ast.AST | None = None) -> Span:
        last = last or first
        return self.source.index.span(
            self.offset(first.lineno, first.col_offset),  # type: ignore[attr-defined]
            self.offset(last.end_lineno, last.end_col_offset),  # type: ignore[attr-defined]
        )

    def text(self, node: ast.AST, last: ast.AST | None = None) -> str:
        span = self.span(node, last)
        return self.source.text[span.start : span.end]

    def line(self, node: ast.AST) -> str:
        """`file.py:7`, for messages."""
        return f"{self.path.rsplit('/', 1)[-1]}:{node.lineno}"  # type: ignore[attr-defined]

    # scopes

    def statements(self, scope: ast.AST) -> list[Placed]:
        """The statements of a module or function body in order (not those of the functions and
        classes it defines), each with its guards."""
        key = id(scope)
        if key not in self._scopes:
            self._scopes[key] = list(_placed(scope.body, ()))  # type: ignore[attr-defined]
            self._owners.update((id(placed), key) for placed in self._scopes[key])
            self._tests.update((id(placed.statement.test), placed) for placed in self._scopes[key] if hasattr(placed.statement, "test"))
        return self._scopes[key]

    def testing(self, scope: ast.AST, test: ast.expr) -> Placed | None:
        """The `if` (or `while`) statement of `scope` whose test `test` is: where Python reads it."""
        self.statements(scope)
        placed = self._tests.get(id(test))
        return placed if placed is not None and self._owners.get(id(placed)) == id(scope) else None

    def enclosing(self, function: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function a nested function, or a method of a class defined in a function, is written in
        (the scope its free names are read from: a class's own is skipped)."""
        if self._enclosing is None:
            self._enclosing = _innermost_functions(self.tree)
        return self._enclosing.get(id(function))

    def functions_writing(self, name: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """The functions that write keys into the module-level `name` (`name["k"] = v`,
        `name.update(...)`...), which a reader of it cannot order."""
        if self._writers is None:
            self._writers = {}
            for node in walk(self.tree):
                if isinstance(node, FUNCTIONS):
                    for written in _names_written(node):
                        self._writers.setdefault(written, []).append(node)
        return self._writers.get(name, [])

    def referenced(self, name: str) -> bool:
        """Whether `name` is read other than called (`pool.submit(make_llm, **cfg)`, `f = make_llm`):
        whoever it is handed to may call it with anything."""
        return name in self._names()[0]

    def names_as_values(self) -> set[str]:
        """The names the module gives as a keyword's or a dict's value (`type=VLLM`, `{"vllm": VLLM}`)."""
        return self._names()[2]

    def names_bound_to(self, name: str) -> set[str]:
        """The names an assignment anywhere in the module binds to `name` alone (`model_cls = VLLMModel`)."""
        return self._names()[3].get(name, set())

    def name_uses(self, name: str) -> int:
        """How many times the module names `name` (as an `ast.Name`: read, written or called)."""
        return self._names()[1][name]

    def _names(self) -> tuple[set[str], Counter[str], set[str], dict[str, set[str]]]:
        """The module's names read other than called, named, given as values and bound to another name,
        found in one walk (each reader of the value flow asks one of them, most of them for every module)."""
        if self._uses is None:
            called, loaded, values, renames = set(), [], set(), {}
            uses: Counter[str] = Counter()
            for node in walk(self.tree):
                if isinstance(node, ast.Name):
                    uses[node.id] += 1
                    if isinstance(node.ctx, ast.Load):
                        loaded.append(node)
                elif isinstance(node, ast.Call):
                    called.add(id(node.func))
                elif isinstance(node, ast.keyword) and isinstance(node.value, ast.Name):
                    values.add(node.value.id)
                elif isinstance(node, ast.Dict):
                    values.update(value.id for value in node.values if isinstance(value, ast.Name))
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
                    renames.setdefault(node.value.id, set()).update(t.id for t in node.targets if isinstance(t, ast.Name))
            self._handed = {node.id for node in loaded if id(node) not in called}
            self._uses, self._values, self._renames = uses, values, renames
        return self._handed, self._uses, self._values, self._renames  # type: ignore[return-value]

    def lines_with(self, words: tuple[str, ...]) -> list[int]:
        """The numbers of the lines that hold one of `words`, sorted (cached)."""
        if words not in self._lines:
            text = self.source.text
            index = self.source.index
            found = set()
            for word in words:
                offset = text.find(word)
                while offset != -1:
                    found.add(index.position(offset)[0])
                    offset = text.find(word, offset + 1)
            self._lines[words] = sorted(found)
        return self._lines[words]

    @staticmethod
    def touches(node: ast.AST, lines: list[int]) -> bool:
        position = bisect.bisect_left(lines, first_line(node))
        return position < len(lines) and lines[position] <= node.end_lineno  # type: ignore[attr-defined]

    def binders(self, scope: ast.AST, name: str) -> list[Placed]:
        """The statements of a scope that may bind `name` (an index built once per scope)."""
        key = id(scope)
        if key not in self._binders:
            index: dict[str, list[Placed]] = {}
            for placed in self.statements(scope):
                for bound in _bound_names(placed.statement, self):
                    index.setdefault(bound, []).append(placed)
            self._binders[key] = index
        return self._binders[key].get(name, [])

    def in_scope(self, placed: Placed, scope: ast.AST) -> bool:
        self.statements(scope)
        return self._owners.get(id(placed)) == id(scope)


def _innermost_functions(tree: ast.Module) -> dict[int, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Each function written in another, by id: the innermost function around it, in one pass
    over the statements (a function is a statement, so expressions are not entered; a walk of
    each function's own nodes cost a module of nested test helpers a fifth of its flow)."""
    found: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    waiting: list[tuple[ast.AST, ast.FunctionDef | ast.AsyncFunctionDef | None]] = [(tree, None)]
    while waiting:
        node, around = waiting.pop()
        if isinstance(node, FUNCTIONS):
            if around is not None:
                found[id(node)] = around
            around = node
        for name in _STATEMENT_FIELDS:
            children = getattr(node, name, None)
            if children:
                waiting.extend((child, around) for child in children)
    return found


_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")  # where statements (or handlers and cases holding them) are


def first_line(node: ast.AST) -> int:
    """The line a statement starts on, its decorators included (the first is the topmost; a list
    built for `min` cost the flow 8 ms in 10,000 calls)."""
    decorators = getattr(node, "decorator_list", None)
    return decorators[0].lineno if decorators else node.lineno  # type: ignore[attr-defined]


def parse(source: SourceFile, name: str = "") -> Module | None:
    """The module's facts, None when CPython cannot read it (the libcst pass reports that)."""
    tree = ast_of(source.text)  # parsed once for all the readers of a file
    if tree is None:
        return None
    module = Module(source, tree, name)
    for statement in _top_level(tree.body):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                local = alias.asname or alias.name.split(".")[0]
                module.imports[local] = vllm_module(alias.name) if alias.asname else local
                module.import_statements[local] = statement
        elif isinstance(statement, ast.ImportFrom) and (statement.module is not None or statement.level):
            base = vllm_module(_absolute(statement, name))
            if any(alias.name == "*" for alias in statement.names):
                module.star_imports.insert(0, base)
            for alias in statement.names:
                if alias.name != "*":
                    module.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if statement.module else f"{base}{alias.name}"
                    module.import_statements[alias.asname or alias.name] = statement
        elif isinstance(statement, FUNCTIONS):
            module.functions[statement.name] = statement
        elif isinstance(statement, ast.ClassDef):
            module.classes[statement.name] = statement
    return module


def local_import(statement: ast.AST | None, name: str) -> str | None:
    """The dotted name an import statement inside a function binds `name` to (a relative one as the
    module's own are kept: `.vllm_local.vllm_local_completions`, resolved from its folder)."""
    for alias in getattr(statement, "names", ()):
        if (alias.asname or alias.name.split(".")[0]) != name:
            continue
        if isinstance(statement, ast.ImportFrom):
            base = vllm_module(_absolute(statement, ""))
            return f"{base}.{alias.name}" if statement.module else f"{base}{alias.name}"
        return alias.name if alias.asname else name
    return None


def _absolute(statement: ast.ImportFrom, name: str) -> str:
    """`from .settings import X` is `.settings` (resolved from the importing file's folder)."""
    return "." * statement.level + (statement.module or "")


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module statements, also inside `if`/`try` blocks (`try: import x except ImportError:`)."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.If, ast.Try)):
            for block in (statement.body, statement.orelse, getattr(statement, "finalbody", [])):
                yield from _top_level(block)


def _placed(body: list[ast.stmt], guards: tuple[Guard, ...], counter: list[int] | None = None) -> Iterator[Placed]:
    counter = counter if counter is not None else [0]
    for statement in body:
        counter[0] += 1
        yield Placed(statement, guards, counter[0])
        if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
            continue
        if isinstance(statement, ast.If):
            yield from _placed(statement.body, (*guards, Guard(statement.test)), counter)
            yield from _placed(statement.orelse, (*guards, Guard(statement.test, holds=False)), counter)
        elif isinstance(statement, _LOOPS):
            loop = statement if not isinstance(statement, ast.While) else None
            yield from _placed(statement.body + statement.orelse, (*guards, Guard(opaque=True, label="loop", loop=loop)), counter)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from _placed(statement.body, guards, counter)
        elif isinstance(statement, ast.Try) or type(statement).__name__ == "TryStar":
            yield from _placed(statement.body + statement.orelse + statement.finalbody, guards, counter)  # type: ignore[attr-defined]
            for handler in statement.handlers:  # type: ignore[attr-defined]
                fallback = statement if _catches_import_error(handler) else None
                yield from _placed(handler.body, (*guards, Guard(opaque=True, label="except", fallback_of=fallback)), counter)
        elif isinstance(statement, ast.Match):
            for case, own in zip(statement.cases, _case_guards(statement)):
                yield from _placed(case.body, (*guards, *own), counter)


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(name, ast.Name) and name.id in ("ImportError", "ModuleNotFoundError") for name in caught)


def _case_guards(statement: ast.Match) -> Iterator[tuple[Guard, ...]]:
    """Each case's branches, as the `if`/`elif` chain it stands for would have them: `case "a" | "b":`
    tests `subject == "a" or subject == "b"` after the earlier cases' tests failed, `case _:` holds
    when they all did. A case with a guard or another pattern makes it and the later ones opaque."""
    earlier: list[Guard] = []
    readable = True
    for case in statement.cases:
        test = None if case.guard is not None else _pattern_test(statement.subject, case.pattern)
        wildcard = isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None and case.guard is None
        readable = readable and (test is not None or wildcard)
        if not readable:
            yield (Guard(opaque=True, label="case"),)
        elif test is None:
            yield tuple(earlier)
        else:
            yield (*earlier, Guard(test))
            earlier.append(Guard(test, holds=False))


def _pattern_test(subject: ast.expr, pattern: ast.pattern) -> ast.expr | None:
    """`subject == value` for a value pattern (`or` of them for `case "a" | "b":`)."""
    if isinstance(pattern, ast.MatchValue):
        return ast.copy_location(ast.Compare(subject, [ast.Eq()], [pattern.value]), pattern)
    if isinstance(pattern, ast.MatchOr):
        tests = [_pattern_test(subject, option) for option in pattern.patterns]
        if any(test is None for test in tests):
            return None
        return ast.copy_location(ast.BoolOp(ast.Or(), tests), pattern)  # type: ignore[arg-type]
    return None


POST_INITS = ("__post_init__", "__attrs_post_init__", "model_post_init")


def global_writes(module: Module, name: str) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, Placed]]:
    """The assignments of a module-level name made by the module's functions that declare it
    `global` (`global ENGINE` then `ENGINE = LLM(...)` in `init_engine()`)."""
    if "global " not in module.source.text:
        return []  # read for every `None` a function sees: most modules declare no global
    found = []
    for function in module.tree.body:
        if not isinstance(function, FUNCTIONS) or not any(isinstance(node, ast.Global) and name in node.names for node in walk(function)):
            continue
        for placed in module.statements(function):
            statement = placed.statement
            if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets):
                found.append((function, placed))
    return found


def set_after_init(cls: ast.ClassDef) -> set[str]:
    """The attributes a record's post-init hook sets (`self.x = ...`, `object.__setattr__(self, "x", ...)`)."""
    found = set()
    for method in cls.body:
        if not (isinstance(method, FUNCTIONS) and method.name in POST_INITS):
            continue
        for node in walk(method):
            targets = (
                node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            )
            found.update(t.attr for t in targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self")
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "object.__setattr__" and len(node.args) == 3:
                name = node.args[1]
                found.update((name.value,) if isinstance(name, ast.Constant) and isinstance(name.value, str) else ())
    return found


_WRITING_METHODS = frozenset(("update", "setdefault", "pop", "popitem", "clear", "__setitem__"))


def _names_written(function: ast.AST) -> set[str]:
    """Names a function writes keys into, not names it binds itself (its locals)."""
    local = {arg.arg for arg in walk(function.args) if isinstance(arg, ast.arg)} if isinstance(function, FUNCTIONS) else set()
    found = set()
    for node in walk(function):
        if isinstance(node, ast.Global):
            found.update(node.names)  # rebound from here: a reader cannot tell which value holds
        elif isinstance(node, (ast.Assign, ast.Delete, ast.AugAssign)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    found.add(target.value.id)
                elif isinstance(target, ast.Name) and isinstance(node, ast.Assign):
                    local.add(target.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _WRITING_METHODS:
            if isinstance(node.func.value, ast.Name):
                found.add(node.func.value.id)
    globals_ = {name for node in walk(function) if isinstance(node, ast.Global) for name in node.names}
    return found - (local - globals_)


def _bound_names(statement: ast.stmt, module: Module) -> set[str]:
    """The names a statement itself may bind (a superset: `frames.binds` decides)."""
    if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name.split(".")[0]) for alias in statement.names}
    targets: list[ast.AST] = []
    if isinstance(statement, (ast.Assign, ast.Delete)):
        targets = list(statement.targets)
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [statement.target]
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in statement.items if item.optional_vars is not None]
    found = {node.id for target in targets for node in walk(target) if isinstance(node, ast.Name)}
    span = module.span(statement)
    if ":=" in module.source.text[span.start : span.end]:
        found |= {node.target.id for node in walk(statement) if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name)}
    return found

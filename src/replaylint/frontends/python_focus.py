"""What libcst needs to see of a Python file, decided by CPython's own parser first.

libcst's metadata costs about 1 ms per line (8,800 lines: 0.8 s to parse, 3 s for positions,
5 s for qualified names), while `ast.parse` reads the same file in 0.1 s. So the file is first
read with `ast`: that vets it (libcst's native parser overflows its stack on deeply nested
expressions and slows down quadratically on long chains) and finds the top-level statements
that may matter: those touching a name imported from vLLM, a process-spawning call, a request
method, or the runner variable. Every other top-level compound statement (a function, a class,
a loop...) is blanked out with spaces, which keeps every offset, line and column of the file,
so libcst's positions still point into the original text. A file with nothing that matters is
not given to libcst at all.
"""

from __future__ import annotations

import ast

from . import ParseError

_MAX_NESTING = 500
_MAX_LINE = 5000
_REQUEST_METHODS = frozenset(("generate", "chat", "beam_search"))
_ENGINE_NAMES = frozenset(("LLM", "EngineArgs", "AsyncEngineArgs"))
_REQUEST_NAMES = frozenset(("SamplingParams", "BeamSearchParams"))
_ENV_CALLS = frozenset(("setdefault", "putenv", "pop", "update"))
_SPAWNING_MODULES = frozenset(("subprocess", "os", "asyncio", "shlex"))
_SPAWNING_CALLS = frozenset(
    (
        "run", "Popen", "call", "check_call", "check_output", "system", "popen", "create_subprocess_exec",
        "create_subprocess_shell", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe",
        "spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "split",
    )
)
_RUNNER_ENV = "VLLM_USE_V2_MODEL_RUNNER"
# An engine or a process only matters with one of these in reach (the prefilter's words).
_REPLAY_WORDS = ("sampling_mask", "sampling-mask", "SAMPLING_MASK", "--return-s", "--return_s", _RUNNER_ENV, "--config")


def _naively_shallow(text: str) -> bool:
    depth = deepest = 0
    for char in text:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    return deepest < 60 and max((len(line) for line in text.splitlines()), default=0) < _MAX_LINE


def _parse(text: str) -> ast.Module | None:
    """The ast of a file, None when this interpreter's grammar is older than the file's."""
    try:
        return ast.parse(text)
    except SyntaxError as error:
        if "too many nested" in str(error.msg) or not _naively_shallow(text):
            raise ParseError(f"Python syntax error: {error.msg}", error.lineno or 1, error.offset or 1) from None
        return None
    except (RecursionError, MemoryError, ValueError):
        raise ParseError("Python file is nested too deeply to analyse") from None


class _Imports:
    """Local names bound by import statements to vLLM's modules or engine classes, and to
    process-spawning modules."""

    def __init__(self, tree: ast.Module) -> None:
        self.vllm_modules: set[str] = set()
        self.engines: set[str] = set(_ENGINE_NAMES)
        self.requests: set[str] = set(_REQUEST_NAMES)
        self.spawning: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self._bind(alias.name, None, alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self._bind(node.module, alias.name, alias.asname or alias.name)

    def _bind(self, module: str, name: str | None, local: str) -> None:
        root = module.split(".")[0]
        if root == "vllm":
            if name in _ENGINE_NAMES:
                self.engines.add(local)
            elif name in _REQUEST_NAMES:
                self.requests.add(local)
            elif name is None or name[:1].islower():
                self.vllm_modules.add(local)
        elif root in _SPAWNING_MODULES:
            self.spawning.add(local)


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _called_name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _weigh(statement: ast.stmt, imports: _Imports) -> tuple[bool, bool, int]:
    """Whether a top-level statement starts something (an engine, a process, the runner
    variable), whether it sends requests, and how deeply it nests."""
    anchor = request = False
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(statement, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, ast.Call):
            func = node.func
            name = _called_name(func)
            root = _root_name(func)
            from_vllm = isinstance(func, ast.Name) or root in imports.vllm_modules
            if name in imports.engines and from_vllm:
                anchor = True
            elif name in _SPAWNING_CALLS and (root in imports.spawning or name in imports.spawning):
                anchor = True
            elif name in _ENV_CALLS and any(isinstance(a, ast.Constant) and a.value == _RUNNER_ENV for a in node.args):
                anchor = True
            elif name in _REQUEST_METHODS or (name in imports.requests and from_vllm):
                request = True
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == _RUNNER_ENV:
            anchor = True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return anchor, request, deepest


def _blank(lines: list[str], first: int, last: int) -> None:
    """Empty lines first..last (1-based), keeping their line breaks: line numbers and the
    columns of every kept line stay those of the original file."""
    for number in range(first - 1, last):
        line = lines[number]
        lines[number] = line[len(line.rstrip("\r\n")) :]


_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)
if hasattr(ast, "TryStar"):
    _COMPOUND = (*_COMPOUND, ast.TryStar)


def _mentions_replay(lines: list[str], first: int, last: int) -> bool:
    segment = "".join(lines[first - 1 : last])
    return any(word in segment for word in _REPLAY_WORDS)


def _bound_names(statement: ast.stmt) -> set[str]:
    return {node.id for node in ast.walk(statement) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def _used_names(statement: ast.stmt) -> set[str]:
    return {node.id for node in ast.walk(statement) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def focus(text: str) -> str | None:
    """The text libcst should analyse (the same lines and columns as `text` where it keeps
    anything; blanked statements become empty lines), or None when nothing matters.

    A statement that starts an engine or a process is kept when the replay words are in reach:
    in its own text or in a module-level statement whose names it uses (`LLM(**OPTS)`).
    Raises ParseError for files CPython rejects as too deep, and for expressions nested beyond
    what replaylint analyses.
    """
    tree = _parse(text)
    if tree is None:
        return text  # newer syntax than this interpreter: let libcst decide on the whole file
    imports = _Imports(tree)
    body = tree.body
    lines = text.splitlines(keepends=True)
    spans = [(min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", ()))]), s.end_lineno or s.lineno) for s in body]
    replay_names: set[str] = set()
    for statement, (first, last) in zip(body, spans):
        if not isinstance(statement, _COMPOUND) and _mentions_replay(lines, first, last):
            replay_names |= _bound_names(statement)
    kept: list[bool] = []
    starts_something = False
    for statement, (first, last) in zip(body, spans):
        anchor, request, depth = _weigh(statement, imports)
        if depth > _MAX_NESTING:
            raise ParseError(f"Python file nests expressions {depth} levels deep; replaylint analyses at most {_MAX_NESTING}")
        if anchor and not (_mentions_replay(lines, first, last) or _used_names(statement) & replay_names):
            anchor = False
        starts_something |= anchor
        kept.append(anchor or request)
    if not starts_something:
        return None  # nothing that starts an engine or a process with replay in reach
    for position, statement in enumerate(body):
        if kept[position] or not isinstance(statement, _COMPOUND):
            continue
        first, last = spans[position]
        if not _shares_lines(body, position, first, last):
            _blank(lines, first, last)
    return "".join(lines)


def _shares_lines(body: list[ast.stmt], position: int, first: int, last: int) -> bool:
    """Whether a neighbouring top-level statement sits on the same lines (`x = 1; def f(): ...`)."""
    before = body[position - 1] if position > 0 else None
    after = body[position + 1] if position + 1 < len(body) else None
    return (before is not None and (before.end_lineno or before.lineno) >= first) or (after is not None and after.lineno <= last)

"""What libcst needs to see of a Python file, decided by CPython's own parser first.

libcst costs about 1 ms per line (parse and positions), while `ast.parse` reads a file in a
tenth of that. So the file is first read with `ast`: that vets it (libcst's native parser
overflows its stack on deeply nested expressions and slows down quadratically on long chains)
and gives the top-level statements. A statement is kept when its text may start something (an
engine constructor, a process-spawning call, the runner variable) with the replay words in
reach (in its own text, or in a module-level statement whose names it uses, as in
`LLM(**OPTS)`), or when it sends requests. Every other top-level compound statement (a
function, a class, a loop...), every expression statement that binds and calls nothing, and
the comment and blank lines between statements become empty lines, each run of them folded into
one string statement on the same lines (libcst reads one token there, not a node per line). That
keeps the line and column of every kept line, so libcst's positions still point into the
original text. A file with nothing that
starts something is not given to libcst at all, nor is one whose starting calls CPython's parser
shows to ask for no replay (`verdict`). The text tests only choose what libcst reads;
libcst and the collector decide what is a launch.
"""

from __future__ import annotations

import ast
import bisect
import gc
import itertools
import re
import warnings
from collections import Counter
from typing import Callable, Iterator

from ...regexes import on_use
from ...source import Budget, NotAnalysed, ParseError
from .asts import out_of_collections, parsed, remember
from .names import (
    ENGINE_NAMES,
    ENV_CALLS,
    REPLAY_WORDS,
    RUNNER_ENV,
    SPAWNING_CALLS,
    SPAWNING_MODULES,
    imported_spawners,
    occurrences,
    vllm_aliases,
)
from .prescan import nothing_starts
from .verdict import Settled, settled

_MAX_NESTING = 500
_CHARACTERS_PER_UNIT = 2  # CPython's parser reads about two characters a microsecond
_MAX_LINE = 5000
# Words of what may start something; found with str.find, a line holding one is "hot". (The
# regular expressions of this module start with a literal, not `\b`: CPython's `re` then skips
# ahead in C, ten times faster on a large file.)
_STARTER_WORDS = (
    "LLM",
    "EngineArgs",
    "subprocess",
    "os.system",
    "os.popen",
    "os.exec",
    "os.spawn",
    "create_subprocess",
    "shlex",
    RUNNER_ENV,
)
_REQUESTS = re.compile(r"(?:\.(?:generate|chat|beam_search)|SamplingParams|BeamSearchParams)\s*\(")
# Python's own line breaks: str.splitlines also breaks at form feeds, U+2028... and then the
# lines no longer had ast's numbers (a form feed in a comment hid every launch after it).
_LINE = on_use(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def _lines(text: str) -> list[str]:
    """The lines of `text` with their line breaks (`\r\n`, `\r` or `\n`); a text without `\r` is
    split in C (4x faster than the expression on a large module)."""
    if "\r" in text:
        return _LINE.findall(text)
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


_COMPOUND = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.Match,
)
if hasattr(ast, "TryStar"):
    _COMPOUND = (*_COMPOUND, ast.TryStar)


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
    """The ast of a file, None when this interpreter's grammar is older than the file's.
    Garbage collection waits meanwhile, and the new nodes are kept out of its young generations
    (`out_of_collections`): an ast has no reference cycles, and each collection would walk them all."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        with warnings.catch_warnings():
            # `"\d"` in the file: CPython warns (a SyntaxWarning printed by default from 3.12,
            # an error under -W error); the file's problem, not replaylint's to print.
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except SyntaxError as error:
        if "too many nested" in str(error.msg) or not _naively_shallow(text):
            raise ParseError(f"Python syntax error: {error.msg}", error.lineno or 1, error.offset or 1) from None
        return None
    except (RecursionError, MemoryError, ValueError):
        raise ParseError("Python file is nested too deeply to analyse") from None
    finally:
        if collecting:
            out_of_collections()
            gc.enable()


def syntax_error(text: str) -> ParseError | None:
    """CPython's own complaint about a file, if it has one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as error:
        return ParseError(f"Python syntax error: {error.msg}", error.lineno or 1, error.offset or 1)
    except (RecursionError, MemoryError, ValueError):
        return None
    return None


def _nesting(statement: ast.stmt) -> int:
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(statement, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


class _Lines:
    """Line numbers holding some of a file's words: a statement or expression whose lines hold
    none need not be read (vLLM's `EngineArgs` class is 3,000 lines)."""

    def __init__(self, text: str, lines: list[str], words: tuple[str, ...], pattern: re.Pattern[str] | None = None) -> None:
        ends = list(itertools.accumulate(map(len, lines)))
        offsets = [match.start() for match in pattern.finditer(text)] if pattern is not None else []
        offsets += occurrences(text, words)
        self.numbers = sorted({bisect.bisect_right(ends, offset) + 1 for offset in offsets})

    def within(self, first: int, last: int) -> bool:
        position = bisect.bisect_left(self.numbers, first)
        return position < len(self.numbers) and self.numbers[position] <= last

    def touch(self, node: ast.AST) -> bool:
        first = getattr(node, "lineno", None)
        if first is None:
            return True
        first = min([first, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        return self.within(first, getattr(node, "end_lineno", None) or first)


def _starts(statement: ast.stmt, engines: set[str], spawners: set[str], hot: _Lines) -> bool:
    """Whether a statement calls an engine constructor or a process-spawning function, or
    writes the runner variable (the statement's text already mentioned one of them)."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if not hot.touch(node):
            continue
        stack.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            root = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
            if name in engines or (name in SPAWNING_CALLS and (root in SPAWNING_MODULES or (root is None and name in spawners))):
                return True
            if name in ENV_CALLS and _names_runner(node):
                return True
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.slice, ast.Constant) and node.slice.value == RUNNER_ENV:
                return True
    return False


def _names_runner(call: ast.Call) -> bool:
    """Whether an environment call names the runner variable: `setdefault("VLLM_USE_...", v)`,
    `update({"VLLM_USE_...": v})` or `update(VLLM_USE_...=v)`."""
    keys = [*call.args, *(key for arg in call.args[:1] if isinstance(arg, ast.Dict) for key in arg.keys if key is not None)]
    return any(isinstance(key, ast.Constant) and key.value == RUNNER_ENV for key in keys) or any(
        keyword.arg == RUNNER_ENV for keyword in call.keywords
    )


def _classifier(engines: set[str], spawners: set[str], sagemaker: set[str]) -> Callable[[ast.Call], str | None]:
    """What a call starts, by the names `_starts` knows it by (for `verdict.settled`)."""

    def kind(call: ast.Call) -> str | None:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        root = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
        if name in sagemaker:
            return "sagemaker"
        if name in engines:
            return "engine"
        if name in SPAWNING_CALLS and (root in SPAWNING_MODULES or (root is None and name in spawners)):
            return "spawn"
        if name in ENV_CALLS and _names_runner(call):
            return "env"
        return None

    return kind


def _assigned_names(statement: ast.stmt) -> set[str]:
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
        targets = [statement.target]
    return {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}


def _replay_functions(
    body: list[ast.stmt], spans: list[tuple[int, int]], segments: dict, has_replay_words: dict, uses: re.Pattern | None
) -> dict[str, int]:
    """The top-level functions whose text names a replay word, or a name a simple statement binds
    to one (`cmd += REPLAY_FLAGS`, `uses`), by name, with their position; not a name the module
    binds again (the call may reach the other)."""
    found = {
        statement.name: position
        for position, (statement, span) in enumerate(zip(body, spans))
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (has_replay_words[span] or (uses is not None and uses.search(segments[span]) is not None))
    }
    bound = Counter(name for statement in body for name in _bound_names(statement)) if found else Counter()
    return {name: position for name, position in found.items() if bound[name] == 1}


def _bound_names(statement: ast.stmt) -> Iterator[str]:
    """Names a top-level statement binds (a block's anywhere in it, to be safe)."""
    for node in [statement] if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ast.walk(statement):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.alias):
            yield (node.asname or node.name).split(".")[0]


def _blank(lines: list[str], first: int, last: int) -> None:
    """Empty lines first..last (1-based), keeping their line breaks: line numbers and the
    columns of every kept line stay those of the original file."""
    for number in range(first - 1, last):
        line = lines[number]
        lines[number] = line[len(line.rstrip("\r\n")) :]


def _inert(statement: ast.stmt) -> bool:
    """An expression statement that binds and calls nothing (a docstring, a bare literal): libcst
    need not read it (a 256 KB literal on one line cost it 10 s)."""
    return isinstance(statement, ast.Expr) and not any(
        isinstance(node, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)) for node in ast.walk(statement)
    )


def _fold(lines: list[str], unread: list[bool]) -> None:
    """Empty the unread lines (keeping their line breaks: line numbers and the columns of every
    kept line stay those of the original file), and make each run of them one string statement,
    so that libcst reads one token there instead of a node per line (8 MiB of comments cost it
    16 s and 500 MB). A run right after a backslash stays empty lines."""
    index = 0
    while index < len(lines):
        if not unread[index]:
            index += 1
            continue
        end = index
        while end + 1 < len(lines) and unread[end + 1]:
            end += 1
        _blank(lines, index + 1, end + 1)
        if end > index and not (index > 0 and lines[index - 1].rstrip("\r\n").endswith("\\")):
            lines[index] = '"""' + lines[index]
            lines[end] = '"""' + lines[end]
        index = end + 1


def _mentions_replay(segment: str) -> bool:
    """Replay words in a statement's text; `--config` counts only next to vLLM (argparse
    scripts have their own)."""
    if any(word in segment for word in REPLAY_WORDS if word != "--config"):
        return True
    return "--config" in segment and ("vllm" in segment or "serve" in segment)


def _blank_methods(cls: ast.ClassDef, lines: list[str], matters: Callable[[ast.stmt, str], bool]) -> None:
    """Inside a kept class, empty the methods that start nothing and send nothing (vLLM's own
    `LLM` class would otherwise be read whole). Plain empty lines, not a folded string: a string
    at column 0 would end the class body; and one statement always stays, so the body does too."""
    body = cls.body
    idle = []
    for position, statement in enumerate(body):
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = min([statement.lineno, *(d.lineno for d in statement.decorator_list)])
        last = statement.end_lineno or statement.lineno
        if not _shares_lines(body, position, first, last) and not matters(statement, "".join(lines[first - 1 : last])):
            idle.append((first, last))
    for first, last in idle[: len(body) - 1] if len(idle) == len(body) else idle:
        _blank(lines, first, last)


def _shares_lines(body: list[ast.stmt], position: int, first: int, last: int) -> bool:
    """Whether a neighbouring top-level statement sits on the same lines (`x = 1; def f(): ...`)."""
    before = body[position - 1] if position > 0 else None
    after = body[position + 1] if position + 1 < len(body) else None
    return (before is not None and (before.end_lineno or before.lineno) >= first) or (after is not None and after.lineno <= last)


def focus(text: str, budget: Budget | None = None) -> str | Settled | None:
    """The text libcst should analyse (the same lines and columns as `text` where it keeps
    anything; blanked statements become empty lines), `Settled` when what starts asks for no
    replay (`verdict`), or None when nothing starts anything.

    Raises ParseError for files CPython rejects as too deep, NotAnalysed for kept statements
    nested beyond what replaylint analyses, OverBudget when `budget` runs out.
    """
    aliases, spawners = vllm_aliases(text), imported_spawners(text)
    sagemaker = ("Model",) if "sagemaker" in text else ()  # the SDK's Model(env={"SM_VLLM_...": ...})
    engines = set(ENGINE_NAMES) | aliases | set(sagemaker)
    if nothing_starts(text, engines, spawners, budget):
        return None  # told without the parse (`prescan`)
    if budget is not None:
        budget.charge(len(text) // _CHARACTERS_PER_UNIT)  # CPython's parse cannot be interrupted
    tree = parsed(text) or _parse(text)
    remember(text, tree)
    if tree is None:
        return text  # newer syntax than this interpreter: let libcst decide on the whole file
    lines = _lines(text)
    body = tree.body
    spans = [(min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", ()))]), s.end_lineno or s.lineno) for s in body]
    # Statements on one line (`a; b; c`) share its text, and each text is searched once: per
    # statement, a line of n statements cost O(n^2) (90 s for 8000 imports on one line).
    segments: dict[tuple[int, int], str] = {}
    for first, last in spans:
        if (first, last) not in segments:
            segments[(first, last)] = "".join(lines[first - 1 : last])
    has_replay_words = {span: _mentions_replay(segment) for span, segment in segments.items()}
    called = {name for name in aliases | spawners if name}
    hot = _Lines(
        text,
        lines,
        _STARTER_WORDS + sagemaker,
        re.compile("|".join(rf"{re.escape(name)}\s*\(" for name in sorted(called))) if called else None,
    )
    asking = _Lines(text, lines, (), _REQUESTS)
    replay_names: set[str] = set()
    for statement, span in zip(body, spans):
        if not isinstance(statement, _COMPOUND) and has_replay_words[span]:
            replay_names |= _assigned_names(statement)
    named = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(replay_names))) + r")\b") if replay_names else None
    functions = _replay_functions(body, spans, segments, has_replay_words, named)
    replay_names |= set(functions)
    uses_replay_names = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(replay_names))) + r")\b") if replay_names else None
    may_start = {
        span: hot.within(*span)
        and (has_replay_words[span] or (uses_replay_names is not None and uses_replay_names.search(segment) is not None))
        for span, segment in segments.items()
    }
    requests = {span: asking.within(*span) for span in segments}
    kept: list[bool] = []
    starts_something = False
    for statement, span in zip(body, spans):
        starts = may_start[span] and _starts(statement, engines, spawners, hot)
        starts_something |= starts
        kept.append(starts or requests[span])
    if not starts_something:
        return None
    for name, position in functions.items():  # a function a kept statement calls, for what it returns
        called = re.compile(rf"\b{re.escape(name)}\s*\(")
        kept[position] = kept[position] or any(keep and called.search(segments[span]) for span, keep in zip(spans, kept))
    kept_statements = [statement for statement, keep in zip(body, kept) if keep]
    verdict = settled(tree, kept_statements, _classifier(engines, spawners, set(sagemaker)), hot.touch)
    if verdict is not None:
        return verdict  # what starts asks for no replay: nothing for libcst to read

    def matters(statement: ast.stmt, segment: str) -> bool:
        may = hot.touch(statement) and (
            _mentions_replay(segment) or (uses_replay_names is not None and uses_replay_names.search(segment) is not None)
        )
        return (may and _starts(statement, engines, spawners, hot)) or asking.touch(statement)

    for statement, keep in zip(body, kept):
        if keep and isinstance(statement, ast.ClassDef):
            _blank_methods(statement, lines, matters)
    unread = [True] * len(lines)  # comment and blank lines between statements, blanked statements
    for position, statement in enumerate(body):
        first, last = spans[position]
        if kept[position]:
            depth = _nesting(statement)
            if depth > _MAX_NESTING:
                offset = sum(map(len, lines[: first - 1]))
                raise NotAnalysed(f"a statement nests expressions {depth} levels deep; replaylint reads {_MAX_NESTING}", offset)
        if kept[position] or not (isinstance(statement, _COMPOUND) or _inert(statement)) or _shares_lines(body, position, first, last):
            unread[first - 1 : last] = [False] * (last - first + 1)
    _fold(lines, unread)
    return "".join(lines)

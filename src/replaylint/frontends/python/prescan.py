"""Files that cannot start anything, told without CPython's parser.

A file gets past the prefilter when it names the replay words and something that may start an
engine or a process; `focus` then parses it whole (vLLM's own `engine/arg_utils.py` costs 20
ms) to find that no top-level statement holds both, as in most such files. This scan finds the
top-level statements from the text: it blanks strings and comments (keeping their lines),
counts brackets, and takes each line that starts at column 0 outside them as a statement (a
decorator with what it decorates, `else:` and its kin with their statement). When no
statement holds both a call that may start something and a replay word, `focus` would find
nothing either. Whatever the scan does not understand (a quote that opens no string it knows,
brackets that do not balance, a non-ASCII name) makes it answer "unsure", and the file is
parsed as before.
"""

from __future__ import annotations

import bisect
import re

from ...regexes import on_use
from ...source import Budget
from .names import ENV_CALLS, REPLAY_WORDS, RUNNER_ENV, SPAWNING_CALLS, SPAWNING_MODULES, occurrences

# Strings (any prefix: the letters before the quote are looked at separately) and comments. A
# body is a run of plain characters, then escapes or quotes each followed by such a run (one
# character class repeated runs in C; an alternation repeated takes a step per character, and
# cost the 20 files of vLLM that pass 16 ms instead of 9; the same matches on 30,000 files).
_SKIPPED = re.compile(
    r"#[^\r\n]*"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"[^"\\\r\n]*(?:\\(?:\r\n|.)[^"\\\r\n]*)*"'
    r"|'[^'\\\r\n]*(?:\\(?:\r\n|.)[^'\\\r\n]*)*'"
    r"""|"|'""",  # a quote that opens no string of the above: unsure (two literals, not a class: every
    # branch then starts with a literal, and the expression skips to the next `#`, `"` or `'` in C)
    re.S,
)
# A line that starts a statement, found by the line break before it (a literal start lets the
# expression skip from break to break in C; `^` is tried at every character). As `^` in re.M,
# a line starts after `\n` only.
_LINE_START = re.compile(r"\n(?![ \t\f\r\n]|(?:else|elif|except|finally)\b)")
_FIRST_CODE = re.compile(r"\S")
_LINE_TEXT = re.compile(r"[^\r\n]+")  # what a blanked string keeps of a line: its length
_COMPOUND = re.compile(r"(?:@|(?:async|def|class|if|for|while|with|try)\b)")
_GAP = r"[\s\\)]*"  # between a called name and its `(`: blanks, line breaks, `)` of `(LLM)(...)`
_CALLED = re.compile(_GAP + r"\(")
_DEF = re.compile(r"\s*(?:@[^\n]*\n\s*)*(?:async\s+)?def\s+(\w+)")  # a top-level function, after its decorators
_ATTRIBUTE_CALLED = re.compile(_GAP + r"\.[\s\\]*(\w+)" + _GAP + r"\(")
_NOT_CONFIG = tuple(word for word in REPLAY_WORDS if word != "--config")
# More of these than of the name: spelled in parts. A part is counted where it may be glued to another
# (after a quote, `_` or a brace) and where the name would end: not vLLM's `EMPTY_MODEL_RUNNER_OUTPUT`,
# nor "MODEL_RUNNER" in a comment's prose (vLLM's test_scheduler.py has 28 of the one, 3 of the name).
_RUNNER_PREFIX = "VLLM_USE_V2"
_RUNNER_SUFFIX = on_use(r"MODEL_RUNNER(?![A-Za-z0-9_])")  # (a literal first: a lookbehind first scans ten times slower)
_RUNNER_KEY = re.compile(r"""\[\s*[rRbBuU]?["']""" + RUNNER_ENV + r"""["']\s*\]""")  # os.environ["..."] = ...


# Budget units (about a microsecond each) a statement that may start something costs before
# libcst reads it: CPython's parse and the focus. Charged here, before the parse, so a file of
# 100,000 launches stops before it costs a gigabyte of syntax tree.
_STARTING_COST = 200


def nothing_starts(text: str, engines: set[str], spawners: set[str], budget: Budget | None = None) -> bool:
    """True when no top-level statement of `text` holds both a call that may start something
    (an engine in `engines`, a spawning call of a spawning module or one of `spawners`) and a
    replay word, and no simple statement names a replay word (its names could carry them to a
    call elsewhere). False when unsure. The statements that hold both are charged to `budget`."""
    runners = text.count(RUNNER_ENV)
    if text.count(_RUNNER_PREFIX) != runners or _runner_suffixes(text) != runners:
        return False
    if not any(word in text for word in REPLAY_WORDS):
        return True  # no statement names one (a file read for a config file it loads: `named_configs`)
    blanked = _blank(text)
    if blanked is None:
        return False
    code, skipped = blanked
    if not code.isascii():  # an identifier CPython would normalise (NFKC) to one of the names
        return False
    starts = _statement_starts(code)
    if starts is None:
        return False
    replays = _replay_statements(text, starts)
    names_replay = any(_simple(code, starts, index) for index in replays)
    if names_replay and budget is None:
        return False
    calls = {_statement(starts, offset) for offset in _calls(text, code, skipped, engines | spawners)}
    if runners:
        calls |= _runner_writes(text, starts)
    starting = replays & calls
    if budget is not None and starting:
        budget.charge(len(starting) * _STARTING_COST, starts[min(starting)])
    return not starting and not names_replay and not _calls_replay_function(code, starts, replays, calls - replays)


def _runner_suffixes(text: str) -> int:
    if text.count("MODEL_RUNNER") == text.count(RUNNER_ENV):
        return text.count(RUNNER_ENV)
    return sum(1 for match in _RUNNER_SUFFIX.finditer(text) if match.start() and text[match.start() - 1] in "_\"'{}")


def _calls_replay_function(code: str, starts: list[int], replays: set[int], calls: set[int]) -> bool:
    """Whether a statement that may start something calls a top-level function whose text names
    a replay word (`os.execve(sys.executable, build_command(args), env)`)."""
    names = {match.group(1) for index in replays if (match := _DEF.match(code, starts[index]))}
    if not names or not calls:
        return False
    called = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")" + _GAP + r"\(")
    return any(called.search(code, starts[index], _end(starts, index, code)) for index in calls)


def _replay_statements(text: str, starts: list[int]) -> set[int]:
    """The statements that name a replay word as `focus` counts them: `--config` only beside
    "vllm" or "serve" (argparse scripts have their own `--config`)."""
    found = {_statement(starts, offset) for offset in occurrences(text, _NOT_CONFIG)}
    for index in {_statement(starts, offset) for offset in occurrences(text, ("--config",))} - found:
        statement = text[starts[index] : _end(starts, index, text)]
        if "vllm" in statement or "serve" in statement:
            found.add(index)
    return found


def _simple(code: str, starts: list[int], index: int) -> bool:
    """Whether top-level statement `index` is a simple statement (not a `def`, `class`, `if`...)."""
    first = _FIRST_CODE.search(code, starts[index], _end(starts, index, code))
    return first is not None and not _COMPOUND.match(code, first.start())


def _runner_writes(text: str, starts: list[int]) -> set[int]:
    """The statements that may write the runner variable: by a key (`os.environ[...] = `, `del`)
    or an environment call (`os.environ.setdefault(...)`, `os.putenv(...)`)."""
    writes = {_statement(starts, match.start()) for match in _RUNNER_KEY.finditer(text)}
    for offset in occurrences(text, (RUNNER_ENV,)):
        index = _statement(starts, offset)
        statement = text[starts[index] : _end(starts, index, text)]
        if any(call in statement for call in ENV_CALLS):
            writes.add(index)
    return writes


def _blank(text: str) -> tuple[str, list[tuple[int, int]]] | None:
    """`text` with strings and comments turned to spaces (line breaks kept), and the spans of
    those that hold no code (all but f-strings, whose fields may call); None when unsure."""
    pieces: list[str] = []
    skipped: list[tuple[int, int]] = []
    position = 0
    for match in _SKIPPED.finditer(text):
        start, end = match.span()
        if end - start == 1 and text[start] != "#":  # a quote that opens no string (`#` alone is an empty comment)
            return None
        pieces.append(text[position:start])
        body = match.group()
        pieces.append(_LINE_TEXT.sub(_spaces, body) if "\n" in body or "\r" in body else " " * len(body))
        if body[0] == "#" or "f" not in text[max(0, start - 2) : start].lower():
            skipped.append((start, end))
        position = end
    pieces.append(text[position:])
    return "".join(pieces), skipped


def _spaces(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _statement_starts(code: str) -> list[int] | None:
    """Offsets where top-level statements start (the first at 0, with what comes before it);
    None when the brackets do not balance."""
    starts = [0]
    depth = previous = 0
    decorating = code.startswith("@")
    for match in _LINE_START.finditer(code):
        offset = match.end()
        depth += _depth_change(code, previous, offset)
        previous = offset
        if depth < 0:
            return None
        if depth or _continued(code, offset):
            continue
        if decorating:  # a decorator starts the statement it decorates
            decorating = code.startswith("@", offset)
            continue
        starts.append(offset)
        decorating = code.startswith("@", offset)
    if depth + _depth_change(code, previous, len(code)) != 0:
        return None
    return starts


def _continued(code: str, offset: int) -> bool:
    """Whether the line before `offset` ends in a backslash (line breaks skipped)."""
    before = offset - 1
    while before >= 0 and code[before] in "\r\n":
        before -= 1
    return before >= 0 and code[before] == "\\"


def _depth_change(code: str, start: int, end: int) -> int:
    return sum(code.count(opening, start, end) for opening in "([{") - sum(code.count(closing, start, end) for closing in ")]}")


def _statement(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset) - 1


def _end(starts: list[int], index: int, text: str) -> int:
    return starts[index + 1] if index + 1 < len(starts) else len(text)


def _calls(text: str, code: str, skipped: list[tuple[int, int]], names: set[str]) -> list[int]:
    """Offsets of what may be a call that starts something (`LLM(`, `(vllm.LLM)(`,
    `subprocess.run(`, an imported `Popen(`), outside strings and comments. What follows a name
    is read in the blanked code (a comment may sit before the `(`) and, for the fields of an
    f-string, in the text."""
    found = []
    for offset in occurrences(text, sorted(names)):
        if not _starts_word(text, offset):  # (most of a tree's `LLM`s are vLLM's)
            continue
        end = offset + len(_word_at(text, offset, names))
        if _CALLED.match(code, end) or _CALLED.match(text, end):
            found.append(offset)
    for offset in occurrences(text, SPAWNING_MODULES):
        if not _starts_word(text, offset):  # (`os` in `pos`, `host`, `close`...)
            continue
        end = offset + len(_word_at(text, offset, SPAWNING_MODULES))
        called = [match.group(1) for match in (_ATTRIBUTE_CALLED.match(code, end), _ATTRIBUTE_CALLED.match(text, end)) if match]
        if any(name in SPAWNING_CALLS for name in called):
            found.append(offset)
    starts = [start for start, _ in skipped]
    return [offset for offset in found if not _inside(skipped, starts, offset)]


def _starts_word(text: str, offset: int) -> bool:
    return not offset or not (text[offset - 1].isalnum() or text[offset - 1] == "_")


def _word_at(text: str, offset: int, words) -> str:
    """The longest of `words` at `offset` (`AsyncEngineArgs` before `Async`...)."""
    return max((word for word in words if text.startswith(word, offset)), key=len)


def _inside(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    index = bisect.bisect_right(starts, offset) - 1
    return index >= 0 and offset < spans[index][1]

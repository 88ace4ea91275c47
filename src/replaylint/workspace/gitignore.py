"""git's ignore files, read by replaylint itself: `.gitignore`, `.git/info/exclude` and the file
`core.excludesFile` names, with git's rules (gitignore(5)).

git opens every ignore file it meets with a plain open(): a FIFO named `.gitignore` blocks it
until someone writes to it, and a listing that waits for git then stops at its time limit with
no ignore rule honoured. So replaylint asks git only for its index (`git ls-files --cached`,
which reads no ignore file) and reads the ignore files itself: regular files only, opened
without blocking, at most `IGNORE_FILE_BYTES` each, `MAX_PATTERNS` patterns and `MAX_EXPRESSIONS`
that need an expression (every name is tried against each of those); a `.gitignore` that is a
symlink is not followed, as git does not follow one. A file that is not read ignores nothing.

Most patterns are a name, a path or `*` and a suffix, looked up in tables; the others become
regular expressions (one per file for files, one for folders), in which a `*` is matched atomically (the earliest end of
what follows it, as `fnmatch` does): `*a*a*a*b` costs linear time on a long name, where plain
backtracking would cost a power of it. At most `MAX_DOUBLE_STARS` `**` per pattern.
"""

from __future__ import annotations

import re
from dataclasses import field
from itertools import count

from .. import files
from ..records import record

IGNORE_FILE_BYTES = 1024 * 1024
MAX_PATTERNS = 10_000
MAX_EXPRESSIONS = 256  # real files have tens: a name, a path or `*.suffix` needs none
MAX_DOUBLE_STARS = 3
_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "\\x21-\\x7e",
    "lower": "a-z",
    "print": "\\x20-\\x7e",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "space": " \\t\\n\\r\\f\\v",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
}


@record(unsafe_hash=True)
class Pattern:
    glob: str  # without `!`, the trailing `/` and a leading `/`
    negated: bool
    folders_only: bool  # `name/`
    anchored: bool  # has a `/` before its end: matched against the path below the file's folder, else the name


@record(unsafe_hash=True)
class _Expressions:
    """Patterns as one expression for files and one for folders, their patterns last first, each
    in a group: the group that matches is the last pattern that does, git's verdict."""

    for_files: re.Pattern | None
    for_folders: re.Pattern | None
    positions: dict[int, int]  # group number: the pattern's position in its file

    def last(self, subject: str, is_folder: bool) -> int:
        expression = self.for_folders if is_folder else self.for_files
        if expression is None:
            return -1
        found = expression.match(subject)
        return -1 if found is None else self.positions[found.lastindex or 0]


@record(unsafe_hash=True)
class IgnoreFile:
    """The patterns of one ignore file, matched against paths below its folder. Most patterns
    are a name, a path or `*` and a suffix, found in a table; the others are expressions.
    `in_folder` gives the patterns that may speak of one folder's entries: a walk asks of
    every name, and most patterns that hold a `/` cannot match in most folders."""

    patterns: tuple[Pattern, ...]
    by_name: dict[str, list[int]]  # positions of the patterns that are this name
    by_folder: dict[str, dict[str, list[int]]]  # of those that are a path: by its folder ("", "a/b/"), then name
    by_suffix: dict[int, dict[str, list[int]]]  # by the suffix's length
    suffixes: tuple[str, ...]  # all of them: one `endswith` tells most names from them
    names: _Expressions
    paths: _Expressions
    path_shapes: tuple[tuple[int, str], ...]  # each path expression's number of components and its literal start
    deep: tuple[tuple[int, Folders], ...]  # patterns with a `**` component, last first
    cost: int  # how many expressions a name is tried against, and one for the tables
    _seen_files: dict[str, int] = field(default_factory=dict, compare=False, repr=False)  # `last_by_name`'s
    _seen_folders: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def in_folder(self, prefix: str) -> InFolder:
        """The patterns that may match in the folder `prefix` below this file's ("" or "a/b/")."""
        components = prefix.count("/") + 1
        expressions = any(
            count == components and (prefix.startswith(start) if len(start) <= len(prefix) else start.startswith(prefix))
            for count, start in self.path_shapes
        )
        deep = tuple((position, folders, tuple(n for n in folders.needles if n not in prefix)) for position, folders in self.deep)
        return InFolder(self, prefix, self.by_folder.get(prefix, {}), expressions, deep)

    def last_by_name(self, name: str, is_folder: bool) -> int:
        """The last pattern without a `/` that matches `name` (-1: none); a tree repeats names."""
        seen = self._seen_folders if is_folder else self._seen_files
        found = seen.get(name)
        if found is None:
            found = self.names.last(name, is_folder)
            positions = self.by_name.get(name)
            if positions:
                found = max(found, self.last_of(positions, is_folder))
            if name.endswith(self.suffixes):
                size = len(name)
                for length, table in self.by_suffix.items():
                    positions = table.get(name[size - length :]) if size >= length else None
                    if positions:
                        found = max(found, self.last_of(positions, is_folder))
            seen[name] = found
        return found

    def last_of(self, positions: list[int], is_folder: bool) -> int:
        """The last of `positions` whose pattern applies to a file or folder."""
        for position in reversed(positions):
            if is_folder or not self.patterns[position].folders_only:
                return position
        return -1


@record(unsafe_hash=True)
class InFolder:
    """An ignore file's patterns as they apply in one folder below its own."""

    file: IgnoreFile
    prefix: str
    by_path: dict[str, list[int]]  # the path patterns that are a name in this folder
    expressions: bool  # whether a path expression may match here
    deep: tuple[tuple[int, Folders, tuple[str, ...]], ...]  # with the plain names the folder's path lacks

    def below(self, name: str) -> InFolder:
        return self.file.in_folder(self.prefix + name + "/")

    def verdict(self, name: str, is_folder: bool) -> bool | None:
        """True: ignored; False: re-included (`!`); None: no pattern speaks of the entry `name`."""
        file = self.file
        best = file.last_by_name(name, is_folder)
        if self.expressions:
            best = max(best, file.paths.last(self.prefix + name, is_folder))
        positions = self.by_path.get(name)
        if positions:
            best = max(best, file.last_of(positions, is_folder))
        for position, folders, needles in self.deep:
            if position <= best:
                break
            for needle in needles:
                if needle not in name:
                    break
            else:
                if (is_folder or not file.patterns[position].folders_only) and folders.match(self.prefix + name):
                    best = position
                    break
        return None if best < 0 else not file.patterns[best].negated


def read(path: str, follow: bool) -> IgnoreFile | None:
    """The ignore file at `path`, or None when it is absent, not a regular file, a symlink (when
    not `follow`), too large or unreadable."""
    try:
        data = files.read_regular(path, IGNORE_FILE_BYTES, follow=follow)
    except files.Unreadable:
        return None
    return parse(data.decode("utf-8", "surrogateescape"))  # as os.walk decodes names


def parse(text: str) -> IgnoreFile | None:
    patterns = [pattern for pattern in map(_pattern, text.split("\n")) if pattern is not None]
    if not patterns or len(patterns) > MAX_PATTERNS:
        return None
    by_name: dict[str, list[int]] = {}
    by_folder: dict[str, dict[str, list[int]]] = {}
    by_suffix: dict[int, dict[str, list[int]]] = {}
    names: list[tuple[int, Pattern, str]] = []
    paths: list[tuple[int, Pattern, str]] = []
    deep: list[tuple[int, Folders]] = []
    counter = count()
    for position, pattern in enumerate(patterns):
        if len(names) + len(paths) + len(deep) > MAX_EXPRESSIONS:
            return None
        if pattern.anchored and any(_CROSSES.fullmatch(part) for part in pattern.glob.split("/")):
            try:
                deep.append((position, Folders(pattern.glob)))
            except re.error:
                pass
        elif not _GLOB_CHARACTERS.search(pattern.glob):
            if pattern.anchored:
                folder, _, name = pattern.glob.rpartition("/")
                by_folder.setdefault(folder + "/" if folder else "", {}).setdefault(name, []).append(position)
            else:
                by_name.setdefault(pattern.glob, []).append(position)
        elif not pattern.anchored and pattern.glob.startswith("*") and not _GLOB_CHARACTERS.search(pattern.glob[1:]):
            by_suffix.setdefault(len(pattern.glob) - 1, {}).setdefault(pattern.glob[1:], []).append(position)
        else:
            expression = translate(pattern.glob, counter)
            try:
                re.compile(expression, re.DOTALL)
            except re.error:  # a range such as `[z-a]`: git's wildmatch matches nothing with it either
                continue
            (paths if pattern.anchored else names).append((position, pattern, expression))
    cost = len(names) + len(paths) + len(deep)
    if cost > MAX_EXPRESSIONS:
        return None
    suffixes = tuple(suffix for table in by_suffix.values() for suffix in table)
    expressions = (_expressions(names), _expressions(paths))
    shapes = tuple((pattern.glob.count("/") + 1, _GLOB_CHARACTERS.split(pattern.glob, 1)[0]) for _, pattern, _ in paths)
    return IgnoreFile(tuple(patterns), by_name, by_folder, by_suffix, suffixes, *expressions, shapes, tuple(deep[::-1]), cost + 1)


_CROSSES = re.compile(r"\*\*+")  # a component of only stars: any number of folders


class Folders:
    """An anchored pattern with `**` components, matched component by component: the parts
    between them are found at the earliest place they fit, which is where a match is if there
    is one (a `**` takes any number of folders), so a deep path costs linear time where an
    expression would try every split of it for every `**`."""

    def __init__(self, glob: str) -> None:
        parts = glob.split("/")
        self.parts: list[list[re.Pattern]] = [[]]
        for part in parts:
            if _CROSSES.fullmatch(part):
                self.parts.append([])
            else:
                self.parts[-1].append(re.compile(translate(part) + r"\Z", re.DOTALL))
        self.inside = _CROSSES.fullmatch(parts[-1]) is not None  # `a/**`: below a, never a itself
        # Its plain names, each of which a matching path contains: most paths lack one (a tree asks every file).
        self.needles = tuple(part for part in parts if not _CROSSES.fullmatch(part) and not _GLOB_CHARACTERS.search(part))

    def match(self, relative: str) -> bool:
        if not all(needle in relative for needle in self.needles):
            return False
        names = relative.split("/")
        first, *middle, last = self.parts
        if not _fits(first, names, 0):
            return False
        at = len(first)
        for part in middle:
            found = next((start for start in range(at, len(names) - len(part) + 1) if _fits(part, names, start)), None)
            if found is None:
                return False
            at = found + len(part)
        start = len(names) - len(last)
        return start >= at + self.inside and _fits(last, names, start)


def _fits(part: list[re.Pattern], names: list[str], start: int) -> bool:
    return start >= 0 and start + len(part) <= len(names) and all(glob.match(names[start + at]) for at, glob in enumerate(part))


_GLOB_CHARACTERS = re.compile(r"[*?\[\\]")


def _expressions(patterns: list[tuple[int, Pattern, str]]) -> _Expressions:
    positions: dict[int, int] = {}

    def last_first(chosen: list[tuple[int, Pattern, str]], kind: str) -> re.Pattern | None:
        if not chosen:
            return None
        ordered = chosen[::-1]
        expression = re.compile("|".join(f"(?P<{kind}{at}>{text})\\Z" for at, (_, _, text) in enumerate(ordered)), re.DOTALL)
        for at, (position, _, _) in enumerate(ordered):
            positions[expression.groupindex[f"{kind}{at}"]] = position
        return expression

    for_files = last_first([entry for entry in patterns if not entry[1].folders_only], "f")
    return _Expressions(for_files, last_first(patterns, "d"), positions)


def _pattern(line: str) -> Pattern | None:
    if line.endswith("\r"):
        line = line[:-1]
    while line.endswith(" ") and not line.endswith("\\ "):
        line = line[:-1]
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    folders_only = line.endswith("/")
    line = line.rstrip("/")
    if not line or line.count("**") > MAX_DOUBLE_STARS:
        return None
    anchored = "/" in line
    return Pattern(line.lstrip("/") if anchored else line, negated, folders_only, anchored)


def translate(glob: str, names=None) -> str:
    """A gitignore glob as a regular expression: `*` and `?` stop at `/`, `**` as a whole
    component crosses folders, `[...]` as in wildmatch, `\\` escapes."""
    names = names if names is not None else count()
    tokens = _tokens(glob)
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token != "*":
            out.append(token)
            continue
        following = index
        while following < len(tokens) and tokens[following] != "*" and not tokens[following].startswith(_CROSSING):
            following += 1
        if following < len(tokens) and following > index:  # literals, then another star
            out.append(_atomic("[^/]*?" + "".join(tokens[index:following]), names))
            index = following
        else:
            out.append("[^/]*")
    return "".join(out)


_CROSSING = ("(?:[^/]*/)*", ".*")  # `**/` and a final `/**`


def _tokens(glob: str) -> list[str]:
    """The glob as expressions, one per character or bracket; `*` for a star within a component."""
    tokens: list[str] = []
    at, end = 0, len(glob)
    while at < end:
        char = glob[at]
        if char == "*":
            stop = at
            while stop < end and glob[stop] == "*":
                stop += 1
            whole = stop - at >= 2 and (at == 0 or glob[at - 1] == "/") and (stop == end or glob[stop] == "/")
            if whole:
                tokens.append(_CROSSING[1] if stop == end else _CROSSING[0])
                stop += stop < end
            else:
                tokens.append("*")
            at = stop
        elif char == "?":
            tokens.append("[^/]")
            at += 1
        elif char == "[":
            token, at = _bracket(glob, at)
            tokens.append(token)
        elif char == "\\":
            tokens.append(re.escape(glob[at + 1]) if at + 1 < end else "(?!)")  # git: a trailing `\\` matches nothing
            at += 2
        else:
            tokens.append(re.escape(char))
            at += 1
    return tokens


def _atomic(expression: str, names) -> str:
    """`(?>expression)`, in a spelling Python 3.10 reads too."""
    name = f"a{next(names)}"
    return f"(?=(?P<{name}>{expression}))(?P={name})"


def _bracket(glob: str, at: int) -> tuple[str, int]:
    """`[...]` at `at`: its expression and where the glob goes on; a `[` without its `]` is
    itself. A bracket never matches `/`."""
    position, end = at + 1, len(glob)
    negated = position < end and glob[position] in "!^"
    position += negated
    items: list[str] = []
    first = True
    while position < end and (glob[position] != "]" or first):
        first = False
        if glob.startswith("[:", position):
            close = glob.find(":]", position + 2)
            if close != -1:
                items.append(_CLASSES.get(glob[position + 2 : close], ""))
                position = close + 2
                continue
        if glob[position] == "\\" and position + 1 < end:
            position += 1
        low = glob[position]
        if position + 2 < end and glob[position + 1] == "-" and glob[position + 2] != "]":
            high_at = position + 2 + (glob[position + 2] == "\\" and position + 3 < end)
            items.append(f"{re.escape(low)}-{re.escape(glob[high_at])}")
            position = high_at + 1
            continue
        items.append(re.escape(low))
        position += 1
    if position >= end:
        return re.escape("["), at + 1
    body = "".join(items)
    return (f"[^/{body}]" if negated else f"(?!/)[{body}]") if body else "(?!)", position + 1

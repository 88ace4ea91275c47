"""Suppression comments: `# noqa: RPL001` (Python), `# replaylint: ignore[RPL001]` (every file type).

A comment on any line of a finding's span, or alone on the line above it (or above the first
line of the finding's launch: a comment cannot sit inside a continued shell command), suppresses
the listed codes or rule names (none listed: every rule). A finding its launch places at another
line or file is also covered by a suppression on the launch's first or last line that names its
code or lists none (not a bare `# noqa`, other linters' too), when each launch that makes it has
one. `# replaylint: noqa` in the first comment block of a file suppresses the whole file (or the
listed codes). A reason may follow `--` (it runs to the end of the line). In Python a blanket
`# noqa` (no codes) suppresses every finding on its own line, as in ruff; it belongs to other
linters too, so RPL901 never calls it unused. In a Dockerfile only comment lines count: Docker
has no trailing comments (`CMD ["m"]  # x` is a shell-form command, `ENV A=1  # x` an error or a value).

`unused` gives what RPL901 removes: a whole directive (its whole line when nothing else is on
it), or only its unused codes when it lists others (other linters' codes in a `# noqa`, codes
this run does not check, codes that did suppress something). Removals are deletions that
leave no trailing whitespace, never touch text outside the comment, and never leave text that
was comment outside of one.
"""

from __future__ import annotations

import re
from dataclasses import field

from ..model import Finding, LineIndex, Span
from ..records import record
from ..regexes import on_use
from ..rules import BY_NAME
from .directive_lines import line_at, naming_lines

_IGNORE = re.compile(r"#\s*replaylint:\s*ignore(?:\[(?P<codes>[^\]\r\n]*)\])?(?P<reason>\s*--[^\r\n]*)?", re.IGNORECASE)
# Codes as flake8 and ruff read them (`E501`, `RPL003`), or rule names (`sampling-mask-...`),
# separated by commas and/or spaces; the list ends at the first other word (`--`, prose).
_CODE = r"[A-Za-z]+[0-9]+|[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)+"
_NOQA = re.compile(
    rf"#\s*noqa:(?P<space>\s*)(?P<codes>(?:{_CODE})(?:(?:\s*,\s*|\s+)(?:{_CODE}))*)(?:\s*,)?(?P<reason>\s*--[^\r\n]*)?",
    re.IGNORECASE,
)
# ruff's blanket form: `noqa` not followed by a colon (codes written without one are read as blanket too).
_BLANKET_NOQA = re.compile(r"#\s*noqa(?![\w:])(?!\s*:)", re.IGNORECASE)
_ITEM = on_use(r"[^,\s]+")
_FILE_NOQA = re.compile(r"#\s*replaylint:\s*noqa(?:\[(?P<brackets>[^\]]*)\]|:\s*(?P<codes>[A-Za-z0-9_\-, ]+))?", re.IGNORECASE)

ALL = frozenset({"*"})


@record(unsafe_hash=True)
class Item:
    """One code or rule name as written in a directive: its code (`RPL003`, `E501`), offsets."""

    code: str
    start: int
    end: int


@record
class Suppression:
    line: int
    codes: frozenset[str]
    own_line: bool  # a comment line: it also covers the line below
    start: int  # offset of the comment's `#`
    end: int  # just after the directive: its codes, its `-- reason`
    items: tuple[Item, ...] = ()  # every code written, other linters' too; empty: none (all)
    list_start: int = 0  # just after `[` or `noqa:`, where the codes begin
    line_start: int = 0
    text: str = ""  # the line, without its line break
    break_len: int = 0
    used: set[str] = field(default_factory=set)
    blanket: bool = False  # a bare noqa comment: other linters' too, never reported unused

    def matches(self, code: str) -> bool:
        return self.codes is ALL or code in self.codes

    @property
    def comment(self) -> str:
        return self.text[self.start - self.line_start : self.end - self.line_start]


@record(unsafe_hash=True)
class Unused:
    """What RPL901 reports and removes: a whole suppression or some of its codes.

    The fix deletes `removal`. `comment` is the directive as written, at `directive`.
    """

    line: int
    codes: frozenset[str]  # the unused codes (ALL: a directive without codes)
    comment: str
    directive: tuple[int, int]
    removal: tuple[int, int]
    whole: bool  # the whole directive goes, not only some of its codes


def _code(item: str) -> str:
    rule = BY_NAME.get(item)
    return rule.code if rule else item.upper()


def _codes(text: str | None) -> frozenset[str]:
    if not text:
        return ALL
    text = text.split("--", 1)[0]
    codes = set()
    for item in re.split(r"[,\s]+", text.strip()):
        if item:
            codes.add(_code(item))
    return frozenset(codes) or ALL


# Formats where `#` starts a comment only at the start of a line: a `#` after a systemd `ExecStart=`
# or a tox command is one of its words, and Docker has no trailing comments.
COMMENT_LINES_ONLY = ("dockerfile", "systemd", "tox")


def _kind(path: str) -> str | None:
    from ..frontends import kind_for

    return kind_for(path)


def scan(index: LineIndex, python: bool) -> tuple[dict[int, Suppression], frozenset[str]]:
    """Line suppressions by line number, and the file-level codes (empty: none). Every directive
    names noqa or replaylint: the other lines are not read (a module has thousands)."""
    by_line: dict[int, Suppression] = {}
    kind = "python" if python else _kind(index.path)
    comment_lines_only = kind in COMMENT_LINES_ONLY
    comments: dict[int, int] | None = None  # Python, shell: line -> column of its comment's `#`
    for number in naming_lines(index):
        line, offset = line_at(index, number)
        own_line = line.strip().startswith("#")
        if "#" in line and not _FILE_NOQA.search(line) and (own_line or not comment_lines_only):
            suppression = _suppression(line, number, offset, own_line, python)
            if suppression is not None and not _ours(suppression):
                suppression = None  # a noqa of E501 only: another linter's (and no need to read the file's strings)
            if suppression is not None and kind in ("python", "shell"):
                if comments is None:
                    comments = _python_comments(index.text) if python else _shell_comments(index.text)
                column = comments.get(number, -1) if comments else 0  # {}: the text could not be read
                suppression = (
                    _suppression(line, number, offset, own_line, python, column) if column > 0 else suppression if column == 0 else None
                )
            if suppression is not None:
                by_line[number] = suppression
    return by_line, _file_codes(index)


def _file_codes(index: LineIndex) -> frozenset[str]:
    """The codes of `# replaylint: noqa` in the file's first comment block (empty: none)."""
    file_codes: frozenset[str] = frozenset()
    for number in range(1, index.line_count + 1):
        stripped = line_at(index, number)[0].strip()
        if stripped.startswith("#"):
            header = _FILE_NOQA.search(stripped)
            if header:
                file_codes = _codes(header.group("brackets") or header.group("codes"))
        elif stripped:
            break
    return file_codes


def _ours(suppression: Suppression) -> bool:
    """Whether a suppression names anything of replaylint's (or everything)."""
    return suppression.codes is ALL or any(code.startswith("RPL") for code in suppression.codes)


def _python_comments(text: str) -> dict[int, int]:
    """The column of the comment of each line of a Python text that has one: a `# noqa` inside
    a string is text. Empty when the text does not tokenize (then the whole line is searched)."""
    import io
    import tokenize

    if text.count("\r") != text.count("\r\n"):
        return {}  # a lone `\r` ends a line for LineIndex, not for tokenize's line numbers
    comments = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.start[1]
    except (tokenize.TokenError, SyntaxError):
        return {}
    return comments or {0: 0}  # tokenized, no comment at all: not empty, so nothing matches


def _shell_comments(text: str) -> dict[int, int]:
    """The column of the comment of each line of a shell script that has one: bash starts a
    comment with a `#` at the start of a word, outside quotes (which may span lines). Empty when
    the quotes do not balance (then the whole line is searched)."""
    comments: dict[int, int] = {}
    line, line_start, quote, position = 1, 0, "", 0
    word_start = True
    while position < len(text):
        char = text[position]
        if char == "\\" and text[position + 1 : position + 2] == "\n":  # a continued line
            line, line_start, word_start = line + 1, position + 2, True
            position += 2
            continue
        if char == "\n":
            line, line_start, word_start = line + 1, position + 1, not quote
        elif quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                position += 1
        elif char == "\\":
            position += 1
            word_start = False
        elif char in "'\"":
            quote, word_start = char, False
        elif char == "#" and word_start:
            comments[line] = position - line_start
            end = text.find("\n", position)
            position = len(text) if end == -1 else end
            continue
        else:
            word_start = char in " \t;&|()<>"
        position += 1
    return {} if quote else comments or {0: 0}


def _suppression(line: str, number: int, offset: int, own_line: bool, python: bool, column: int = 0) -> Suppression | None:
    """The suppression of a line, searched from `column` (where its comment starts)."""
    match = _IGNORE.search(line, column)
    if match is not None:
        codes = _codes(match.group("codes"))
        listed = (match.group("codes") or "").split("--", 1)[0]  # as `_codes` reads it
        spans = [(m.group(), m.start(), m.end()) for m in _ITEM.finditer(listed)]
        base = match.start("codes") if match.group("codes") is not None else -1
    elif python:
        match = _NOQA.search(line, column)
        if match is None:
            return _blanket(line, number, offset, column)
        codes = frozenset(c for c in _codes(match.group("codes")) if c.startswith("RPL"))
        if not codes:
            return None  # other linters' codes only
        spans = [(m.group(), m.start(), m.end()) for m in re.finditer(_CODE, match.group("codes"))]
        base = match.start("codes")
    else:
        return None
    items = tuple(Item(_code(text), offset + base + start, offset + base + end) for text, start, end in spans)
    list_start = match.start("space") if match.re is _NOQA else base if base >= 0 else match.end()
    content = line.rstrip("\r\n")
    end = match.start() + len(match.group().rstrip())
    return Suppression(
        number,
        codes,
        own_line,
        offset + match.start(),
        offset + end,
        items,
        offset + list_start,
        offset,
        content,
        len(line) - len(content),
    )


def _blanket(line: str, number: int, offset: int, column: int) -> Suppression | None:
    """A bare `# noqa`: every code, on its own line only (as ruff reads it)."""
    match = _BLANKET_NOQA.search(line, column)
    if match is None:
        return None
    content = line.rstrip("\r\n")
    start, end = offset + match.start(), offset + match.end()
    return Suppression(number, ALL, False, start, end, (), end, offset, content, len(line) - len(content), blanket=True)


def apply(findings: list[Finding], index: LineIndex, python: bool) -> tuple[list[Finding], list[Suppression]]:
    """The findings no suppression comment covers, and every line suppression of the file."""
    if not _may_suppress(index.text):
        return findings, []
    if _kind(index.path) == "notebook":
        return _apply_in_cells(findings, index), []
    by_line, file_codes = scan(index, python)
    kept = []
    for finding in findings:
        if file_codes and (file_codes is ALL or finding.code in file_codes):
            continue
        covering, own_share = _covering(finding, by_line, index.path)
        for suppression in (*covering, *own_share):
            suppression.used.add(finding.code)
        if not covering:
            kept.append(finding)
    return kept, list(by_line.values())


def _covering(finding: Finding, by_line: dict[int, Suppression], path: str) -> tuple[list[Suppression], list[Suppression]]:
    """The suppressions of the file at `path` that cover a finding (on a line of it or alone
    above it; those at its launch, when there is one at each launch that makes it), and those
    at some of its launches only: used for their own launch's share, the finding kept."""
    span, code = finding.span, finding.code
    above = by_line.get(span.start_line - 1)
    here = (
        [by_line.get(span.start_line), by_line.get(span.end_line), above if above and above.own_line else None] if span.path == path else []
    )
    launches = (finding.launch.span, *finding.shared_with) if finding.launch is not None else ()
    at_launches = [_at_launch(launch, span, by_line, code) for launch in launches if launch.path == path]
    shares = [suppression for found in at_launches for suppression in found]
    whole = bool(launches) and len(at_launches) == len(launches) and all(at_launches)
    return [s for s in (*here, *(shares if whole else ())) if s is not None and s.matches(code)], [] if whole else shares


def _at_launch(launch: Span, span: Span, by_line: dict[int, Suppression], code: str) -> list[Suppression]:
    """The suppressions of `code` at one launch: alone above its first line; and, for a finding
    it placed at another line or file (RPL206 at the `os.environ[...] = "0"` above it), on its
    first or last line, naming the code (a bare `# noqa` is other linters' too: its line only)."""
    above = by_line.get(launch.start_line - 1)
    found = [above] if above is not None and above.own_line and above.matches(code) else []
    if span.path != launch.path or not launch.start_line <= span.start_line <= launch.end_line:
        named = (by_line.get(line) for line in dict.fromkeys((launch.start_line, launch.end_line)))
        found += [s for s in named if s is not None and not s.blanket and s.matches(code)]
    return found


def _apply_in_cells(findings: list[Finding], index: LineIndex) -> list[Finding]:
    """A notebook's findings no comment in its code cells covers: the cells' code is read as one
    Python text (as ruff reads a notebook), each finding moved into it. A finding outside the
    cells' code (none is) is kept."""
    from dataclasses import replace

    from ..frontends.notebook.cell_sources import notebook_of

    notebook = notebook_of(index.path, index.text)
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"] if notebook is not None else []
    starts, position = [], 0
    for cell in cells:
        starts.append(position)
        position += len(cell.code) + 1
    code = LineIndex(index.path + ".py", "\n".join(cell.code for cell in cells))

    def moved(span):
        for cell, start in zip(cells, starts):
            if cell.file_start <= span.start <= cell.file_end:
                return code.span(start + cell.from_file(span.start), start + cell.from_file(min(span.end, cell.file_end)))
        return None

    translated: dict[int, Finding] = {}
    for finding in findings:
        span = moved(finding.span) if finding.span.path == index.path else None  # one in another file is its own
        launch_span = moved(finding.launch.span) if finding.launch is not None else None
        if span is not None:
            launch = replace(finding.launch, span=launch_span) if finding.launch is not None and launch_span is not None else None
            shared = tuple(moved(other) or other for other in finding.shared_with)
            translated[id(finding)] = replace(finding, span=span, launch=launch, shared_with=shared)
    kept_translated, _ = apply(list(translated.values()), code, True)
    kept_ids = {id(finding) for finding in kept_translated}
    return [f for f in findings if id(f) not in translated or id(translated[id(f)]) in kept_ids]


def _may_suppress(text: str) -> bool:
    """Whether a text can hold a suppression: every one is a comment naming noqa or replaylint
    (a non-ASCII text is scanned: IGNORECASE matches letters `lower()` leaves apart)."""
    if "#" not in text:
        return False
    if not text.isascii():
        return True
    lowered = text.lower()
    return "noqa" in lowered or "replaylint" in lowered


def unused(suppressions: list[Suppression], enabled: frozenset[str]) -> list[Unused]:
    """What silenced nothing this run, among codes this run checks: whole suppressions, or the
    unused codes of one that lists others (kept: other linters' codes, codes this run does not
    check, codes that suppressed a finding)."""
    found = []
    for suppression in suppressions:
        if suppression.blanket:
            continue
        if suppression.codes is ALL:
            if not suppression.used:
                found.append(_whole(suppression))
            continue
        stale = {code for code in suppression.codes if code in enabled and code not in suppression.used}
        if not stale:
            continue
        if all(item.code in stale for item in suppression.items):
            found.append(_whole(suppression))
        else:
            found.extend(_partial(suppression, stale))
    return found


def _whole(s: Suppression) -> Unused:
    line = s.text
    first, last = s.start - s.line_start, s.end - s.line_start  # the directive, in `line`
    before, after = line[:first], line[last:]
    code_end = len(before.rstrip())  # the end of the text before the directive
    rest = len(line) - len(after.lstrip())  # the start of the text after it
    if not before.strip() and not after.strip():  # the directive alone: its whole line goes
        end = s.line_start + len(line) + s.break_len
        return Unused(s.line, s.codes, s.comment, (s.start, s.end), (s.line_start, end), True)
    if not after.strip():  # a directive ending the line: the spaces before it go too
        start, end = code_end, len(line)
    elif after.lstrip().startswith("#"):  # `x = 1  # noqa: RPL003  # type: ignore`
        start, end = code_end, (rest if code_end == 0 else last)
    else:  # `x = 1  # noqa: RPL003 reason`: what follows was comment and stays one, `# reason`
        start, end = first + 1, (rest - 1 if rest > last else rest)
    return _unused(s, s.codes, start, end, True)


def _partial(s: Suppression, stale: set[str]) -> list[Unused]:
    """One removal per run of adjacent unused codes: runs are apart, so removals never overlap."""
    items = s.items
    found = []
    i = 0
    while i < len(items):
        if items[i].code not in stale:
            i += 1
            continue
        j = i
        while j + 1 < len(items) and items[j + 1].code in stale:
            j += 1
        if i > 0:  # `E501, RPL101`: from the end of the code kept before it
            start, end = items[i - 1].end, items[j].end
            if not s.text[end - s.line_start :].strip():
                end = s.line_start + len(s.text)
        else:  # `RPL101, E501`: up to the next code, keeping the spaces after `[` or `noqa:`
            lead = items[0].start - s.list_start
            start, end = s.list_start, items[j + 1].start - lead
            if end < items[j].end:
                end = items[j + 1].start
        codes = frozenset(item.code for item in items[i : j + 1])
        found.append(_unused(s, codes, start - s.line_start, end - s.line_start, False))
        i = j + 1
    return found


def _unused(s: Suppression, codes: frozenset[str], start: int, end: int, whole: bool) -> Unused:
    """The deletion of `s.text[start:end]` (offsets in the line)."""
    return Unused(s.line, codes, s.comment, (s.start, s.end), (s.line_start + start, s.line_start + end), whole)

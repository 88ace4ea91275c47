"""IPython's own lines in a code cell, told apart from its Python (IPython's `inputtransformer2`):

- `!cmd`, `!!cmd` and `name = !cmd` run `cmd` in a shell (a subshell each: nothing but the
  environment of the kernel carries over); a line ending in `\\` continues. IPython fills in
  `{expr}` (a Python value: unknown here, except `{sys.executable}`, the kernel's Python) and
  `$name` (a Python variable, or the shell's when there is none: unknown either way); `$$` is `$`.
- `%%bash`, `%%sh`, `%%script bash` (or sh, zsh, a path to one), `%%!` and `%%system` run the
  rest of the cell as a shell script. `%%time`, `%%timeit`, `%%capture`, `%%prun` run it as
  Python; any other cell magic (`%%writefile`, `%%html`, ...) is not Python.
- `%env NAME=value` (or `NAME value`) and `%set_env` set the kernel's environment, which every
  later shell command inherits. IPython takes the value as written (quotes are kept).
- `%sx cmd` and `%system cmd` run `cmd` in a shell, as `!` does.
- Any other line magic (`%pip install ...`, `%time ...`, `x = %who`) and help lines (`obj?`)
  are not Python.

What is not Python is replaced for the Python reader by a placeholder of the same length (`0`
then spaces, at the line's indentation: a valid statement where the magic stood, so an `if`
whose body is a magic still parses; continuation lines become blank), as nbqa and ruff do.
Offsets and lines of the cell are unchanged.
"""

from __future__ import annotations

import re
from dataclasses import field

from ...records import record
from ...shells import SHELLS

__all__ = ["CellReading", "EnvWrite", "ShellPiece", "read_cell"]

_LINE = re.compile(r"[^\n]*(?:\n|$)")
_SHELL_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*!")
_MAGIC_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.]*\s*=\s*%")
_ENV = re.compile(r"%(?:env|set_env)\s+(?P<name>[A-Za-z_]\w*)(?:\s*=\s*|\s+)(?P<value>\S.*?)\s*$")
_EXPANSION = re.compile(r"\$\$|\{[^{}\n]*\}|\\.|.", re.DOTALL)
_SHELL_MAGICS = ("%sx ", "%system ")  # line magics that run the rest of the line in a shell
_SHELL_CELLS = {"bash", "sh", "!", "system", "sx"}
_PYTHON_CELLS = {"time", "timeit", "capture", "prun", "debug"}


@record(unsafe_hash=True)
class ShellPiece:
    """A shell script the cell runs: its text, and the cell offset of each of its characters
    (`starts[len(text)]` is where it ends)."""

    text: str
    starts: tuple[int, ...]
    line: str  # how it is written, for messages: `!vllm serve ...`, `%%bash`


@record(unsafe_hash=True)
class EnvWrite:
    """`%env NAME=value`: the cell offsets of the whole magic and of its value."""

    name: str
    value: str
    start: int
    end: int
    value_start: int
    value_end: int


@record
class CellReading:
    python: str
    steps: list[ShellPiece | EnvWrite] = field(default_factory=list)


def read_cell(code: str) -> CellReading:
    lines = [(match.start(), match.group()) for match in _LINE.finditer(code) if match.group()]
    python = list(code)
    reading = CellReading("")
    first = lines[0][1].strip() if lines else ""
    if first.startswith("%%"):
        words = first[2:].split()
        magic = words[0] if words else ""
        program = words[1].rsplit("/", 1)[-1] if magic == "script" and len(words) > 1 else ""
        if magic not in _PYTHON_CELLS:
            _blank(python, 0, len(code))
            if magic in _SHELL_CELLS or program in SHELLS:
                body = lines[1][0] if len(lines) > 1 else len(code)
                reading.steps.append(ShellPiece(code[body:], tuple(range(body, len(code) + 1)), f"%%{magic}"))
            reading.python = "".join(python)
            return reading
        _blank(python, 0, len(lines[0][1]))
        lines = lines[1:]
    index = 0
    while index < len(lines):
        start, line = lines[index]
        index += 1
        body = line.lstrip(" \t")
        indent = len(line) - len(body)
        bang = _bang(body)
        if bang is not None:
            end_line = index
            while lines[end_line - 1][1].rstrip("\r\n").endswith("\\") and end_line < len(lines):
                end_line += 1
            end = lines[end_line - 1][0] + len(lines[end_line - 1][1].rstrip("\r\n"))
            reading.steps.append(_shell_line(code, start + indent + bang, end, body))
            _placeholder(python, start + indent, start + len(line.rstrip("\r\n")))
            _blank(python, start + len(line), end)
            index = end_line
        elif body.startswith(_SHELL_MAGICS):
            command = start + indent + body.index(" ")
            reading.steps.append(_shell_line(code, command, start + len(line.rstrip("\r\n")), body))
            _placeholder(python, start + indent, start + len(line.rstrip("\r\n")))
        elif body.startswith("%") or _MAGIC_ASSIGNMENT.match(body) or _is_help(body):
            env = _ENV.match(body.rstrip("\r\n"))
            if env is not None:
                at = start + indent
                reading.steps.append(
                    EnvWrite(env["name"], env["value"], at, at + env.end("value"), at + env.start("value"), at + env.end("value"))
                )
            _placeholder(python, start + indent, start + len(line.rstrip("\r\n")))
    reading.python = "".join(python)
    return reading


def _bang(body: str) -> int | None:
    """Where the command of a shell line starts in its text (after `!`, `!!`, `name = !`)."""
    if body.startswith("!!"):
        return 2
    if body.startswith("!"):
        return 1
    assignment = _SHELL_ASSIGNMENT.match(body)
    return assignment.end() if assignment else None


def _is_help(body: str) -> bool:
    text = body.rstrip()
    return text.startswith("?") or (text.endswith("?") and "#" not in text and not text.startswith(("'", '"')))


def _shell_line(code: str, start: int, end: int, body: str) -> ShellPiece:
    """The command of a `!` line as the shell gets it after IPython's expansions."""
    text: list[str] = []
    starts: list[int] = []
    holes = 0
    for match in _EXPANSION.finditer(code, start, end):
        token = match.group()
        if token == "$$":
            replacement = "$"
        elif token.startswith("{") and len(token) > 2:
            holes += 1
            expression = token[1:-1].strip()
            replacement = "python" if expression == "sys.executable" else f"${{__replaylint_ipython_{holes}}}"
        else:
            text.append(token)
            starts.extend(range(match.start(), match.end()))
            continue
        text.append(replacement)
        starts.extend([match.start()] * len(replacement))
    starts.append(end)
    return ShellPiece("".join(text), tuple(starts), body.strip())


def _placeholder(python: list[str], start: int, end: int) -> None:
    if end > start:
        python[start] = "0"
        _blank(python, start + 1, end)


def _blank(python: list[str], start: int, end: int) -> None:
    for offset in range(start, end):
        if python[offset] not in "\r\n":
            python[offset] = " "

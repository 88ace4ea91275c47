"""The bash grammar (tree-sitter-bash), loaded once per process, and what a parse tells us; the
HCL grammar (tree-sitter-hcl, for Nomad jobs) is parsed here too, on the same terms (`parse`'s
`grammar`).

tree-sitter works on UTF-8 bytes; replaylint's spans are offsets into the decoded text, so
`Parsed` carries the byte -> character map. tree-sitter-bash is error-tolerant and also
stumbles on some valid bash, so an ERROR node alone does not make a file unparsable: `bash -n`
has the last word when it is installed (see `rejection`).

The parse is charged to the file's `Budget` before it starts (a microsecond a token, about what
tree-sitter takes; a token costs it about 230 bytes too, so the work bound keeps a parse within
the memory bound). tree-sitter's error recovery is another matter: 30 KB of `a|a|...|` take it
2.4 GB in one call that reports no progress, and it crashes when memory runs out. So a text
longer than `TRIAL_BYTES` is parsed first in a child process (`trial`) held to what is left of
the budget (memory and time); only a parse that ends there is done here.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from array import array
from itertools import chain, repeat
from typing import Any

from ...records import record
from ...source import Budget, OverBudget, address_room, bound_address_space
from .backtick_comments import hidden

Node = Any  # tree_sitter.Node; typed loosely so that importing this module stays cheap

_BASH_CHECK_SECONDS = 5
_BASH_LINE = re.compile(r"line (\d+): (.*)")
# Shells whose syntax bash does not judge (bash -n would reject valid zsh or ksh).
_FOREIGN_SHELLS = re.compile(r"^#!\S*(?:/|\s)(?:env\s+)?(?:zsh|ksh|mksh|fish|csh|tcsh)\b")


@functools.lru_cache(maxsize=2)
def _language(grammar: str = "bash") -> Any:
    import tree_sitter

    if grammar == "hcl":
        import tree_sitter_hcl

        return tree_sitter.Language(tree_sitter_hcl.language())
    import tree_sitter_bash

    return tree_sitter.Language(tree_sitter_bash.language())


def _parser(grammar: str = "bash") -> Any:
    import tree_sitter

    return tree_sitter.Parser(_language(grammar))


@record
class Parsed:
    """One parse of one text: the tree, and offsets of its bytes in the text."""

    text: str
    root: Node
    _char_of_byte: array | None

    def offset(self, byte: int) -> int:
        """The text offset of a byte offset (identity for ASCII text)."""
        if self._char_of_byte is None:
            return byte
        return self._char_of_byte[min(byte, len(self._char_of_byte) - 1)]

    def start(self, node: Node) -> int:
        return self.offset(node.start_byte)

    def end(self, node: Node) -> int:
        return self.offset(node.end_byte)

    def source(self, node: Node) -> str:
        return self.text[self.start(node) : self.end(node)]


def encode(text: str) -> tuple[bytes, str]:
    """The file's bytes again: stray bytes were decoded as surrogates (`surrogateescape`)."""
    try:
        return text.encode("utf-8", "surrogateescape"), "surrogateescape"
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass"), "surrogatepass"


def parse(text: str, budget: Budget | None = None, offset: int | None = None, grammar: str = "bash") -> Parsed:
    """The tree of a script (`grammar` "hcl": of an HCL file); `budget` (a fresh one when None) pays
    for it, and `offset` (in the file) is where a parse beyond it is reported. Raises OverBudget."""
    data, errors = encode(text)
    budget = budget if budget is not None else Budget()
    read = (hidden(data) if grammar == "bash" else None) or data  # same length: byte offsets hold
    budget.charge(tokens(read), offset)
    if len(read) > TRIAL_BYTES:
        trial(read, budget, offset, grammar)
    tree = _parser(grammar).parse(read)
    return Parsed(text, tree.root_node, _char_of_byte(text, data, errors))


def _char_of_byte(text: str, data: bytes, errors: str) -> array | None:
    """For each byte of `data`, the offset in `text` of the character it encodes (and one slot
    for the end); None for ASCII text, where the two are the same. An array: a list of 8 MiB
    took 300 MB."""
    if len(data) == len(text):
        return None
    widths = (len(char.encode("utf-8", errors)) for char in text)
    char_of_byte = array("l", chain.from_iterable(repeat(index, width) for index, width in enumerate(widths)))
    char_of_byte.append(len(text))
    return char_of_byte


# Bytes that end a word, and those that are tokens themselves, for `tokens`.
_BLANKS = b" \t\r\v\f"
_OPERATORS = b"\n;|&()<>{}$`'\"="
_KINDS = bytes(32 if byte in _BLANKS else 59 if byte in _OPERATORS else 97 for byte in range(256))  # " ", ";", "a"


def tokens(data: bytes) -> int:
    """About how many tokens tree-sitter-bash reads in `data`: operators, and runs of other
    bytes between blanks and operators (counted in C: a few milliseconds for 8 MiB)."""
    kinds = data.translate(_KINDS)
    return kinds.count(b";") + kinds.count(b" a") + kinds.count(b";a") + kinds.startswith(b"a")


TRIAL_BYTES = 4096  # the error recovery of a text this short takes 60 MB and half a second at most (`a|` repeated)
_TRIAL_FAILED = 3  # the child's exit status when the parse raised
_SHOWN = {"hcl": "HCL"}  # grammars by the name a message gives them
_LONGEST_WAIT = 24 * 3600.0  # seconds: a budget without a deadline (the editor's tests) still has a bound here


def trial(data: bytes, budget: Budget, offset: int | None, grammar: str = "bash") -> None:
    """Parses `data` in a child process given what is left of `budget`: its memory as address
    space, its deadline as a time limit. Raises OverBudget when the child does not end well
    in time (out of memory tree-sitter crashes: the child is the one to)."""
    memory, seconds = budget.left()
    seconds = min(seconds, _LONGEST_WAIT)
    room = address_room()  # the parse done here after the trial must fit what this process may still take
    memory = memory if room is None else min(memory, room)
    status = _forked(data, memory, seconds, grammar) if _can_fork() else _spawned(data, memory, seconds, grammar)
    if status is None:
        raise OverBudget(f"the {_SHOWN.get(grammar, grammar)} parser takes longer than the {budget.seconds:g} s one file may take", offset)
    if status != 0:
        raise OverBudget(
            f"the {_SHOWN.get(grammar, grammar)} parser needs more than the {budget.memory >> 20} MiB of memory one file may take", offset
        )


def _can_fork() -> bool:
    """fork exists, is safe (macOS libraries may not survive it) and no other thread runs."""
    threading = sys.modules.get("threading")
    return hasattr(os, "fork") and sys.platform != "darwin" and (threading is None or threading.active_count() == 1)


def _forked(data: bytes, memory: int, seconds: float, grammar: str) -> int | None:
    """The exit status of a forked child that parses `data`; None when it ran out of time."""
    import select
    import signal

    done, child_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no process to be had: the machine has nothing to spare either
        os.close(done)
        os.close(child_end)
        return _TRIAL_FAILED
    if pid == 0:  # the child: it ends with os._exit, so nothing of the parent's exit runs twice
        status = _TRIAL_FAILED
        try:
            os.close(done)
            _bound_child(memory)
            _parser(grammar).parse(data)
            status = 0
        finally:
            os._exit(status)
    os.close(child_end)
    ended = False
    try:
        watch = select.poll()
        watch.register(done, select.POLLIN | select.POLLHUP)
        ended = bool(watch.poll(seconds * 1000))  # the pipe closes when the child ends
    finally:
        os.close(done)
        if not ended:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    return status if ended else None


def _spawned(data: bytes, memory: int, seconds: float, grammar: str) -> int | None:
    """`_forked` where fork is not safe: a fresh interpreter, isolated from the working folder
    (`-I`), that imports replaylint from where this process did."""
    import subprocess

    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    code = (
        f"import sys\nsys.path.insert(0, {package_parent!r})\n"
        "from replaylint.readers.shell.grammar import _bound_child, _parser\n"
        f"_bound_child({memory!r})\n_parser({grammar!r}).parse(sys.stdin.buffer.read())\n"
    )
    try:
        completed = subprocess.run([sys.executable, "-I", "-c", code], input=data, capture_output=True, timeout=seconds, check=False)
    except subprocess.TimeoutExpired:
        return None
    except OSError:
        return _TRIAL_FAILED
    return completed.returncode


def _bound_child(memory: int) -> None:
    """The trial child's limits: `memory` more bytes of address space than it holds, no core
    file when tree-sitter crashes, nothing written to the user's terminal."""
    try:
        import resource
    except ImportError:  # Windows: the time limit alone holds
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    bound_address_space(memory)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)


def is_broken(node: Node) -> bool:
    return node.type == "ERROR" or node.is_missing


def first_error(root: Node) -> Node | None:
    """The first ERROR or MISSING node in source order, or None for a clean tree."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if is_broken(node):
            return node
        stack.extend(child for child in reversed(node.children) if child.has_error or child.is_missing)
    return None


def rejection(text: str) -> tuple[int, str] | None:
    """(line, message) when bash itself refuses the script's syntax; None when it accepts it,
    when the script is for another shell, or when no bash is installed to ask.

    extglob is on: `bash -n` runs no `shopt -s extglob`, and scripts that turn it on use its
    patterns on later lines."""
    if _FOREIGN_SHELLS.match(text):
        return None
    import shutil  # (here: a script tree-sitter reads has no need of them, nor of their 5 ms of imports)
    import subprocess

    bash = shutil.which("bash")
    if bash is None:
        return None
    try:
        completed = subprocess.run(
            [bash, "--norc", "--noprofile", "-O", "extglob", "-n"],
            input=encode(text)[0],
            capture_output=True,
            timeout=_BASH_CHECK_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if completed.returncode == 0:
        return None
    message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
    for line in message:
        match = _BASH_LINE.search(line)
        if match:
            return int(match.group(1)), match.group(2).strip()
    return 1, message[0] if message else "bash rejects the syntax of this script"

"""The bash grammar (tree-sitter-bash), loaded once per process, and what a parse tells us.

tree-sitter works on UTF-8 bytes; replaylint's spans are offsets into the decoded text, so
`Parsed` carries the byte -> character map. tree-sitter-bash is error-tolerant and also
stumbles on some valid bash, so an ERROR node alone does not make a file unparsable: `bash -n`
has the last word when it is installed (see `rejection`).
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

Node = Any  # tree_sitter.Node; typed loosely so that importing this module stays cheap

_BASH_CHECK_SECONDS = 5
_BASH_LINE = re.compile(r"line (\d+): (.*)")
# Shells whose syntax bash does not judge (bash -n would reject valid zsh or ksh).
_FOREIGN_SHELLS = re.compile(r"^#!\S*(?:/|\s)(?:env\s+)?(?:zsh|ksh|mksh|fish|csh|tcsh)\b")


@functools.lru_cache(maxsize=1)
def _language() -> Any:
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Language(tree_sitter_bash.language())


def _parser() -> Any:
    import tree_sitter

    return tree_sitter.Parser(_language())


@dataclass
class Parsed:
    """One parse of one text: the tree, and offsets of its bytes in the text."""

    text: str
    root: Node
    _char_of_byte: list[int] | None

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


def parse(text: str) -> Parsed:
    data, errors = encode(text)
    tree = _parser().parse(data)
    char_of_byte = None
    if len(data) != len(text):
        # Each character owns as many byte slots as its UTF-8 length; one extra slot for the end.
        widths = [len(char.encode("utf-8", errors)) for char in text]
        starts = [0, *accumulate(widths)]
        char_of_byte = [0] * (len(data) + 1)
        for index, width in enumerate(widths):
            for byte in range(starts[index], starts[index] + width):
                char_of_byte[byte] = index
        char_of_byte[len(data)] = len(text)
    return Parsed(text, tree.root_node, char_of_byte)


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

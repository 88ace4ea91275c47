"""Frontends: one per file syntax. Each turns a file into `Launch`es and fixes into edits.

A frontend module exposes `extract(source, context) -> list[Launch]` and
`render(launch, fix, source) -> list[Edit] | None` (None: the fix cannot be written in this
file), and `parses(text) -> bool` for the check after `--fix`. Frontends are imported lazily,
so a run that only sees YAML never imports libcst.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable

from ..model import LineIndex


class ParseError(Exception):
    """The file is not valid in its language; `line`/`col` are 1-based when known."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass
class SourceFile:
    path: str
    text: str
    index: LineIndex = field(init=False)

    def __post_init__(self) -> None:
        self.index = LineIndex(self.path, self.text)


@dataclass
class ExtractContext:
    """What a frontend may ask of the run: other files (a `--config` YAML), the project root."""

    read_text: Callable[[str], str | None] = lambda path: None
    root: str = "."


_MODULES = {
    "python": "replaylint.frontends.python",
    "shell": "replaylint.frontends.shell",
    "dockerfile": "replaylint.frontends.dockerfile",
    "yaml": "replaylint.frontends.yaml",
}

_SHELLS = (b"sh", b"bash", b"zsh", b"dash", b"ksh")

# The prefilter, on raw bytes. Every rule needs the mask (any spelling contains one of these:
# abbreviations stop at `--return-s`), except the runner variable's and `--config`'s, which
# need vLLM somewhere in the file.
_MASK_WORDS = re.compile(rb"return[-_]s|sampling[-_]mask")
_VLLM = re.compile(rb"[vV][lL][lL][mM]")
_VLLM_COMPANIONS = re.compile(rb"VLLM_USE_V2_MODEL_RUNNER|--config")


def relevant(kind: str, data: bytes) -> bool:
    """Whether a file of `kind` may hold anything a rule reports (decided without decoding)."""
    if _MASK_WORDS.search(data):
        return True
    return _VLLM_COMPANIONS.search(data) is not None and _VLLM.search(data) is not None


def kind_for(path: str, head: bytes = b"") -> str | None:
    """The frontend for a file, from its name (and shebang when it has no extension)."""
    name = Path(path).name
    lowered = name.lower()
    suffix = Path(lowered).suffix
    if suffix in (".py", ".pyi"):
        return "python"
    if suffix in (".sh", ".bash"):
        return "shell"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if lowered in ("dockerfile", "containerfile") or lowered.endswith(".dockerfile") or lowered.startswith(
        ("dockerfile.", "containerfile.")
    ):
        return "dockerfile"
    if suffix == "" and head.startswith(b"#!"):
        interpreter = head[2:].split(b"\n", 1)[0].strip().split()
        if interpreter:
            program = interpreter[0].rsplit(b"/", 1)[-1]
            if program == b"env" and len(interpreter) > 1:
                program = interpreter[-1]
            if program in _SHELLS:
                return "shell"
            if program.startswith(b"python"):
                return "python"
    return None


def load(kind: str) -> ModuleType | None:
    """The frontend module for `kind`, or None when that frontend is not available."""
    try:
        return importlib.import_module(_MODULES[kind])
    except ModuleNotFoundError as error:
        if error.name == _MODULES[kind]:
            return None
        raise

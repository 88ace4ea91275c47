"""Whether the config files a module opens from its own place may hold the mask, told before the
value flow reads the module.

A file that names no replay word gets past the prefilter when it builds an engine and loads a
file with `yaml.safe_load` or `json.load` and names `__file__` (vLLM's own `tests/conftest.py`
does all three): the flow would read it whole (50 ms there) only to find what the loaded file
holds. The flow reads a loaded file only when its path is decided by the module's own place
(`flow.yaml_configs.path_of`), so here every file the module opens that way (`open(PATH)`,
`Path(PATH).read_text()`, `PATH.open()`) is read, and the flow runs only when one of them holds
a word without which nothing can be reported (the prefilter's `WORDS`). Each file read is a
dependency of the result: a config that later turns the mask on re-judges the module. Hydra
configs and `OmegaConf.load` are left to the flow.
"""

from __future__ import annotations

import ast
import bisect
import re

from ...source import ExtractContext, SourceFile
from ..triggers import WORDS
from .flow.frames import Frame
from .flow.module import first_line, parse
from .flow.yaml_configs import path_of
from .names import matches_from

_LEFT_TO_THE_FLOW = ("config_name", "OmegaConf.load(")
_OPENS = re.compile(r"\b(?:open|read_text)\b")


def may_hold_mask(source: SourceFile, context: ExtractContext) -> bool:
    """False when no file the module opens from its own place holds one of the prefilter's words."""
    if any(word in source.text for word in _LEFT_TO_THE_FLOW):
        return True
    module = parse(source)
    if module is None:
        return False  # the flow reads nothing of a module CPython cannot parse
    opened = (_opened_path(call, Frame(module, scope)) for call, scope in _opening_calls(module.tree, source.text))
    for path in {path for path in opened if path is not None}:
        text = context.read_text(path)
        if text is not None and any(word.decode() in text for word in WORDS):
            return True
    return False


def _opening_calls(tree: ast.Module, text: str) -> list[tuple[ast.Call, ast.AST]]:
    """The calls on the lines that open something, each with the function it is in (a path it
    binds there: `path = HERE / "x.yaml"`) or the module (an `ast.walk` of the whole module cost
    more than the flow it spares)."""
    lines, line, counted = [], 1, 0
    for match in matches_from(_OPENS, text, ("open", "read_text")):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        lines.append(line)
    calls = []
    stack: list[tuple[ast.AST, ast.AST]] = [(node, tree) for node in tree.body]
    while stack:
        node, scope = stack.pop()
        first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if first is not None and last is not None:
            position = bisect.bisect_left(lines, first_line(node))
            if position == len(lines) or lines[position] > last:
                continue
        if isinstance(node, ast.Call):
            calls.append((node, scope))
        inner = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return calls


def _opened_path(node: ast.AST, frame: Frame) -> str | None:
    """The file an `open(PATH)`, `PATH.read_text()` or `PATH.open()` opens, when the module's place decides it."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name) and func.id == "open" and node.args:
        return path_of(node.args[0], frame)
    if isinstance(func, ast.Attribute) and func.attr in ("read_text", "open"):
        return path_of(func.value, frame)
    return None

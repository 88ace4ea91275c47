"""Whether the config files a module opens from its own place may hold the mask, told before the
value flow reads the module.

A file that names no replay word gets past the prefilter when it builds an engine and loads a
file with `yaml.safe_load` or `json.load` and names `__file__` or a relative `.json`/`.yaml`
path (vLLM's own `tests/conftest.py` does the first three): the flow would read it whole (50 ms
there) only to find what the loaded file holds. The flow reads a loaded file only when its path
is decided by the module's own place (`flow.yaml_configs.path_of`) or is a relative path from
where its program runs (the folder above its top package, or a script's own folder:
`import_root`), so here every file the module opens that way (`open(PATH)`,
`Path(PATH).read_text()`, `PATH.open()`) is read, and the flow runs only when one of them holds
a word without which nothing can be reported (the prefilter's `WORDS`). Each file read is a
dependency of the result: a config that later turns the mask on re-judges the module. Hydra
configs and `OmegaConf.load` are left to the flow.
"""

from __future__ import annotations

import ast
import bisect
import os
import re

from ...source import ExtractContext, SourceFile
from ..triggers import WORDS
from .flow.frames import Frame
from .flow.module import first_line, parse
from .flow.yaml_configs import from_working_folder, import_root, path_of
from .names import matches_from

_LEFT_TO_THE_FLOW = ("config_name", "OmegaConf.load(")
_OPENS = re.compile(r"\b(?:open|read_text)\b")


def may_hold_mask(source: SourceFile, context: ExtractContext) -> bool:
    """False when no file the module opens from its own place holds one of the prefilter's words."""
    if any(word in source.text for word in _LEFT_TO_THE_FLOW):
        return True
    from .. import spreads_config

    if spreads_config(source.text.encode("utf-8", "surrogateescape")):
        return True  # `LLM(**llm_cfg)`: a config section a helper of the tree may load (`OmegaConf.load`), left to the flow
    module = parse(source)
    if module is None:
        return False  # the flow reads nothing of a module CPython cannot parse
    top = import_root(context.read_text, source.path)
    paths = set()
    for call, scope in _opening_calls(module.tree, source.text):
        frame = Frame(module, scope)
        paths.add(_opened_path(call, frame, path_of))
        relative = _opened_path(call, frame, from_working_folder) if top is not None else None
        paths.add(os.path.normpath(os.path.join(top, relative)) if top is not None and relative is not None else None)
    for path in paths - {None}:
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


def _opened_path(node: ast.AST, frame: Frame, named) -> str | None:
    """The file an `open(PATH)`, `PATH.read_text()` or `PATH.open()` opens, as `named` reads PATH
    (`path_of`: from the module's place; `from_working_folder`: from where its program runs)."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name) and func.id == "open" and node.args:
        return named(node.args[0], frame)
    if isinstance(func, ast.Attribute) and func.attr in ("read_text", "open"):
        return named(func.value, frame)
    return None

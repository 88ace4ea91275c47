"""Logits-processor plugins declared by packaging: the `vllm.logits_processors` entry points of
`pyproject.toml` (`[project.entry-points]`, Poetry's `[tool.poetry.plugins]`), `setup.cfg`
(`[options.entry_points]`) and `setup.py` (`entry_points=`, read with `ast`: never run), and the
local folders a requirements file installs (`-e .`, `./plugins/ban`, `file:...`).

vLLM loads every installed entry point of this group into every engine
(`_load_v2_logitsprocs_plugins` in 0.31-0.34); `vllm.general_plugins` may register anything and
is not read here. Every function takes text and gives `Plugin`s with their spans; which folders
are installed where a launch runs is `ProjectPins.plugins`'s business.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Iterator

from ..model import Plugin
from ..source import SourceFile

GROUP = "vllm.logits_processors"
PACKAGING = ("pyproject.toml", "setup.cfg", "setup.py")

_ENTRY = re.compile(r"^\s*(?P<name>[^=\s][^=]*?)\s*=\s*(?P<target>\S.*?)\s*$")


def declared(path: str, text: str) -> tuple[Plugin, ...]:
    """The plugins a packaging file declares (none for a file that does not name the group)."""
    return _entries(path, text, GROUP, (("project", "entry-points", GROUP), ("tool", "poetry", "plugins", GROUP)))


CONSOLE_SCRIPTS = "console_scripts"


def console_scripts(path: str, text: str) -> tuple[Plugin, ...]:
    """The commands a packaging file installs (`[project.scripts]`, Poetry's `[tool.poetry.scripts]`,
    `console_scripts` entry points of `setup.cfg` and `setup.py`), each `name = module:function`."""
    return _entries(path, text, CONSOLE_SCRIPTS, (("project", "scripts"), ("tool", "poetry", "scripts")), words=("scripts",))


def _entries(path: str, text: str, group: str, tables: tuple[tuple[str, ...], ...], words: tuple[str, ...] = ()) -> tuple[Plugin, ...]:
    """The entry points of `group` a packaging file declares (`tables`: where `pyproject.toml` keeps them)."""
    if not any(word in text for word in (group, *words)):
        return ()
    name = os.path.basename(path)
    source = SourceFile(path, text)
    if name == "pyproject.toml":
        return tuple(_pyproject(source, tables))
    return tuple(_setup_cfg(source, group) if name == "setup.cfg" else _setup_py(source, group)) if name in PACKAGING else ()


def distribution_name(path: str, text: str) -> str | None:
    """The project name a packaging file writes literally (`[project] name`, Poetry's,
    `setup.cfg` `[metadata] name`, `setup(name="...")`), which names its wheel and sdist."""
    name = os.path.basename(path)
    if name == "pyproject.toml":
        data = read_toml(text)
        found = table(data, "project").get("name") or table(data, "tool", "poetry").get("name")
        return found if isinstance(found, str) else None
    if name == "setup.cfg":
        section = ""
        for line in text.splitlines():
            header = _SECTION.match(line.strip())
            section = header.group("name").strip() if header and not line[:1].isspace() else section
            option = _OPTION.match(line) if section == "metadata" and not header else None
            if option is not None and option.group("key").strip() == "name":
                return option.group("value").strip() or None
        return None
    return _setup_py_name(text) if name == "setup.py" else None


def _setup_py_name(text: str) -> str | None:
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and _called_name(node.func) == "setup":
            for keyword in node.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
                    return keyword.value.value
    return None


def is_package(path: str, text: str) -> bool:
    """Whether a packaging file makes its folder an installable package (a `pyproject.toml`
    holding only tool settings does not)."""
    if os.path.basename(path) != "pyproject.toml":
        return True
    return re.search(r"(?m)^\s*\[(project|build-system|tool\.poetry)\]", text) is not None


def _pyproject(source: SourceFile, tables: tuple[tuple[str, ...], ...]) -> Iterator[Plugin]:
    from ..toml_document import TomlError, read

    try:
        document = read(source)
    except (TomlError, ValueError):
        return
    for table in tables:
        entries = document.value(*table)
        if not isinstance(entries, dict):
            continue
        for name, target in entries.items():
            span = document.span(*table, name) or document.nearest(*table, name)
            if not isinstance(target, dict):  # (Poetry's `{ reference = ..., type = "file" }`: no module's function)
                yield Plugin(name, str(target), span, "")


# setup.cfg -------------------------------------------------------------------------------------

_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")
_OPTION = re.compile(r"^(?P<key>[^\s=:][^=:]*?)\s*[=:]\s*(?P<value>.*)$")


def _setup_cfg(source: SourceFile, group: str) -> Iterator[Plugin]:
    """configparser's reading of `[options.entry_points]`: an option of the group's name whose
    value (its first line and the indented lines after it) lists `name = target`."""
    section, in_group, offset = "", False, 0
    for line in source.text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        header = _SECTION.match(stripped)
        if header and not line[0].isspace():
            section, in_group = header.group("name").strip(), False
            continue
        if section != "options.entry_points":
            continue
        if not line[0].isspace():
            option = _OPTION.match(stripped)
            in_group = option is not None and option.group("key").strip() == group
            if in_group and option is not None and option.group("value").strip():
                yield from _cfg_entry(source, option.group("value"), start + line.index(option.group("value")))
        elif in_group:
            yield from _cfg_entry(source, stripped, start + line.index(stripped))


def _cfg_entry(source: SourceFile, text: str, start: int) -> Iterator[Plugin]:
    entry = _ENTRY.match(text)
    if entry is not None:
        yield Plugin(entry.group("name"), entry.group("target"), source.index.span(start, start + len(text.rstrip())), "")


# setup.py --------------------------------------------------------------------------------------


def _setup_py(source: SourceFile, group: str) -> Iterator[Plugin]:
    """`setup(entry_points={...})` with the dict written in the call or bound once to a name at
    the module's top level; the group's value a list of `"name = target"` strings or one string
    of such lines. Anything computed is not followed (nothing is run)."""
    try:
        module = ast.parse(source.text)
    except (SyntaxError, ValueError):
        return
    names = {
        target.id: statement.value
        for statement in module.body
        if isinstance(statement, ast.Assign)
        for target in statement.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and _called_name(node.func) == "setup":
            for keyword in node.keywords:
                if keyword.arg == "entry_points":
                    value = names.get(keyword.value.id) if isinstance(keyword.value, ast.Name) else keyword.value
                    yield from _setup_py_group(source, value, names, group)


def _called_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _setup_py_group(source: SourceFile, value: ast.expr | None, names: dict[str, ast.expr], group: str) -> Iterator[Plugin]:
    if not isinstance(value, ast.Dict):
        return
    for key, entries in zip(value.keys, value.values):
        if isinstance(key, ast.Constant) and key.value == group:
            entries = names.get(entries.id, entries) if isinstance(entries, ast.Name) else entries
            strings = entries.elts if isinstance(entries, (ast.List, ast.Tuple)) else [entries]
            for string in strings:
                if isinstance(string, ast.Constant) and isinstance(string.value, str):
                    yield from _string_entries(source, string)


def _string_entries(source: SourceFile, string: ast.Constant) -> Iterator[Plugin]:
    span = _node_span(source, string)
    for line in string.value.splitlines():
        entry = _ENTRY.match(line)
        if entry is not None and not line.strip().startswith("#"):
            yield Plugin(entry.group("name"), entry.group("target"), span, "")


def _node_span(source: SourceFile, node: ast.expr) -> object:
    """The span of an ast node (its columns are UTF-8 byte offsets)."""

    def offset(line: int, byte_col: int) -> int:
        text = source.index.line_text(line)
        return source.index.offset(line, 1) + len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    end_line = node.end_lineno or node.lineno
    return source.index.span(offset(node.lineno, node.col_offset), offset(end_line, node.end_col_offset or node.col_offset))


# requirements ----------------------------------------------------------------------------------

_EDITABLE = re.compile(r"^(?:-e|--editable)(?:\s+|=)(?P<target>\S+)")
_FILE_URL = re.compile(r"^(?:[A-Za-z0-9][\w.\-\[\], ]*@\s*)?file:(?://)?(?P<path>[^\s;#]+)")


def local_folder(requirement: str) -> str | None:
    """The folder of the tree a requirement line installs (`-e .`, `./plugins/ban`, `../x[extra]`,
    `ban @ file:plugins/ban`), relative to the requirements file; None for an index package, a
    URL, an archive or an absolute path (a folder of the machine it runs on, not of the tree)."""
    editable = _EDITABLE.match(requirement)
    text = editable.group("target") if editable else requirement.split(";", 1)[0].strip()
    url = _FILE_URL.match(text)
    if url is not None:
        text = url.group("path")
    elif "://" in text or not (text.startswith((".", "/")) or text == "."):
        return None
    text = re.sub(r"\[[^\]]*\]$", "", text.split("#", 1)[0])
    if text.startswith("/") or re.search(r"\.(whl|tar\.gz|zip|tgz)$", text):
        return None
    return text or None


def pyproject_folders(text: str) -> list[tuple[str, str]]:
    """(folder, what names it) for each dependency a `pyproject.toml` takes from a folder of the
    tree: `[tool.uv.sources]` and Poetry `path` dependencies, `name @ file:///${PROJECT_ROOT}/x`."""
    data = read_toml(text)
    tool = table(data, "tool")
    found = [(path, f"[tool.uv.sources] {name}") for name, path in _paths(table(tool, "uv", "sources"))]
    poetry = table(tool, "poetry")
    groups = [table(poetry, "dependencies"), table(poetry, "dev-dependencies")]
    groups += [table(group, "dependencies") for group in table(poetry, "group").values() if isinstance(group, dict)]
    found += [(path, f"[tool.poetry] {name}") for group in groups for name, path in _paths(group)]
    for requirement in table(data, "project").get("dependencies") or []:
        if isinstance(requirement, str) and "${PROJECT_ROOT}" in requirement:
            folder = local_folder(requirement.replace("file:///${PROJECT_ROOT}/", "file:").replace("${PROJECT_ROOT}/", "./"))
            found += [(folder, f"`{requirement}`")] if folder else []
    return [(os.path.normpath(path), what) for path, what in found if not os.path.isabs(path)]


def read_toml(text: str) -> dict:
    """The parsed TOML, or an empty table for text that is not TOML."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return {}


def table(data: object, *keys: str) -> dict:
    """The table at `keys` of parsed TOML, or an empty one."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _paths(dependencies: dict) -> Iterator[tuple[str, str]]:
    for name, spec in dependencies.items():
        for entry in spec if isinstance(spec, list) else [spec]:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                yield name, entry["path"]

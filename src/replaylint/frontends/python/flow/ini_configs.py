"""`.ini` settings read with `configparser`: `parser = configparser.ConfigParser()`, then
`parser.read(PATH)` where PATH is a file of the tree named from the module's own place
(`Path(__file__).with_name("rollout.ini")`, also through a parameter's default no call
overrides). The parser is the file's sections, each a mapping of its keys (texts, as
configparser gives them, written where the file writes them); `section.get(key, fallback=...)`
and `getboolean`/`getint`/`getfloat` read them as configparser does.

What stays open: a file not in the tree or named at run time, several reads, interpolation
(`%(name)s`), values continued on the next line."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import UNKNOWN, LineIndex, Setting
from ....regexes import on_use
from .binding import parameter_defaults
from .callsites import calls
from .dicts import as_val
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame, parameters
from .yaml_configs import path_of

PARSERS = ("configparser.ConfigParser", "configparser.RawConfigParser")
_SECTION = on_use(r"\[([^\]]+)\]\s*(?:[#;].*)?$")
_OPTION = on_use(r"([^=:\s][^=:]*?)\s*[=:]\s*(.*?)\s*$")
_TRUTH = {"1": True, "yes": True, "true": True, "on": True, "0": False, "no": False, "false": False, "off": False}
_CONVERTERS = {"getint": int, "getfloat": float, "getboolean": None}


def ini_parser(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """The sections of the one file the parser made by `node` reads, else unknown."""
    placed = frame.at
    statement = placed.statement if placed is not None else None
    if not (isinstance(statement, ast.Assign) and statement.value is node and isinstance(statement.targets[0], ast.Name)):
        return NOTHING
    name = statement.targets[0].id
    reads = [
        n
        for p in frame.module.statements(frame.scope)
        for n in ast.walk(p.statement)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == name
        if n.func.attr.startswith("read")
    ]
    if len(reads) != 1 or reads[0].func.attr != "read" or len(reads[0].args) != 1:  # type: ignore[attr-defined]
        return NOTHING
    path = _named_path(reads[0].args[0], frame)
    text = reader.tree.context.read_text(path) if path is not None else None  # type: ignore[attr-defined]
    return as_val(_sections(LineIndex(path, text))) if text is not None else NOTHING  # type: ignore[arg-type]


def read_option(reader: Evaluates, node: ast.Call, func: ast.Attribute, frame: Frame) -> Val | None:
    """`section.getboolean(key, fallback=...)` (`getint`, `getfloat`) of a section read here; None: not such a call."""
    if func.attr not in _CONVERTERS or not node.args or not isinstance(node.args[0], ast.Constant):
        return None
    owner = reader.evaluate(func.value, frame).kwargs
    key = str(node.args[0].value).lower()
    if owner is None or owner.reasons:
        return NOTHING
    entry = owner.entries.get(key)
    if entry is None:
        fallback = next((k.value for k in node.keywords if k.arg == "fallback"), None)
        return reader.evaluate(fallback, frame) if fallback is not None else NOTHING
    text = entry.setting.value
    converted = _converted(func.attr, text) if isinstance(text, str) else UNKNOWN
    setting = entry.setting
    return Val(converted, span=setting.value_span, origin=setting.span, written=setting.spelling)


def _converted(method: str, text: str):
    try:
        return _TRUTH.get(text.lower(), UNKNOWN) if method == "getboolean" else _CONVERTERS[method](text)  # type: ignore[misc]
    except ValueError:
        return UNKNOWN


def _named_path(node: ast.expr, frame: Frame) -> str | None:
    """The path a `read` names: from the module's place, or through a parameter's default that
    no call of the function in the module overrides."""
    function = frame.function
    if isinstance(node, ast.Name) and function is not None and any(p.arg == node.id for p in parameters(function)):
        defaults = parameter_defaults(function)
        overridden = any(site.node.args or site.node.keywords for site in calls(frame.module, (f"{function.name}(",)))
        if node.id not in defaults or overridden:
            return None
        node = defaults[node.id]
    return path_of(node, replace(frame, scope=frame.module.tree))


def _sections(index: LineIndex) -> Kwargs:
    """The file's sections, each with the `[DEFAULT]` keys it does not set."""
    found, current, offset = Kwargs(), None, 0
    defaults = Kwargs()
    for line in index.text.splitlines(keepends=True):
        stripped = line.strip()
        header = _SECTION.match(stripped)
        option = _OPTION.match(line.rstrip("\r\n")) if line[:1] not in " \t" else None
        if header:
            current = (
                defaults if header.group(1) == "DEFAULT" else found.entries.setdefault(header.group(1), _section(index, offset, line)).ref
            )
        elif current is not None and option and not stripped.startswith(("#", ";")):
            start = offset + option.start(1)
            value = option.group(2)
            known = UNKNOWN if "%(" in value else value
            setting = Setting(
                option.group(1).lower(),
                known,
                index.span(start, offset + option.end(2)),
                stripped,
                index.span(offset + option.start(2), offset + option.end(2)),
            )
            current.entries[setting.name] = Entry(setting)
        elif current is not None and stripped and line[:1] in " \t":
            current.reasons.append("a value continued on the next line")
        offset += len(line)
    for entry in found.entries.values():
        for name, item in defaults.entries.items():
            entry.ref.entries.setdefault(name, item)
    return found


def _section(index: LineIndex, offset: int, line: str) -> Entry:
    span = index.span(offset, offset + len(line.rstrip("\r\n")))
    return Entry(Setting(line.strip()[1:-1], UNKNOWN, span, line.strip(), span), ref=Kwargs())

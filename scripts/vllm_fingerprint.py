"""Fingerprints of the replay-relevant code of a vLLM release, and what changed between two.

A fingerprint is a set of units found by qualified name in the AST of a few vLLM source files
(VllmConfig's replay validators and runner selection, the speculative config, the input
processor, `envs.py`, `Platform.validate_environ`, the argparse utilities, `LLM.__init__`'s
signature, `EngineArgs`' fields), each normalised (docstrings, comments and formatting dropped)
with the user-facing messages it raises, logs or lists. Used by scripts/new_release.py.
"""

from __future__ import annotations

import ast
import copy
import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

FINGERPRINT_FORMAT = 1
VLLM_CONFIG = "vllm/config/vllm.py"
ENVS = "vllm/envs.py"
# VllmConfig methods that decide replay verdicts: the replay validators, runner selection
# (0.28-0.33 pick V1 or V2; 0.34 has one runner with its own unsupported features),
# DBO, batch-sharded sampling and adaptive verification. Methods they use are added.
REPLAY_METHODS = re.compile(
    r"use_v2_model_runner|_verify_\w*replay\w*|_get_\w*unsupported_features"
    r"|_validate_\w*model_runner|_validate_batch_sharded_sampling|_validate_adaptive_verification"
)
# Modules fingerprinted whole: every function, method, class body and module constant.
WHOLE_MODULES = (
    "vllm/config/speculative.py",
    "vllm/v1/worker/gpu/spec_decode/speculator_config.py",
    "vllm/v1/engine/input_processor.py",
    "vllm/utils/argparse_utils.py",
)
TRACKED_ENV_VARS = ("VLLM_USE_V2_MODEL_RUNNER",)
# logger.warning(...), warnings.warn(...); parser.error(...) and reasons.append(...) on any owner.
LOG_CALLS = {"warning", "warning_once", "warn", "exception", "critical"}
LOGGERS = {"logger", "warnings"}
USER_TEXT_CALLS = {"error", "append", "extend"}


class Failure(Exception):
    """A problem the maintainer must fix (printed without a traceback)."""


@dataclass
class Unit:
    """One piece of replay-relevant code, normalised."""

    name: str
    file: str
    line: int
    text: list[str]
    messages: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "text": self.text, "messages": self.messages}


def _strip_docstrings(tree: ast.Module) -> ast.Module:
    """Drop every statement that is a bare string (docstrings, attribute docs) in place."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        kept = [stmt for stmt in body if not _is_bare_string(stmt)]
        node.body = kept or [ast.Pass()]
    return tree


def _is_bare_string(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def normalise(node: ast.AST) -> list[str]:
    """The node's source as the AST gives it back: no comments, no original layout (the
    docstrings were stripped when the file was parsed)."""
    return ast.unparse(node).splitlines()


def _render_string(node: ast.AST) -> str | None:
    """The text of a string expression, `{expr}` for the parts computed at run time."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{" + ast.unparse(part.value) + "}" for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _render_string(node.left), _render_string(node.right)
        if left is not None and right is not None:
            return left + right
    return None


def _strings_in(node: ast.AST) -> Iterator[tuple[int, str]]:
    text = _render_string(node)
    if text is not None:
        yield node.lineno, text
        return
    for child in ast.iter_child_nodes(node):
        yield from _strings_in(child)


def _message_carriers(tree: ast.AST) -> Iterator[ast.AST]:
    """Expressions whose strings reach the user: raised errors, warnings, parser errors,
    listed reasons, and what was assigned to a variable that one of these passes on."""
    assigned: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            for target in getattr(node, "targets", None) or [node.target]:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
    for node in ast.walk(tree):
        carried = _carried(node)
        if isinstance(carried, ast.Name):
            yield from assigned.get(carried.id, [])
        elif carried is not None:
            yield carried


def _carried(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.Raise):
        return node.exc
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return None
    method, owner = node.func.attr, node.func.value
    logs = method in LOG_CALLS and isinstance(owner, ast.Name) and owner.id in LOGGERS
    if logs or method in USER_TEXT_CALLS:
        return node.args[0]
    return None


def messages(tree: ast.AST) -> list[dict]:
    found = {(line, text) for carrier in _message_carriers(tree) for line, text in _strings_in(carrier) if " " in text.strip()}
    return [{"line": line, "text": text} for line, text in sorted(found)]


def _unit(name: str, file: str, node: ast.AST, text: list[str] | None = None) -> Unit:
    return Unit(name, file, node.lineno, text if text is not None else normalise(node), messages(node))


def _module_name(file: str) -> str:
    return file.removesuffix(".py").replace("/", ".")


def _functions(body: list[ast.stmt]) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _class(tree: ast.Module, name: str) -> ast.ClassDef | None:
    return next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)


def _names_used(node: ast.AST) -> set[str]:
    """`self.x` attributes and bare names a function refers to."""
    used = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and (sub.value.id == "self"):
            used.add(sub.attr)
        elif isinstance(sub, ast.Name):
            used.add(sub.id)
    return used


def vllm_config_units(tree: ast.Module, file: str = VLLM_CONFIG) -> list[Unit]:
    """VllmConfig's replay methods, the methods and module functions they use, and the order
    in which __post_init__ calls its methods."""
    cls = _class(tree, "VllmConfig")
    if cls is None:
        return []
    methods, module_functions = _functions(cls.body), _functions(tree.body)
    prefix = f"{_module_name(file)}."
    chosen = {f"VllmConfig.{n}": m for n, m in methods.items() if REPLAY_METHODS.fullmatch(n)}
    pending = list(chosen.values())
    while pending:
        for used in sorted(_names_used(pending.pop())):
            helper, qualified = methods.get(used), f"VllmConfig.{used}"
            if helper is None and used in module_functions:
                helper, qualified = module_functions[used], used
            if helper is not None and qualified not in chosen and used != "__post_init__":
                chosen[qualified] = helper
                pending.append(helper)
    units = [_unit(prefix + qualified, file, node) for qualified, node in chosen.items()]
    if "__post_init__" in methods:
        units.append(_post_init_order(prefix, file, methods))
    return units


def _post_init_order(prefix: str, file: str, methods: dict[str, ast.FunctionDef]) -> Unit:
    post_init = methods["__post_init__"]
    calls = sorted(
        (call.lineno, call.col_offset, call.func.attr)
        for call in ast.walk(post_init)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "self"
        and call.func.attr in methods
    )
    text = [f"self.{name}()" for _line, _col, name in calls]
    return Unit(f"{prefix}VllmConfig.__post_init__ (call order)", file, post_init.lineno, text)


def module_units(tree: ast.Module, file: str) -> list[Unit]:
    """Every function, method, class body (fields) and module-level assignment."""
    return list(_body_units(tree.body, _module_name(file) + ".", file))


def _body_units(body: list[ast.stmt], prefix: str, file: str) -> Iterator[Unit]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield _unit(prefix + node.name, file, node)
        elif isinstance(node, ast.ClassDef):
            yield from _class_units(node, prefix, file)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and not _is_logger(node):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            yield _unit(prefix + ", ".join(ast.unparse(t) for t in targets), file, node)


def _is_logger(node: ast.Assign | ast.AnnAssign) -> bool:
    return isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["logger"]


def _class_units(cls: ast.ClassDef, prefix: str, file: str) -> Iterator[Unit]:
    yield _fields_unit(cls, prefix, file)
    for method in _functions(cls.body).values():
        yield _unit(f"{prefix}{cls.name}.{method.name}", file, method)


def _fields_unit(cls: ast.ClassDef, prefix: str, file: str) -> Unit:
    """The class statement with everything but its methods."""
    members = [n for n in cls.body if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    header = copy.copy(cls)
    header.body = members or [ast.Pass()]
    return Unit(f"{prefix}{cls.name} (fields)", file, cls.lineno, normalise(header), messages(header))


def class_fields_unit(tree: ast.Module, file: str, class_name: str) -> list[Unit]:
    cls = _class(tree, class_name)
    return [] if cls is None else [_fields_unit(cls, _module_name(file) + ".", file)]


def method_unit(tree: ast.Module, file: str, class_name: str, method: str) -> list[Unit]:
    node = _method(tree, class_name, method)
    name = f"{_module_name(file)}.{class_name}.{method}"
    return [] if node is None else [_unit(name, file, node)]


def signature_unit(tree: ast.Module, file: str, class_name: str, method: str) -> list[Unit]:
    node = _method(tree, class_name, method)
    if node is None:
        return []
    stub = copy.copy(node)
    stub.body, stub.decorator_list = [ast.Expr(ast.Constant(...))], []
    name = f"{_module_name(file)}.{class_name}.{method} (signature)"
    return [Unit(name, file, node.lineno, normalise(stub))]


def _method(tree: ast.Module, class_name: str, method: str) -> ast.FunctionDef | None:
    cls = _class(tree, class_name)
    return None if cls is None else _functions(cls.body).get(method)


def _module_dict(tree: ast.Module, name: str) -> ast.AST | None:
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name:
            return node
    return None


def env_units(tree: ast.Module, file: str = ENVS) -> list[Unit]:
    """The entries of the tracked variables and the table of removed variables."""
    units = []
    for key, value in _environment_variables(tree):
        if key.value in TRACKED_ENV_VARS:
            name = f"vllm.envs.environment_variables[{key.value!r}]"
            text = [f"environment_variables[{key.value!r}] = {ast.unparse(value)}"]
            units.append(Unit(name, file, key.lineno, text, messages(value)))
    removed = _module_dict(tree, "removed_environment_variables")
    if removed is not None:
        units.append(_unit("vllm.envs.removed_environment_variables", file, removed))
    return units


def _environment_variables(tree: ast.Module) -> Iterator[tuple[ast.Constant, ast.expr]]:
    table = _module_dict(tree, "environment_variables")
    if table is None or not isinstance(table.value, ast.Dict):
        return
    for key, value in zip(table.value.keys, table.value.values, strict=True):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            yield key, value


# The files a fingerprint reads, and how each one is cut into units.
UNITS_BY_FILE: dict[str, Callable[[ast.Module, str], list[Unit]]] = {
    VLLM_CONFIG: vllm_config_units,
    ENVS: env_units,
    "vllm/platforms/interface.py": partial(method_unit, class_name="Platform", method="validate_environ"),
    "vllm/entrypoints/llm.py": partial(signature_unit, class_name="LLM", method="__init__"),
    "vllm/engine/arg_utils.py": partial(class_fields_unit, class_name="EngineArgs"),
    **dict.fromkeys(WHOLE_MODULES, module_units),
}
SOURCE_FILES = tuple(UNITS_BY_FILE)


@dataclass
class Fingerprint:
    release: str
    units: dict[str, Unit]
    environment_variables: list[str]
    missing_files: list[str]

    def to_json(self) -> dict:
        return {
            "format": FINGERPRINT_FORMAT,
            "release": self.release,
            "generator": "scripts/new_release.py",
            "environment_variables": self.environment_variables,
            "missing_files": self.missing_files,
            "units": {name: unit.to_json() for name, unit in self.units.items()},
        }

    @classmethod
    def from_json(cls, doc: dict) -> Fingerprint:
        if doc.get("format") != FINGERPRINT_FORMAT:
            raise Failure(
                f"fingerprint of {doc.get('release')} has format {doc.get('format')}, "
                f"this script reads {FINGERPRINT_FORMAT}: regenerate it with --write"
            )
        units = {name: Unit(name, u["file"], u["line"], u["text"], u["messages"]) for name, u in doc["units"].items()}
        return cls(doc["release"], units, doc["environment_variables"], doc["missing_files"])


def fingerprint(release: str, read: Callable[[str], str | None]) -> Fingerprint:
    """Fingerprint the tree whose files `read(path)` returns (None when absent)."""
    units: list[Unit] = []
    env_names: list[str] = []
    missing = []
    for file, cut in UNITS_BY_FILE.items():
        text = read(file)
        if text is None:
            missing.append(file)
            continue
        try:
            tree = _strip_docstrings(ast.parse(text, filename=file))
        except SyntaxError as err:
            raise Failure(f"{file}: not Python this interpreter can parse ({err})") from err
        units += cut(tree, file)
        if file == ENVS:
            env_names = sorted(key.value for key, _value in _environment_variables(tree))
    return Fingerprint(release, {u.name: u for u in units}, env_names, missing)


# ---------------------------------------------------------------- comparison


def canonical(lines: list[str]) -> list[str]:
    """Re-normalise stored text with this interpreter, so Python versions do not differ."""
    try:
        return ast.unparse(ast.parse("\n".join(lines))).splitlines()
    except SyntaxError:
        return lines


def _where(unit: Unit) -> str:
    return f"{unit.file}:{unit.line}"


def compare_units(old: Fingerprint, new: Fingerprint, max_diff: int) -> dict:
    added = [_unit_ref(new.units[n], new.release) for n in sorted(new.units.keys() - old.units)]
    removed = [_unit_ref(old.units[n], old.release) for n in sorted(old.units.keys() - new.units)]
    changed, unchanged = [], 0
    for name in sorted(old.units.keys() & new.units.keys()):
        before, after = canonical(old.units[name].text), canonical(new.units[name].text)
        if before == after:
            unchanged += 1
            continue
        diff = list(difflib.unified_diff(before, after, old.release, new.release, lineterm="", n=2))
        shown = diff if not max_diff else diff[:max_diff]
        changed.append(
            {
                "name": name,
                "old": _where(old.units[name]),
                "new": _where(new.units[name]),
                "diff": shown,
                "diff_lines_omitted": len(diff) - len(shown),
            }
        )
    return {"added": added, "removed": removed, "changed": changed, "unchanged": unchanged}


def _unit_ref(unit: Unit, release: str) -> dict:
    return {"name": unit.name, "where": _where(unit), "release": release}


def compare_messages(old: Fingerprint, new: Fingerprint) -> dict:
    before, after = _message_index(old), _message_index(new)
    return {
        "added": [after[text] for text in sorted(after.keys() - before)],
        "removed": [before[text] for text in sorted(before.keys() - after)],
    }


def _message_index(fp: Fingerprint) -> dict[str, dict]:
    index = {}
    for unit in sorted(fp.units.values(), key=lambda u: (u.file, u.line)):
        for message in unit.messages:
            index.setdefault(
                message["text"],
                {
                    "text": message["text"],
                    "unit": unit.name,
                    "where": f"{unit.file}:{message['line']}",
                },
            )
    return index


def compare_env(old: Fingerprint, new: Fingerprint) -> dict:
    before, after = set(old.environment_variables), set(new.environment_variables)
    return {"added": sorted(after - before), "removed": sorted(before - after)}


def compare_options(old: dict, new: dict) -> dict:
    before, after = old["options"], new["options"]
    changed = []
    for opt in sorted(before.keys() & after.keys()):
        what = {}
        for key in ("dest", "nargs"):
            if before[opt].get(key) != after[opt].get(key):
                what[key] = [before[opt].get(key), after[opt].get(key)]
        old_choices, new_choices = before[opt].get("choices"), after[opt].get("choices")
        if old_choices != new_choices:
            what["choices"] = {
                "before": old_choices,
                "after": new_choices,
                "added": sorted(set(new_choices or ()) - set(old_choices or ())),
                "removed": sorted(set(old_choices or ()) - set(new_choices or ())),
            }
        if what:
            changed.append({"option": opt, **what})
    return {
        "added": {opt: after[opt] for opt in sorted(after.keys() - before)},
        "removed": {opt: before[opt] for opt in sorted(before.keys() - after)},
        "changed": changed,
    }

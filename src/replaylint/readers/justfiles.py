"""just's reading of a justfile, as far as recipes need it (just's manual):

- Variables: `NAME := expression`, `export NAME := expression`; an expression of string
  literals (`'raw'`, `"escaped"`), names and `+` (concatenation) or `/` (a path join) is known;
  a backtick, a function (`env('X', 'd')`, `arch()`) or `if` is unknown. `just NAME=value` and
  `--set` override any variable, but only on purpose: the file's value is the program's.
- `set export` (or `set export := true`) exports every variable and parameter; `set dotenv-load`
  (or a `dotenv-filename`, `dotenv-path`) loads a `.env` file: the environment is then open.
- A recipe: `name param param='default' +rest *rest $exported: dependencies`, then its body,
  indented. A parameter without a default is the caller's (unknown); a default is the
  recipe's own (a finding resting on it says so); `+`/`*` parameters are any words (unknown).
- Each body line runs in its own shell (`sh -cu`) after `{{expression}}` is substituted
  (`{{{{` is a literal `{{`), its prefixes `@` and `-` dropped; a line ending in a backslash
  continues. A body that starts with a shebang for a shell (`#!/usr/bin/env bash`) is one script;
  one for another interpreter is not a shell script.
"""

from __future__ import annotations

import re

from ..model import UNKNOWN, Assumption, Setting
from ..shells import SHELLS
from ..source import SourceFile
from .host_scripts import Expanded, Script

_ASSIGNMENT = re.compile(r"^(?P<export>export\s+)?(?P<name>[A-Za-z_][\w-]*)\s*:=\s*(?P<value>.*?)\s*$")
_DOTENV = re.compile(r"^set\s+dotenv-(?:load|filename|path|required)\b(?!\s*:=\s*false)")
_SETTING = re.compile(r"^set\s+export(?:\s*:=\s*(?P<value>\w+))?\s*$")
_RECIPE = re.compile(r"^(?P<quiet>@)?(?P<name>[A-Za-z_][\w-]*)(?P<params>(?:\s+[^:]*?)?)\s*:(?!=)(?P<rest>.*)$")
_PARAMETER = re.compile(r"""(?P<mark>[+*$]*)(?P<name>[A-Za-z_][\w-]*)(?:=(?P<default>'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"]+))?""")
_TOKEN = re.compile(
    r"""\s*(?:(?P<raw>'[^']*')|(?P<escaped>"(?:[^"\\]|\\.)*")|(?P<name>[A-Za-z_][\w-]*)(?P<call>\s*\()?|(?P<op>[+/])|(?P<other>\S))"""
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _literal(token: re.Match) -> str:
    if token["raw"] is not None:
        return token["raw"][1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), token["escaped"][1:-1])


def evaluate(expression: str, names: dict[str, object]) -> object:
    """A just expression's value, or UNKNOWN when it holds what the file does not decide."""
    value, position, join = "", 0, "+"
    expression = expression.strip()
    if not expression or expression.startswith(("if ", "'''", '"""')):
        return UNKNOWN
    while position < len(expression):
        token = _TOKEN.match(expression, position)
        if token is None or token["other"] is not None or token["call"] is not None:
            return UNKNOWN
        position = token.end()
        if token["op"] is not None:
            join = token["op"]
            continue
        piece = _literal(token) if token["name"] is None else names.get(token["name"], UNKNOWN)
        if piece is UNKNOWN:
            return UNKNOWN
        value = value + str(piece) if join == "+" else f"{value.rstrip('/')}/{str(piece).lstrip('/')}"
        join = ""
        if position < len(expression) and not _TOKEN.match(expression, position)["op"]:  # type: ignore[index]
            return UNKNOWN
    return value


def scripts(source: SourceFile) -> list[Script]:
    lines = []
    position = 0
    for line in source.text.splitlines(keepends=True):
        lines.append((position, line.rstrip("\r\n")))
        position += len(line)
    names: dict[str, object] = {}
    exported: dict[str, tuple[int, int]] = {}
    export_all = dotenv = False
    recipes = []
    index = 0
    while index < len(lines):
        start, line = lines[index]
        index += 1
        if not line.strip() or line.lstrip().startswith(("#", "[")) or line[:1] in " \t":
            continue
        if _DOTENV.match(line):
            dotenv = True  # a `.env` file sets variables for every recipe
            continue
        setting = _SETTING.match(line)
        if setting is not None:
            export_all = (setting["value"] or "true") == "true"
            continue
        assignment = _ASSIGNMENT.match(line)
        if assignment is not None:
            names[assignment["name"]] = evaluate(assignment["value"], names)
            if assignment["export"]:
                exported[assignment["name"]] = (start, start + len(line))
            continue
        recipe = _RECIPE.match(line)
        if recipe is None or line.startswith(("alias ", "import ", "mod ", "set ")):
            continue
        body = []
        while index < len(lines) and (not lines[index][1].strip() or lines[index][1][:1] in " \t"):
            body.append(lines[index])
            index += 1
        while body and not body[-1][1].strip():
            body.pop()
        recipes.append((recipe, start, body))
    places = {name: _assignment_place(lines, name) for name in names}
    env = {name: _env(source, name, names[name], places[name]) for name in names if (export_all or name in exported) and places[name]}
    found = []
    for recipe, start, body in recipes:
        found += _recipe_scripts(source, recipe, start, body, names, env, export_all)
    return [Script(script.expanded, script.env, script.assumptions, True) for script in found] if dotenv else found


def _assignment_place(lines: list[tuple[int, str]], name: str) -> tuple[int, int] | None:
    for start, line in reversed(lines):
        match = _ASSIGNMENT.match(line)
        if match is not None and match["name"] == name:
            return start, start + len(line)
    return None


def _env(source: SourceFile, name: str, value: object, place: tuple[int, int] | None) -> Setting:
    start, end = place or (0, 0)
    text = source.text[start:end]
    return Setting(name, value, source.index.span(start, end), text.strip(), source.index.span(start + text.find(":=") + 2, end))


def _recipe_scripts(source, recipe, start, body, names, env, export_all) -> list[Script]:
    own = dict(names)
    defaults: dict[str, str] = {}
    env = dict(env)
    params_start = start + recipe.start("params")
    for parameter in _PARAMETER.finditer(recipe["params"]):
        name, default = parameter["name"], parameter["default"]
        if default is None or "+" in parameter["mark"] or "*" in parameter["mark"]:
            own[name] = UNKNOWN
        else:
            value = evaluate(default, names)
            own[name] = value
            if value is not UNKNOWN:
                defaults[name] = default
        if export_all or "$" in parameter["mark"]:
            span = source.index.span(params_start + parameter.start(), params_start + parameter.end())
            env[name] = Setting(name, own[name], span, parameter.group())
    if not body:
        return []
    indent = len(body[0][1]) - len(body[0][1].lstrip(" \t"))
    first = body[0][1].strip()
    if first.startswith("#!"):
        interpreter = first[2:].split()
        program = (interpreter[-1] if interpreter and interpreter[0].endswith("/env") else interpreter[0] if interpreter else "").rsplit(
            "/", 1
        )[-1]
        if program not in SHELLS:
            return []
        pieces = [_body([line for line in body[1:]], indent, own, defaults, recipe["name"], source)]
    else:
        pieces = []
        index = 0
        while index < len(body):
            group = [body[index]]
            while group[-1][1].endswith("\\") and index + 1 < len(body):
                index += 1
                group.append(body[index])
            index += 1
            pieces.append(_body(group, indent, own, defaults, recipe["name"], source, prefixes=True))
    return [Script(expanded, env, assumptions) for expanded, assumptions in pieces if expanded.parts]


def _body(group, indent, own, defaults, recipe, source, prefixes=False) -> tuple[Expanded, tuple[Assumption, ...]]:
    expanded = Expanded()
    assumptions: list[Assumption] = []
    for number, (start, line) in enumerate(group):
        if number:
            expanded.exact("\n", start - 1)
        position = min(indent, len(line) - len(line.lstrip(" \t")))
        if prefixes and number == 0:
            while position < len(line) and line[position] in "@-":
                position += 1
        while position < len(line):
            opening = line.find("{{", position)
            if opening < 0:
                expanded.exact(line[position:], start + position)
                break
            expanded.exact(line[position:opening], start + position)
            if line.startswith("{{{{", opening):
                expanded.standing_for("{{", start + opening, start + opening + 4)
                position = opening + 4
                continue
            closing = line.find("}}", opening + 2)
            end = len(line) if closing < 0 else closing + 2
            expression = line[opening + 2 : end - 2]
            value = evaluate(expression, own)
            if value is UNKNOWN:
                expanded.unknown(start + opening, start + end)
            else:
                expanded.standing_for(str(value), start + opening, start + end)
                used = [name for name in defaults if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", expression)]
                for name in used:
                    condition = f"`just {recipe}` keeps its default `{name}={defaults[name]}`"
                    assumptions.append(Assumption(condition, source.index.span(start + opening, start + end)))
                    assumptions.append(Assumption(condition))
            position = end
    return expanded, tuple(assumptions)

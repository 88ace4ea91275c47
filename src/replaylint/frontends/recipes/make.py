"""GNU make's reading of a Makefile, as far as recipes need it (the GNU make manual):

- Lines end in a backslash to continue. Outside recipes the backslash, the line break and the
  spaces around them become one space; in a recipe both are kept for the shell, and a tab that
  starts the continued line is dropped (5.1.1).
- Variables: `NAME = value` (recursive), `:=`/`::=` (simple), `+=` (appended), `?=` (only if
  not already set), `!=` (a shell command's output: unknown), `export`, `override`, `define
  ... endef` (unknown). A variable set inside `ifeq`/`ifdef` ... `endif` may or may not be
  set: unknown. A variable the file never sets comes from the command line or the
  environment: unknown.
- `NAME ?= value` is what `make` uses when run as written, with neither the environment nor
  `make NAME=...` setting NAME: the value counts, and what rests on it says so (an
  `Assumption` naming the line), as a just parameter's default does. A `?=` after the file set
  NAME does nothing; a `?=` whose own value is unknown stays unknown.
- A recipe expands `$(NAME)`, `${NAME}` and `$X` before the shell runs it (recursive values
  with the file's last definitions: make reads the whole file first); `$$` is a `$` for the
  shell; functions (`$(shell ...)`, `$(subst ...)`) and automatic variables are unknown.
- Recipe lines start with a tab after a rule line (`target: prerequisites`), or follow `;` on
  it; each runs in its own shell unless `.ONESHELL:` is set. The prefixes `@`, `-` and `+` are
  make's own.
- Exported variables (`export NAME`, `export NAME = value`, `.EXPORT_ALL_VARIABLES:`) are in the
  recipes' environment; an `include`d file may export any, so the environment is then open.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...model import UNKNOWN, Assumption, Setting
from ...readers.host_scripts import Expanded, Script
from ...records import record
from ...source import SourceFile

_ASSIGNMENT = re.compile(
    r"^(?P<words>(?:(?:export|override|private)\s+)*)(?P<name>[^\s:#=?+!$()]+)\s*(?P<op>::?=|:::=|\?=|\+=|!=|=)\s*(?P<value>.*)$"
)
_RULE = re.compile(r"^(?P<targets>[^:#=\t][^:#=]*?)::?(?!=)(?P<rest>.*)$")
_CONDITIONAL = re.compile(r"^\s*(ifeq|ifneq|ifdef|ifndef)\b")
_NAME = re.compile(r"[A-Za-z_][\w.-]*$")
_MAX_DEPTH = 16


@record(unsafe_hash=True)
class Variable:
    name: str
    value: object  # the text, or UNKNOWN
    start: int  # the assignment's offsets
    end: int
    value_start: int
    exported: bool
    condition: str | None = None  # a `?=` default: when it holds
    written: bool = False  # the value is the file text at `value_start`, with no reference in it


def _lines(text: str) -> list[tuple[int, str]]:
    offsets, position = [], 0
    for line in text.splitlines(keepends=True):
        offsets.append((position, line.rstrip("\r\n")))
        position += len(line)
    return offsets


def _continued(line: str) -> bool:
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def scripts(source: SourceFile) -> list[Script]:
    lines = _lines(source.text)
    variables: dict[str, Variable] = {}
    recipes: list[list[tuple[int, str, int]]] = []  # per recipe: (line offset, text, first column) of each logical recipe line
    one_shell = export_all = included = False
    depth = 0
    index = 0
    in_rule = False
    while index < len(lines):
        start, line = lines[index]
        if line.startswith("\t") and in_rule:
            first = index
            while _continued(lines[index][1]) and index + 1 < len(lines):
                index += 1
            recipes[-1].append((start, "\n".join(text for _, text in lines[first : index + 1]), 1))
            index += 1
            continue
        logical, first = line, index
        while _continued(logical) and index + 1 < len(lines):
            index += 1
            logical = logical[:-1].rstrip() + " " + lines[index][1].lstrip()
        index += 1
        stripped = logical.split("#", 1)[0].strip() if not logical.lstrip().startswith("#") else ""
        if not stripped:
            continue
        if _CONDITIONAL.match(stripped):
            depth += 1
            continue
        if stripped == "endif":
            depth = max(0, depth - 1)
            continue
        if stripped.startswith("else"):
            continue
        if stripped.split(" ", 1)[0] in ("include", "-include", "sinclude"):
            included = True  # the files it names may set and export any variable
            continue
        if stripped.startswith("define "):
            name = stripped.split()[1] if len(stripped.split()) > 1 else ""
            variables[name] = Variable(name, UNKNOWN, start, start, start, False)
            while index < len(lines) and lines[index][1].strip() != "endef":
                index += 1
            index += 1
            continue
        assignment = _ASSIGNMENT.match(stripped)
        if assignment is not None and first == index - 1:
            _assign(variables, assignment, source, start, line, depth > 0)
            in_rule = False
            continue
        if stripped.startswith("export ") and all(_NAME.match(word) for word in stripped.split()[1:]):
            for name in stripped.split()[1:]:
                known = variables.get(name)
                condition = known.condition if known else None
                variables[name] = Variable(name, known.value if known else UNKNOWN, *(_places(known, start)), True, condition)
            continue
        rule = _RULE.match(stripped)
        if rule is not None and assignment is None:
            targets = rule["targets"].split()
            one_shell |= ".ONESHELL" in targets
            export_all |= ".EXPORT_ALL_VARIABLES" in targets
            recipes.append([])
            in_rule = True
            inline = rule["rest"].find(";")
            if inline >= 0 and first == index - 1:
                column = line.find(";") + 1
                recipes[-1].append((start, line, column + 1))
            continue
        in_rule = in_rule and assignment is None
    env = _environment(source, variables, export_all)
    scripts = [script for recipe in recipes for script in _recipe_scripts(source, recipe, variables, env, one_shell)]
    return [Script(script.expanded, script.env, script.assumptions, True) for script in scripts] if included else scripts


def _places(known: Variable | None, start: int) -> tuple[int, int, int]:
    return (known.start, known.end, known.value_start) if known else (start, start, start)


def _assign(variables: dict[str, Variable], match: re.Match, source: SourceFile, start: int, line: str, conditional: bool) -> None:
    name, op, value = match["name"], match["op"], match["value"]
    exported = "export" in match["words"].split() or (name in variables and variables[name].exported)
    value_start = start + len(line) - len(line.lstrip()) + match.start("value")
    condition = None
    if op == "?=" and name in variables and not conditional:
        variables[name] = replace(variables[name], exported=exported)  # already set by the file: `?=` does nothing
        return
    if conditional or op == "!=":
        known: object = UNKNOWN
    elif op == "?=":
        known, condition = value, _default_condition(source, start, name, value)
    elif op == "+=" and name in variables:
        previous = variables[name]
        known = UNKNOWN if previous.value is UNKNOWN else f"{previous.value} {value}".strip()
        condition = previous.condition
    elif op == "+=":
        known = UNKNOWN  # appended to what the command line or environment may give
    else:
        known = value
    written = op in ("=", ":=", "::=", ":::=", "?=") and known == value and "$" not in value
    written = written and source.text[value_start : value_start + len(value)] == value
    variables[name] = Variable(name, known, start, start + len(line), value_start, exported, condition, written)


def _default_condition(source: SourceFile, start: int, name: str, value: str) -> str:
    """When a `?=` value is the one make uses: the environment and the command line leave it."""
    line = source.index.span(start, start).start_line
    place = f"{source.path.replace(chr(92), '/').rsplit('/', 1)[-1]}:{line}"
    return f"neither the environment nor `make {name}=...` sets {name}, so {place}'s default `{name} ?= {value}` holds"


def _environment(source: SourceFile, variables: dict[str, Variable], export_all: bool) -> dict[str, Setting]:
    env = {}
    for variable in variables.values():
        if not (variable.exported or export_all):
            continue
        defaults: list[str] = []
        value = _value_of(variable, variables, defaults=defaults)
        span = source.index.span(variable.start, variable.end)
        value_span = source.index.span(variable.value_start, variable.end)
        spelling = source.text[variable.start : variable.end].strip()
        condition = " and ".join(dict.fromkeys(defaults)) or None
        env[variable.name] = Setting(variable.name, value, span, spelling, value_span, condition=condition)
    return env


def _value_of(variable: Variable, variables: dict[str, Variable], depth: int = 0, defaults: list[str] | None = None) -> object:
    """A variable's value, expanded; the conditions of the `?=` defaults it rests on, its own
    included, are added to `defaults`."""
    value = _expand_value(variable.value, variables, depth, defaults)
    if value is not UNKNOWN and variable.condition is not None and defaults is not None:
        defaults.append(variable.condition)
    return value


def _expand_value(value: object, variables: dict[str, Variable], depth: int, defaults: list[str] | None = None) -> object:
    """A variable's value with the references in it expanded (UNKNOWN when one is unknown);
    the conditions of the `?=` defaults it takes are added to `defaults`."""
    if value is UNKNOWN or not isinstance(value, str) or depth > _MAX_DEPTH:
        return UNKNOWN
    out, position = [], 0
    while True:
        dollar = value.find("$", position)
        if dollar < 0:
            out.append(value[position:])
            return "".join(out)
        out.append(value[position:dollar])
        name, end = _reference(value, dollar)
        if name == "$":
            out.append("$")
        else:
            variable = variables.get(name) if name else None
            expanded = _value_of(variable, variables, depth + 1, defaults) if variable else UNKNOWN
            if expanded is UNKNOWN:
                return UNKNOWN
            out.append(str(expanded))
        position = end


def _reference(text: str, dollar: int) -> tuple[str | None, int]:
    """The variable a `$` at `dollar` names (None: a function or something unknown), and where
    the reference ends."""
    opener = text[dollar + 1 : dollar + 2]
    if opener == "":
        return None, dollar + 1
    if opener not in "({":
        return opener, dollar + 2
    closer = ")" if opener == "(" else "}"
    level, position = 0, dollar + 1
    while position < len(text):
        char = text[position]
        if char == opener:
            level += 1
        elif char == closer:
            level -= 1
            if level == 0:
                inner = text[dollar + 2 : position]
                return (inner if _NAME.match(inner) else None), position + 1
        position += 1
    return None, len(text)


def _alone(text: str, start: int, end: int) -> bool:
    """Whether the reference at [start, end) is words of its own (`... $(FLAGS) ...`), not part of
    one (`--port=$(PORT)`, `"$(MODEL)"`), whose place would then be two places."""
    return (start == 0 or text[start - 1] in " \t\n") and (end == len(text) or text[end] in " \t\n;|&\\")


def _recipe_scripts(
    source: SourceFile, recipe: list[tuple[int, str, int]], variables: dict[str, Variable], env: dict[str, Setting], one_shell: bool
) -> list[Script]:
    pieces = [_recipe_line(source, start, text, column, variables) for start, text, column in recipe]
    if not one_shell:
        return [Script(piece, env, assumptions) for piece, assumptions in pieces if piece.parts]
    joined = Expanded()
    for piece, _ in pieces:
        if joined.parts:
            joined.standing_for("\n", joined.end, joined.end)
        joined.extend(piece)
    assumed = tuple(dict.fromkeys(assumption for _, assumptions in pieces for assumption in assumptions))
    return [Script(joined, env, assumed)] if joined.parts else []


def _recipe_line(
    source: SourceFile, start: int, text: str, column: int, variables: dict[str, Variable]
) -> tuple[Expanded, tuple[Assumption, ...]]:
    """A logical recipe line as the shell gets it: make's prefixes and the tabs of continued
    lines dropped, variables substituted; and the `?=` defaults it rests on: the words they
    gave, and (a value the environment may give is any words) the launch's completeness."""
    expanded = Expanded()
    assumptions: list[Assumption] = []
    position = column - 1
    if text.startswith("\t"):
        position = 1
    while position < len(text) and text[position] in "@-+ \t":
        position += 1
    while position < len(text):
        char = text[position]
        if char == "\n":
            expanded.exact("\n", start + position)
            position += 1
            if text[position : position + 1] == "\t":
                position += 1
            continue
        if char != "$":
            end = position
            while end < len(text) and text[end] not in "$\n":
                end += 1
            expanded.exact(text[position:end], start + position)
            position = end
            continue
        name, end = _reference(text, position)
        if name == "$":
            expanded.standing_for("$", start + position, start + end)
        else:
            variable = variables.get(name) if name else None
            defaults: list[str] = []
            value = _value_of(variable, variables, defaults=defaults) if variable else UNKNOWN
            if value is UNKNOWN:
                expanded.unknown(start + position, start + end)
                position = end
                continue
            places = [source.index.span(start + position, start + end)]
            if variable is not None and variable.written and _alone(text, position, end):  # findings and edits at the value itself
                expanded.written_at(str(value), variable.value_start, start + end)
                places.append(source.index.span(variable.value_start, variable.value_start + len(str(value))))
            else:
                expanded.standing_for(str(value), start + position, start + end)
            for condition in dict.fromkeys(defaults):
                assumptions += [*(Assumption(condition, place) for place in places), Assumption(condition)]
        position = end
    return expanded, tuple(dict.fromkeys(assumptions))

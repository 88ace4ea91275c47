"""What one run's words give a click command's option, as click reads them (`script_flags.script_flag`
counts the runs of the program by the tree's shell scripts): MedVLSynther's
`eval/scripts/qwen2_5_vl_3b_sampled_eval.sh` running `python eval/run_offline_inference.py
--temperature 0.6 --n 4`, whose `@click.option("--temperature", type=float, default=0.0)` then holds 0.6.

Click's own reading is followed: an option by one of the names its decorator writes (`--dp_size`,
`-t`; no `-` read as `_`), `--name value` or `--name=value`, a flag (`is_flag=True`, `--x/--no-x`)
taking no word, the word made a value by `type=` (else by the default's type). A word not known, a
name no option writes, short flags run together or a short flag with its value, an option taking
other than one word (`nargs`, `multiple`, `count`, `flag_value`), a positional word where the command
takes no argument (or is a group: its subcommand's options follow), or a value `type=` does not
read, leave the option open."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ....model import UNKNOWN, Span
from .positionals import option_value

_NOT_READ = ("nargs", "multiple", "count", "flag_value", "callback")
_TYPES = {
    "float": "float",
    "FLOAT": "float",
    "int": "int",
    "INT": "int",
    "str": "str",
    "STRING": "str",
    "Choice": "str",
    "Path": "str",
    "bool": "bool",
    "BOOL": "bool",
}
_BOOLS = {"1": True, "true": True, "t": True, "yes": True, "y": True, "on": True}
_BOOLS |= {"0": False, "false": False, "f": False, "no": False, "n": False, "off": False}

Words = tuple[tuple[str | None, Span | None], ...]


@dataclass(frozen=True)
class Given:
    """A parameter's value as one run writes it (`text` at `span`)."""

    value: object
    text: str
    span: Span
    default: str | None = None  # the script's default the word holds (`ProgramWords.defaults`)


OPEN = object()  # the run may give the parameter anything
ABSENT = object()  # the run leaves the parameter at its default


@dataclass(frozen=True)
class ClickOption:
    """One name of an option a run may write: the parameter it sets, whether it takes the next word,
    what it sets as a flag, how click makes its word a value (None: not read)."""

    dest: str
    takes_word: bool
    flag_value: object
    convert: str | None
    read: bool = True  # False: an option taking other than one word, whose words are not followed


def click_dest(flags: list[str]) -> str:
    """The parameter click makes of an option's names: one without dashes, else the first `--` one."""
    dest = next((f for f in flags if not f.startswith("-")), None) or next((f for f in flags if f.startswith("--")), "")
    return dest.lstrip("-").replace("-", "_")


def click_options(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ClickOption] | None:
    """The command's options by each name a run may write; None where one's names are not read."""
    found: dict[str, ClickOption] = {}
    for decorator in function.decorator_list:
        if not (isinstance(decorator, ast.Call) and _last_name(decorator.func) == "option"):
            continue
        names = [a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        keywords = {k.arg: k.value for k in decorator.keywords}
        if len(names) != len(decorator.args) or None in keywords:
            return None
        flag = _is_flag(keywords.get("is_flag"), names)
        if flag is None:
            return None
        dest = click_dest([name.split("/")[0].strip() for name in names])
        convert = "bool" if flag else _convert(keywords.get("type"), keywords.get("default"))
        read = not any(key in keywords for key in _NOT_READ)
        for name in names:
            primary, _, secondary = name.partition("/")
            for spelling, value in ((primary.strip(), True), (secondary.strip(), False)):
                if spelling.startswith("-"):
                    found[spelling] = ClickOption(dest, not flag, value, convert, read)
    return found


def takes_arguments(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a positional word goes to one of the command's own arguments (not a group's subcommand)."""
    decorators = [_last_name(d.func if isinstance(d, ast.Call) else d) for d in function.decorator_list]
    return "argument" in decorators and "group" not in decorators


def click_given(options: dict[str, ClickOption], arguments: bool):
    """The reading of one run's words for a parameter (`script_flags.script_flag`'s `reading`)."""

    def given(words: Words, name: str, defaults: tuple[str | None, ...] = ()) -> object:
        result: object = ABSENT
        position = 0
        while position < len(words):
            text, span = words[position]
            if text is None or span is None:
                return OPEN
            if text == "--":
                break  # arguments follow
            if not text.startswith("-") or text == "-":
                if not arguments:
                    return OPEN
                position += 1
                continue
            key, equals, value = text.partition("=") if text.startswith("--") else (text, "", "")
            option = options.get(key)
            if option is None or not option.read or (equals and not option.takes_word):
                return OPEN
            at = position + 1 if option.takes_word and not equals else position
            if at >= len(words):
                return OPEN
            item = (value, span) if equals or not option.takes_word else words[at]
            position = at + 1
            if option.dest != name:
                continue
            if item[0] is None or item[1] is None:
                return OPEN
            default = defaults[at] if at < len(defaults) else None
            if not option.takes_word:
                result = Given(option.flag_value, text, span, default)
                continue
            written = text if equals else f"{text} {item[0]}"
            result = Given(_value(item[0], option.convert), written, item[1], default)
        return result

    return given


def _is_flag(is_flag: ast.expr | None, names: list[str]) -> bool | None:
    """Whether the option takes no word (None: `is_flag=` not a constant)."""
    if is_flag is None:
        return any("/" in name for name in names)
    return is_flag.value if isinstance(is_flag, ast.Constant) and isinstance(is_flag.value, bool) else None


def _convert(kind: ast.expr | None, default: ast.expr | None) -> str | None:
    """How click makes the option's word a value: `type=`, else the default's type (none: a string)."""
    if kind is not None:
        return _TYPES.get(_last_name(kind.func if isinstance(kind, ast.Call) else kind) or "")
    if default is None:
        return "str"
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return "str" if value is None else _TYPES.get(type(value).__name__) if type(value) in (bool, int, float, str) else None


def _last_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _value(text: str, convert: str | None) -> object:
    if convert == "bool":
        return _BOOLS.get(text.strip().lower(), UNKNOWN)
    return option_value(text, convert) if convert is not None else UNKNOWN

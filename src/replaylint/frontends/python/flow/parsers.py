"""argparse in the program: a parser (`Parser`), the defaults of its options (`options`: each
`add_argument`'s `default=` and `set_defaults`, vLLM's `EngineArgs.add_cli_args` as the engine's
own defaults), and a command line the program writes for it itself
(`parser.parse_args(["--logprobs-mode", "raw_logprobs"])`), read as argparse reads it."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any, Callable

from ....model import UNKNOWN
from ....records import record
from .dicts import entry, spread
from .facts import NOTHING, Entry, Kwargs, Val, read_from
from .frames import Evaluates, Frame, expressions
from .parsed_texts import json_object
from .positionals import POSITIONALS, add_positional, all_filled, option_value, positional_value, words_unread
from .refs import ENGINE_OPTIONS, Function, NotGiven, Qualified, engine_name


@record(unsafe_hash=True)
class Parser:
    """An argparse parser: the call that made it, read in `frame` (`parent`: the parser a
    subcommand's, made by `subparsers.add_parser(...)`, belongs to)."""

    call: ast.Call
    frame: Frame
    parent: Parser | None = None


@record(unsafe_hash=True)
class HfParser:
    """transformers' `HfArgumentParser(classes)`: an argparse parser (`parser`) whose options are
    the dataclasses' fields, before those `add_argument` adds."""

    classes: tuple[Val, ...]
    parser: Parser


def shown(value: object) -> str:
    return repr(value) if value is not UNKNOWN else "unknown"


def options(reader: Evaluates, parser: Parser) -> Kwargs:
    """The defaults of a parser's options (a subcommand's after its parser's, which it overrides)."""
    return defaults_and_flags(reader, parser)[0]


def parser_default(reader: Evaluates, parser: Parser, node: ast.Call, frame: Frame) -> Val:
    """`parser.get_default("port")`: the option's default as argparse keeps it, resting on it
    as `args.port` does (unknown where the parser may hold options not seen, or sets it in a branch)."""
    dest = reader.evaluate(node.args[0], frame).value if len(node.args) == 1 and not node.keywords else None
    found = options(reader, parser) if isinstance(dest, str) else None
    item = found.entries.get(dest) if found is not None and not found.reasons else None  # type: ignore[arg-type]
    return read_from(item.setting, item.assumptions) if item is not None and not item.guards else NOTHING


def not_given(reader: Evaluates, parser: Parser, dest: str) -> Val:
    """`args.config` of an option the parser's own scope declares `--config` with no default, not
    required, that stores what it is given: argparse's None where the command line does not give it,
    which a test reads as false, resting on that (NOTHING: any other attribute)."""
    frame = parser.frame
    made = frame.at.guards if frame.at is not None else ()
    for placed in frame.module.statements(frame.scope):
        for node in expressions(placed.statement):
            named = _named(node) if _adds_option(reader, node, parser, frame.reading(placed)) else None  # type: ignore[arg-type]
            if named is None or named[0] != dest:
                continue
            long, keywords = named[1], named[2]
            if not long.startswith("--") or placed.guards != made or set(keywords) - {"type", "help", "dest", "metavar"}:
                return NOTHING
            whose = f"{dest} comes from {long}, not given (argparse's None, {frame.module.line(node)})"
            return Val(ref=NotGiven(dest), assumptions=((whose, frame.module.span(node)),))
    return NOTHING


def _adds_option(reader: Evaluates, node: ast.AST, parser: Parser, frame: Frame) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    return isinstance(func, ast.Attribute) and func.attr == "add_argument" and _is_parser(reader, func.value, parser, frame)


def written_command_line(reader: Evaluates, parser: Parser, argv: ast.expr, frame: Frame) -> Kwargs | None:
    """`parser.parse_args(["--logprobs-mode", "raw_logprobs", "--eager"])`: the options' defaults
    with what the list gives, as argparse reads it; None where it cannot be read so (a word not
    written out, a positional or short flags run together, an option the parser does not show, a
    `type=` other than `int`, `float` or `str`)."""
    words = argv.elts if isinstance(argv, (ast.List, ast.Tuple)) else None
    if words is None or not all(isinstance(word, ast.Constant) and isinstance(word.value, str) for word in words):
        return None
    found, flags = defaults_and_flags(reader, parser)
    decided(found)  # argparse never reads `sys.argv`
    return found if given_words(reader, found, flags, words, frame) else None  # type: ignore[arg-type]


def decided(found: Kwargs) -> None:
    """Each default decided: no command line the program is run with is read."""
    for dest, item in list(found.entries.items()):
        kept = tuple(said for said in item.assumptions if not said[0].startswith(f"{dest} comes from "))
        found.entries[dest] = replace(item, assumptions=kept)


def given_words(reader: Evaluates, found: Kwargs, flags: dict, words: list[ast.Constant], frame: Frame) -> bool:
    """`found` with what `words` (texts spelt in `frame`'s module) give the options, as argparse
    reads them after any words before; False where they cannot be read so."""
    pairs = option_pairs(flags, words, lambda word: word.value)
    if pairs is None:
        return False
    for dest, word, stored, text, following, convert in pairs:
        if stored is not None:
            value: ast.expr = ast.copy_location(ast.Constant(stored), word)
        else:
            converted = option_value(text if following is None else following.value, convert)
            if converted is UNKNOWN:
                return False
            value = ast.copy_location(ast.Constant(converted), word if following is None else following)
        item = entry(reader, frame, dest, word, value, None)
        if following is None:  # the value inside a word (`--mode=raw`), or none written: no edit writes it
            item = replace(item, setting=replace(item.setting, value_span=None))
        found.entries.pop(dest, None)
        found.entries[dest] = item  # written in the program: no default it rests on
    return True


UNSEEN = "unseen"  # the type of a long flag the parser is not seen to show


def option_pairs(flags: dict, words: list, text_of: Callable[[Any], str | None], unseen: bool = False) -> list[tuple] | None:
    """The options `words` give, paired as argparse pairs them: (dest, the flag's word, the constant a
    `store_true`/`store_false` stores, the text after `=`, the word after the flag, its type) each; None where
    argparse would refuse them ("expected one argument", an option it does not know) or a flag's word is not text.
    `unseen`: a long flag the parser may hold without showing it (vLLM's `add_cli_args`) is paired too, with the
    word after it unless that is a flag, its type UNSEEN (None still where it may abbreviate a flag shown)."""
    pairs, position, filled_slots = [], 0, 0
    while position < len(words):
        word = words[position]
        spelt_text = text_of(word)
        if spelt_text is None:
            return None
        if not spelt_text.startswith("-"):  # a positional's word (`inference` of `choices=["inference"]`)
            filled = positional_value(flags, filled_slots, spelt_text)
            if filled is None:
                return None
            pairs.append((filled[0][0], word, None, spelt_text, None, filled[0][2]))
            position, filled_slots = position + 1, filled_slots + 1
            continue
        spelt, equals, text = spelt_text.partition("=")
        named = flags.get(long_flag(spelt, flags))
        if named is None and spelt not in flags and unseen and _unseen(spelt, flags):
            after = words[position + 1].value if position + 1 < len(words) and not equals else None
            taken = position + 1 < len(words) and not equals and not (isinstance(after, str) and flag_like(after))
            following = words[position + 1] if taken else None
            pairs.append((spelt[2:].replace("-", "_"), word, None, text if equals else None, following, UNSEEN))
            position += 2 if taken else 1
            continue
        if named is None:  # an option it does not know, or one not read (`nargs`, `action="append"`)
            return None
        dest, stored, convert = named
        if convert in MANY:  # `nargs="+"`: the words up to the next flag, a list not read
            taken = 0 if equals else _many(words, position + 1, text_of, flags, convert)
            if taken is None:
                return None
            pairs.append((dest, word, None, text if equals else None, words[position + 1] if taken else None, convert))
            position += 1 + taken
            continue
        following = None
        if stored is not None and equals:
            return None
        if stored is None and not equals:
            after = words[position + 1].value if position + 1 < len(words) else None
            if position + 1 >= len(words) or (isinstance(after, str) and flag_like(after)):
                return None
            position += 1
            following = words[position]
        pairs.append((dest, word, stored, text if equals else None, following, convert))
        position += 1
    return pairs if filled_slots == 0 and flags.get(POSITIONALS) is None or all_filled(flags, filled_slots) else None


def _many(words: list, start: int, text_of: Callable[[Any], str | None], flags: dict, convert: str) -> int | None:
    """How many words after an option of `nargs="+"`/`"*"` argparse gives it: those up to the next flag;
    None where it cannot tell (a word not text, a positional that may take some) or refuses (`+`, none)."""
    taken = 0
    while start + taken < len(words):
        text = text_of(words[start + taken])
        if text is None:
            return None
        if flag_like(text):
            break
        taken += 1
    if OPEN_WORDS in flags or (taken == 0 and convert == MANY[0]):
        return None
    return taken


MANY = ("\0nargs+", "\0nargs*")  # the `type` of an option of `nargs="+"`, `"*"` in a parser's flags: a list of words
_EXACT = "\0exact"  # in a parser's flags: made with `allow_abbrev=False`
OPEN_WORDS = "\0open"  # in a parser's flags: it may take words no long flag names (a positional, subcommands)
_OTHER_PREFIXES = ("prefix_chars", "fromfile_prefix_chars")  # words read otherwise than with `-`


def long_flag(spelt: str, flags: dict) -> str:
    """The flag a word names as argparse reads it: its own, else the one flag it begins
    (`--data_name` of `--data_names`, argparse's abbreviation); "" for none or several."""
    if spelt in flags or not spelt.startswith("--") or _EXACT in flags:
        return spelt
    begun = [flag for flag in flags if flag.startswith(spelt)]
    return begun[0] if len(begun) == 1 else ""


def _unseen(spelt: str, flags: dict) -> bool:
    """A long flag that is not one the parser shows, nor the start of one (argparse's abbreviations)."""
    return spelt.startswith("--") and len(spelt) > 2 and not any(flag.startswith(spelt) for flag in flags)


def flag_like(word: str) -> bool:
    """A word argparse takes for an option, not a value (`-1` and `-0.5` are values)."""
    if not word.startswith("-") or word == "-":
        return False
    try:
        float(word)
    except ValueError:
        return True
    return False


def defaults_and_flags(reader: Evaluates, parser: Parser) -> tuple[Kwargs, dict[str, tuple[str, bool | None, str | None]]]:
    """The defaults of a parser's options and its long flags (`_flags`), each a copy."""
    if parser.parent is None:
        return _parser_options(reader, parser)
    found, flags = defaults_and_flags(reader, parser.parent)
    own, own_flags = _parser_options(reader, parser)
    found.merge(own)
    flags = {**flags, **own_flags}
    words_unread(flags)  # the subcommand's name comes first: its positionals are not read
    return found, flags


def _parser_options(reader: Evaluates, parser: Parser) -> tuple[Kwargs, dict]:
    """The defaults of one parser's own options, and its flags (`--logprobs-mode`: its `dest`, the
    value a `store_true`/`store_false` stores, the `type=` that converts a value given), read once
    per parser and reader: every statement after `args = parser.parse_args()` that names `args`
    evaluates it, and reading the options again each time cost a 380-line script millions of
    evaluations. Met again while they are read (`parser.set_defaults(**yaml.safe_load(open(args.config)))`
    after `args, _ = parser.parse_known_args()`), they are those of the statements read so far:
    the namespace parsed before that statement holds no more."""
    known: dict = reader.__dict__.setdefault("_parser_options", {})
    key = (parser.call, parser.frame.scope, id(parser.frame.args))
    held = known.get(key)
    if held is None:
        found, flags = Kwargs(), {}
        known[key] = (parser.frame.args, found, flags)  # the arguments held, so that their id stays theirs
        try:
            _options(reader, parser, found, flags)
        except BaseException:
            known.pop(key, None)
            raise
        held = known[key]
    return held[1].copy(), dict(held[2])


def _options(reader: Evaluates, parser: Parser, found: Kwargs, flags: dict) -> None:
    """`add_argument` and `set_defaults` calls on the parser (or its groups) in the scope that
    made it, and in the functions of the tree it is handed to (`add_rollout_args(parser)`)."""
    frame = parser.frame
    if any(k.arg == "allow_abbrev" and not (isinstance(k.value, ast.Constant) and k.value.value is True) for k in parser.call.keywords):
        flags[_EXACT] = None
    if any(k.arg in _OTHER_PREFIXES or k.arg is None for k in parser.call.keywords):
        flags[OPEN_WORDS] = None
    made = frame.at.guards if frame.at is not None else ()  # the branches the parser is made under (`if __name__ == "__main__":`)
    _scope_options(reader, parser, frame, made, (), found, flags, 0)


_MAX_HELPERS = 2  # functions the parser is handed to, one inside another, read for their options


def _scope_options(
    reader: Evaluates, parser: Parser, frame: Frame, made: tuple, outer: tuple, found: Kwargs, flags: dict, level: int
) -> None:
    """The options a scope adds to the parser (`outer`: the branches of the call that entered it)."""
    for placed in frame.module.statements(frame.scope):
        here = frame.reading(placed)
        guards = (*outer, *(placed.guards[len(made) :] if placed.guards[: len(made)] == made else placed.guards))
        for node in expressions(placed.statement):
            if not isinstance(node, ast.Call):
                continue
            if any(_is_parser(reader, argument, parser, here) for argument in node.args):
                if _adds_engine_options(reader, node.func, here):  # vLLM's own options: each at the engine's default
                    found.assumed.append(ENGINE_OPTIONS.format(frame.module.text(node.func)))
                elif level >= _MAX_HELPERS or not _helper_options(
                    reader, parser, node, here, guards, found, flags, level
                ):  # options and defaults not seen here
                    found.reasons.append(f"the parser handed to `{frame.module.text(node.func)[:40]}`")
            if not (isinstance(node.func, ast.Attribute) and _is_parser(reader, node.func.value, parser, here)):
                continue
            if node.func.attr == "add_argument":
                flags.update(_flags(reader, node, here))
                if not _long_named(node):
                    flags[OPEN_WORDS] = None
                    add_positional(reader, node, here, flags)
                option = _option(reader, node, here, guards)
                if option is not None:
                    found.entries[option[0]] = option[1]
            elif node.func.attr == "add_subparsers":
                flags[OPEN_WORDS] = None
                words_unread(flags)
            elif node.func.attr == "set_defaults":
                for keyword in node.keywords:
                    if keyword.arg is not None:
                        found.entries[keyword.arg] = replace(entry(reader, here, keyword.arg, keyword, keyword.value, None), guards=guards)
                    else:  # `set_defaults(**yaml.safe_load(f))`: the file's keys; unread, every default unknown
                        found.merge(spread(reader, keyword.value, here).guarded(guards))


def _helper_options(
    reader: Evaluates, parser: Parser, call: ast.Call, frame: Frame, guards: tuple, found: Kwargs, flags: dict, level: int
) -> bool:
    """A plain function of the tree the parser is handed to (`add_rollout_args(parser)`): its
    options, read with the call's arguments, under the call's branches. False: not such a function."""
    callee = reader.evaluate(call.func, frame).ref
    if not isinstance(callee, Function) or callee.cls is not None or id(callee.node) in frame.stack:
        return False
    from .binding import bind

    args = bind(reader, callee, call, frame)
    inner = Frame(callee.module, callee.node, None, args, None, frame.depth + 1, (*frame.stack, id(callee.node)))
    _scope_options(reader, parser, inner, (), guards, found, flags, level + 1)
    return True


def _adds_engine_options(reader: Evaluates, func: ast.expr, frame: Frame) -> bool:
    """`EngineArgs.add_cli_args(parser)` of vLLM's engine."""
    if not (isinstance(func, ast.Attribute) and func.attr == "add_cli_args"):
        return False
    owner = reader.evaluate(func.value, frame).ref
    return isinstance(owner, Qualified) and engine_name(owner.name)


def _is_parser(reader: Evaluates, node: ast.expr, parser: Parser, frame: Frame) -> bool:
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    owner = reader.evaluate(node, frame).ref
    owner = owner.parser if isinstance(owner, HfParser) else owner
    return isinstance(owner, Parser) and owner.call is parser.call


def _flags(reader: Evaluates, node: ast.Call, frame: Frame) -> dict[str, tuple[str, bool | None, str | None] | None]:
    """An `add_argument`'s flags (a short one as spelt: argparse matches it exactly): its `dest`, what a
    `store_true`/`store_false` stores, and its `type=` (the name of `int`, `float` or `str`; "?" for another;
    `MANY` for `nargs="+"`/`"*"`); None for an option whose words are not read (`nargs="?"`, `action="append"`)."""
    named = _named(node)
    if named is None:
        return {}
    dest, long, keywords = named
    action = keywords.get("action")
    stored, action_read = None, True
    if action is not None:  # `append`, `count`, a class: not read
        action_read = isinstance(action.value, ast.Constant) and action.value.value in ("store_true", "store_false", "store")
        stored = {"store_true": True, "store_false": False}.get(action.value.value) if action_read else None  # type: ignore[attr-defined]
    convert = None
    if (kind := keywords.get("type")) is not None:
        ref = reader.evaluate(kind.value, frame).ref
        convert = ref.name if isinstance(ref, Qualified) and ref.name in ("int", "float", "str") else "?"
    nargs = keywords["nargs"].value if "nargs" in keywords else None
    many = action_read and stored is None and isinstance(nargs, ast.Constant) and nargs.value in ("+", "*")
    read = action_read and nargs is None  # else a flag known, its words not read
    spelt = [flag.value for flag in node.args if isinstance(flag, ast.Constant) and str(flag.value).startswith("-")]
    if many:
        return dict.fromkeys(spelt, (dest, None, MANY[nargs.value == "*"]))  # type: ignore[union-attr]
    return {flag: (dest, stored, convert) if read else None for flag in spelt}


def _long_named(node: ast.Call) -> bool:
    """An option named by a long flag or a short one, spelt out (not a positional, nor names not read)."""
    names = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else "" for a in node.args]
    return bool(names) and all(name.startswith("-") for name in names)


def _named(node: ast.Call) -> tuple[str, str, dict[str, ast.keyword]] | None:
    """An `add_argument`'s `dest`, the flag it shows and its keywords; None without a flag."""
    flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    keywords = {k.arg: k for k in node.keywords if k.arg}
    dest_node = keywords.get("dest")
    long = next((f for f in flags if f.startswith("--")), flags[0] if flags else None)
    if long is None:
        return None
    dest = (
        dest_node.value.value if dest_node is not None and isinstance(dest_node.value, ast.Constant) else long.lstrip("-").replace("-", "_")
    )
    return dest, long, keywords


def _option(reader: Evaluates, node: ast.Call, frame: Frame, guards: tuple) -> tuple[str, Entry] | None:
    named = _named(node)
    if named is None:
        return None
    dest, long, keywords = named
    default = keywords.get("default")
    action = keywords.get("action")
    module = frame.module
    if default is None:
        if action is not None and isinstance(action.value, ast.Constant) and action.value.value in ("store_true", "store_false"):
            item = entry(reader, frame, dest, action, ast.Constant(action.value.value == "store_false", **_at(action.value)), None)
        else:
            return None  # argparse's None: what reads it decides
    else:
        item = _typed(reader, frame, keywords.get("type"), entry(reader, frame, dest, default, default.value, None))
    whose = f"{dest} comes from {long}, default {shown(item.setting.value)} ({module.line(node)})"
    span = item.setting.value_span or item.setting.span
    return dest, replace(item, guards=guards, assumptions=((whose, span),))


def _typed(reader: Evaluates, frame: Frame, kind: ast.keyword | None, item: Entry) -> Entry:
    """A text default as argparse gives it, converted by the option's `type=json.loads`: a
    mapping whose keys are decided in the text (argparse converts a text default by `type`)."""
    if kind is None or not isinstance(item.setting.value, str):
        return item
    converter = reader.evaluate(kind.value, frame).ref
    if not (isinstance(converter, Qualified) and converter.name == "json.loads"):
        return item
    parsed = json_object(read_from(item.setting))
    if parsed.kwargs is None:
        return replace(item, setting=replace(item.setting, value=UNKNOWN, choices=()))  # argparse refuses the default
    return replace(item, setting=replace(item.setting, value=parsed.value), ref=parsed.kwargs)


def _at(node: ast.AST) -> dict:
    return {k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")}

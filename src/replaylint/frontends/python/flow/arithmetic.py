"""Arithmetic, text and word lists built from known values: `seed + i`, `base_port + rank`, `cmd + ["--port", "8000"]`,
`max_tokens // 2`, `1 << 20`, `2**18`, `int(x) * 2`, f-strings, `"%s_logprobs" % kind`, `"{}_logprobs".format(kind)`,
`int(x)`/`float(x)`/`str(x)`/`bool(x)` of a known value, `os.path.join` and `urljoin` of known texts.
A result is known only when every operand is (a literal, a default); one unknown operand
leaves it unknown. Results are bounded: a checked tree may be hostile (`"x" * 10**9`,
`"%999999999d" % 1`), so a long text or a wide format is not built."""

from __future__ import annotations

import ast
import operator
import os
import posixpath
import re
from dataclasses import replace
from typing import Any, Callable
from urllib.parse import urljoin

from ....model import Span
from .facts import NOTHING, Val
from .frames import Evaluates, Frame
from .module import Module
from .spelt_literals import Cursor, joined_parts, past_replacement, spelt
from .yaml_configs import NamedFile, named_file

_MAX_TEXT = 4096  # characters of a text the reader builds
_MAX_ITEMS = 1024  # items of a list the reader joins
_MAX_NUMBER = 2**64  # `n = n * n` bindings in a row would grow without bound
_WIDE = re.compile(r"\d{4,}|\*|\{[^{}]*\{")  # a width of 1000 or more, `%*d`, a nested `{:{}}`


def _bounded(compute: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A power or shift computed only for an exponent of at most 64 and a base of at most 2**32
    (`1 << 20`, `2**18`): `10**10**9` is never built."""

    def bounded(left: Any, right: Any) -> Any:
        if not (isinstance(right, int) and 0 <= right <= 64 and isinstance(left, (int, float)) and abs(left) <= 2**32):
            raise OverflowError
        return compute(left, right)

    return bounded


_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.Pow: _bounded(operator.pow),
    ast.LShift: _bounded(operator.lshift),
}


def arithmetic(reader: Evaluates, node: ast.BinOp, frame: Frame) -> Val:
    """`left op right` of two known numbers or texts."""
    compute = _OPERATORS.get(type(node.op))
    if compute is None:
        return NOTHING
    if isinstance(node.op, ast.Div) and (named := named_file(node, frame)) is not None:
        return named  # `Path(__file__).parent / "conf.toml"`
    left, right = reader.evaluate(node.left, frame), reader.evaluate(node.right, frame)
    if isinstance(node.op, ast.Div) and isinstance(left.ref, NamedFile) and isinstance(right.value, str):
        return _below(left, right)  # `MODELS_CONFIG_DIR / model_configs` of a name a command line gives
    if isinstance(node.op, ast.Add) and str in (type(left.value), type(right.value)) and not (left.known and right.known):
        return Val(span=frame.module.span(node), parts=(left, right))  # `"vllm serve " + model`: a text, one piece unknown
    if isinstance(node.op, ast.Mod) and isinstance(left.value, str):
        arguments = tuple(right.value) if isinstance(right.ref, tuple) and isinstance(right.value, list) else (right.value,)
        return _made(lambda: left.value % arguments, (left, right), frame, node, template=left.value, parts=arguments)
    if isinstance(node.op, ast.Add) and _sequence(left) and _sequence(right) and type(left.value) is type(right.value):
        return _joined(left, right, frame, node)
    if not (_number_or_text(left.value) and _number_or_text(right.value)):
        return _number_of(node, left, right, frame)
    if isinstance(node.op, ast.Mult) and _too_long(left.value, right.value):
        return NOTHING
    made = _made(lambda: compute(left.value, right.value), (left, right), frame, node)
    return replace(made, parts=(left, right)) if isinstance(made.value, str) and isinstance(node.op, ast.Add) else made


# Calls whose result is a number whatever they are given (`int(time.time())`), when the module
# does not bind the name itself; `round` and `abs` are left out: a class may return anything from them.
_NUMBER_CALLS = ("int", "float", "len")
_NUMBER_OPERATORS = (ast.Add, ast.Sub, ast.FloorDiv, ast.Div)


def _number_call(node: ast.expr, module: Module) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NUMBER_CALLS):
        return False
    name = node.func.id
    return (
        name not in module.imports and name not in module.functions and name not in module.classes and not module.binders(module.tree, name)
    )


def _number_of(node: ast.BinOp, left: Val, right: Val, frame: Frame) -> Val:
    """`self.port + i`: not known, but a number when one operand is a known whole number (a text
    would raise), so a command string's word it makes is one word of digits."""
    whole = [read for read in (left, right) if read.known and type(read.value) is int]
    unknown = [read for read in (left, right) if not read.known]
    if isinstance(node.op, _NUMBER_OPERATORS) and whole and unknown:
        return Val(span=frame.module.span(node), one_word=True)
    return NOTHING


def constant(node: ast.Constant, module: Module) -> Val:
    """A literal; a text written as several joined literals keeps where each is written."""
    return Val(node.value, span=module.span(node), parts=joined_parts(module, node))


def formatted(reader: Evaluates, node: ast.JoinedStr, frame: Frame) -> Val:
    """An f-string whose every replacement is a known value; else its pieces, those known and
    those not (`f"vllm serve {model} {extra}"`, which a shell may split)."""
    parts: list[Val] = []
    pieces: list[Val] = []
    text = []
    module = frame.module
    cursor = Cursor(module.span(node).start)
    for value in node.values:
        if isinstance(value, ast.Constant):
            text.append(str(value.value))
            pieces += spelt(module, cursor, text[-1]) or (Val(text[-1], span=module.span(node)),)
            continue
        if not isinstance(value, ast.FormattedValue):
            return NOTHING
        past_replacement(module, cursor, value)
        read = reader.evaluate(value.value, frame)
        plain = value.conversion == -1 and value.format_spec is None
        if plain and not read.known:
            number = read.one_word or _number_call(value.value, module)
            unread = Val(span=frame.module.span(value.value), assumptions=read.assumptions, one_word=number)
            pieces.append(read if read.parts else unread)
            continue
        spec = formatted(reader, value.format_spec, frame) if isinstance(value.format_spec, ast.JoinedStr) else Val("")
        if not _plain(read.value) or not isinstance(spec.value, str) or _WIDE.search(spec.value):
            return NOTHING
        shown = {ord("r"): repr, ord("a"): ascii, ord("s"): str}.get(value.conversion, lambda item: item)(read.value)
        try:
            text.append(format(shown, spec.value))
        except (TypeError, ValueError):
            return NOTHING
        parts += [read, spec]
        pieces.append(
            read
            if plain and isinstance(read.value, str)
            else Val(text[-1], span=frame.module.span(value.value), assumptions=read.assumptions)
        )
    if len(pieces) > _MAX_ITEMS:
        return NOTHING
    if not all(piece.known for piece in pieces):
        return Val(span=frame.module.span(node), parts=tuple(pieces))
    made = replace(_made(lambda: "".join(text), parts, frame, node), parts=tuple(pieces))
    decided = _decided_elsewhere(parts[0], made.span) if len(parts) == 2 else None
    return replace(made, span=decided) if decided is not None else made


def _decided_elsewhere(read: Val, written: Span | None) -> Span | None:
    """Where the one text an f-string puts in is written, when that is another line (`f"--{k}"`
    of a config file's key `return-sampling-mask:`): the word is decided there."""
    span = read.span
    if not isinstance(read.value, str) or span is None or written is None:
        return None
    return span if (span.path, span.start_line) != (written.path, written.start_line) else None


TEXT_METHODS = ("replace", "lower", "upper", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix")


def format_call(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`"{}_logprobs".format(kind)`, `"{mode}".format(mode=m)` of known values."""
    assert isinstance(node.func, ast.Attribute)
    template = reader.evaluate(node.func.value, frame)
    if not isinstance(template.value, str) or any(isinstance(a, ast.Starred) for a in node.args):
        return NOTHING
    if any(keyword.arg is None for keyword in node.keywords):
        return NOTHING
    positional = [reader.evaluate(argument, frame) for argument in node.args]
    named = {keyword.arg: reader.evaluate(keyword.value, frame) for keyword in node.keywords}
    values = [read.value for read in positional]
    keywords = {name: read.value for name, read in named.items()}
    every = [template, *positional, *named.values()]
    return _made(
        lambda: template.value.format(*values, **keywords), every, frame, node, template=template.value, parts=(*values, *keywords.values())
    )


# the joins of texts read, each with how many texts it joins (None: any number)
PATH_JOINS = {"os.path.join": (posixpath.join, None), "posixpath.join": (posixpath.join, None), "urllib.parse.urljoin": (urljoin, 2)}


def joined_path(reader: Evaluates, node: ast.Call, frame: Frame, name: str) -> Val:
    """`os.path.join(base_url, endpoint)` of known texts (tau-bench's request URL), joined as on
    the POSIX hosts vLLM serves from; `urljoin("/inference/v1/", "generate")` as the URL parser joins them.
    A path joined of values not known is one word of a command string (Optima's `vllm serve {model_path}`):
    a space in it would leave the command a path it cannot find."""
    join, count = PATH_JOINS[name]
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args) or not node.args or count not in (None, len(node.args)):
        return NOTHING
    given = [reader.evaluate(argument, frame) for argument in node.args]
    if not all(isinstance(read.value, str) for read in given):
        return Val(span=frame.module.span(node), one_word=True) if count is None else NOTHING
    return _made(lambda: join(*(read.value for read in given)), given, frame, node)


def text_method(reader: Evaluates, text: Val, node: ast.Call, frame: Frame) -> Val:
    """A known text's `replace`, `lower`, `strip`... (`f"--{key.replace('_', '-')}"` of a flag-building loop)."""
    assert isinstance(node.func, ast.Attribute)
    if not isinstance(text.value, str) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return NOTHING
    given = [reader.evaluate(argument, frame) for argument in node.args]
    if not all(isinstance(read.value, (str, int)) and not isinstance(read.value, bool) for read in given):
        return NOTHING
    if node.func.attr == "replace" and len(given) > 1 and (len(text.value) + 1) * (len(str(given[1].value)) + 1) > _MAX_TEXT:
        return NOTHING  # a text this long is never built
    method = getattr(str, node.func.attr)
    return _made(lambda: method(text.value, *(read.value for read in given)), [text, *given], frame, node)


_MAX_PIECES = 16


def text_split(reader: Evaluates, text: Val, node: ast.Call, frame: Frame) -> Val:
    """A known text's `split`/`rsplit` by a separator spelt out (`self.module.rsplit(".", 1)`),
    its pieces as a tuple (`path, name = ...`)."""
    assert isinstance(node.func, ast.Attribute)
    if not isinstance(text.value, str) or node.keywords or not 1 <= len(node.args) <= 2:
        return NOTHING
    given = [reader.evaluate(argument, frame) for argument in node.args]
    if not isinstance(given[0].value, str) or not given[0].value or (len(given) == 2 and type(given[1].value) is not int):
        return NOTHING
    pieces = getattr(str, node.func.attr)(text.value, *(read.value for read in given))
    if len(pieces) > _MAX_PIECES:
        return NOTHING
    return Val(ref=tuple(_made(lambda piece=piece: piece, [text, *given], frame, node) for piece in pieces))


def _made(compute: Callable[[], Any], operands, frame: Frame, node: ast.expr, template: str | None = None, parts: tuple = ()) -> Val:
    if template is not None and (_WIDE.search(template) or not all(_plain(part) for part in parts)):
        return NOTHING
    if not all(operand.known for operand in operands):
        return NOTHING
    try:
        value = compute()
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, KeyError, IndexError, AttributeError):
        return NOTHING
    if (isinstance(value, str) and len(value) > _MAX_TEXT) or (isinstance(value, int) and abs(value) > _MAX_NUMBER):
        return NOTHING
    assumptions = tuple(dict.fromkeys(a for operand in operands for a in operand.assumptions))
    hops = tuple(dict.fromkeys(h for operand in operands for h in operand.hops))
    return replace(NOTHING, value=value, span=frame.module.span(node), assumptions=assumptions, hops=hops)


def _sequence(read: Val) -> bool:
    """A list or tuple the reader knows item by item (`ref`: each item's `Val`)."""
    return isinstance(read.value, (list, tuple)) and isinstance(read.ref, tuple) and len(read.ref) == len(read.value)


def _joined(left: Val, right: Val, frame: Frame, node: ast.expr) -> Val:
    """`cmd + ["--port", str(port)]` (and `cmd += [...]`): the items of both, each decided where it is written."""
    items = left.ref + right.ref
    if len(items) > _MAX_ITEMS:
        return NOTHING
    assumptions = tuple(dict.fromkeys((*left.assumptions, *right.assumptions)))
    return Val(left.value + right.value, span=frame.module.span(node), ref=items, assumptions=assumptions)


def _below(folder: Val, name: Val) -> Val:
    """A file named from the module's place joined with a relative text known otherwise (from a caller, a command line)."""
    if os.path.isabs(name.value) or not name.value:
        return NOTHING
    joined = NamedFile(os.path.normpath(os.path.join(folder.ref.path, name.value)))  # type: ignore[union-attr]
    return Val(ref=joined, assumptions=(*folder.assumptions, *name.assumptions))


def _number_or_text(value: Any) -> bool:
    return isinstance(value, (int, float, str))


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _too_long(left: Any, right: Any) -> bool:
    """`"ab" * n` (or `n * "ab"`) longer than the reader builds."""
    text, count = (left, right) if isinstance(left, str) else (right, left)
    return isinstance(text, str) and isinstance(count, int) and len(text) * count > _MAX_TEXT


CONVERSIONS = {"int": int, "float": float, "str": str, "bool": bool}


def converted(name: str, read: Val) -> Val:
    """`int(x)`, `float(x)`, `str(x)`, `bool(x)` of a known number, text or truth value; `str(path)`
    of a file named from the module's place is that file."""
    if name == "str" and isinstance(read.ref, NamedFile):
        return read
    value = read.value
    if not isinstance(value, (int, float, str, bool)):
        return NOTHING
    try:
        return replace(read, value=CONVERSIONS[name](value))
    except (TypeError, ValueError, OverflowError):
        return NOTHING

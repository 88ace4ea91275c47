"""Literal HCL read from tree-sitter-hcl's tree: blocks (`task "server" { ... }`) as
("block", type, labels, items), attributes as ("attribute", name, value, name token); a value is
a `Token` (a string, a number, `true`), a list or a dict (key -> (key token, value)) of values, or
None where it is not literal (`var.args`, a function call, a `for` expression).

A string's value is None where Nomad fills it in (a `${...}` interpolation or a `%{...}` directive);
`$${` and `%%{` are a literal `${` and `%{`. A heredoc is read when it is a plain one (`<<EOT`),
or an indented one (`<<-EOT`) with no line indented, and holds no backslash (how much indentation
HCL strips, and its escapes there, are not guessed).

A file with a syntax error (an ERROR or MISSING node) is not read: its first error is reported
(RPL902, not RPL900: only Nomad's own parser is the judge of HCL), as tree-sitter's recovery may
have moved a block's attributes out of it.
"""

from __future__ import annotations

import re
from typing import Any

from ...readers.shell.grammar import Parsed, first_error, parse
from ...source import Budget, NotAnalysed, SourceFile

Node = Any  # tree_sitter.Node
_MAX_DEPTH = 32  # blocks and brackets nested deeper are not read
_ESCAPE = re.compile(r"\\(?:([nrt\"\\])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))|\\|\$\$\{|%%\{")
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


class Token:
    __slots__ = ("kind", "start", "end", "value")

    def __init__(self, kind: str, start: int, end: int, value: str | None = None) -> None:
        self.kind, self.start, self.end, self.value = kind, start, end, value


class HclFile:
    """The literal body of an HCL file, and where its first syntax error is (None for none)."""

    def __init__(self, source: SourceFile, budget: Budget | None) -> None:
        self.parsed: Parsed = parse(source.text, budget, 0, grammar="hcl")
        error = first_error(self.parsed.root)
        if error is not None:
            raise NotAnalysed(
                f"tree-sitter-hcl cannot parse this HCL: {self._trouble(error)}; its tasks are not read", self.parsed.start(error)
            )
        bodies = [child for child in self.parsed.root.named_children if child.type == "body"]
        self.items: list[tuple] = self._body(bodies[0], 0) if bodies else []

    def _body(self, body: Node, depth: int) -> list[tuple]:
        items: list[tuple] = []
        for child in body.named_children:
            if depth > _MAX_DEPTH:
                continue
            if child.type == "attribute":
                name = child.named_children[0]
                items.append(
                    ("attribute", self.parsed.source(name), self._value(child.named_children[1], depth), self._token("word", name))
                )
            elif child.type == "block":
                items.append(self._block(child, depth))
        return items

    def _block(self, block: Node, depth: int) -> tuple:
        kind, labels, items = "", [], []
        for child in block.named_children:
            if child.type == "identifier" and not kind:
                kind = self.parsed.source(child)
            elif child.type == "identifier":
                labels.append(self.parsed.source(child))
            elif child.type == "string_lit":
                labels.append(self._string(child).value)
            elif child.type == "body":
                items = self._body(child, depth + 1)
        return ("block", kind, labels, items)

    def _trouble(self, error: Node) -> str:
        if error.is_missing:
            return f"a `{error.type}` is missing" if not error.type.isidentifier() else "the text ends early or a closing mark is missing"
        written = self.parsed.source(error).strip().splitlines()
        return f"unexpected `{written[0][:40]}`" if written else "unexpected text"

    def _token(self, kind: str, node: Node, value: str | None = None) -> Token:
        return Token(kind, self.parsed.start(node), self.parsed.end(node), value)

    def _value(self, expression: Node, depth: int) -> object:
        """An `expression` node's literal value (None when it is not literal)."""
        if expression.named_child_count != 1 or depth > _MAX_DEPTH:
            return None  # `var.args`: a variable and its attribute
        node = expression.named_children[0]
        if node.type in ("literal_value", "template_expr", "collection_value"):
            node = node.named_children[0]
        if node.type in ("string_lit", "quoted_template"):
            return self._string(node)
        if node.type == "heredoc_template":
            return self._heredoc(node)
        if node.type in ("numeric_lit", "bool_lit", "null_lit"):
            return self._token("number" if node.type == "numeric_lit" else "word", node, self.parsed.source(node))
        if node.type == "tuple":
            return [self._item(item, depth + 1) for item in node.named_children if item.type == "expression"]
        if node.type == "object":
            return self._object(node, depth + 1)
        return None

    def _item(self, expression: Node, depth: int) -> object:
        """A list's item: an expression (`var.model`) is one value not known here."""
        value = self._value(expression, depth)
        return self._token("expression", expression) if value is None else value

    def _object(self, node: Node, depth: int) -> dict | None:
        pairs: dict = {}
        for element in (child for child in node.named_children if child.type == "object_elem"):
            key, value = element.named_children[0], element.named_children[1]
            named = self._value(key, depth)
            if key.named_child_count == 1 and key.named_children[0].type == "variable_expr":
                named = self._token("word", key, self.parsed.source(key))
            if not isinstance(named, Token) or named.kind not in ("word", "string") or named.value is None:
                return None  # `(var.key) = ...`: a key not known here
            pairs[named.value] = (named, self._value(value, depth))
        return pairs

    def _string(self, node: Node) -> Token:
        """A quoted string; its value None when Nomad fills in part of it."""
        if any(child.type in ("template_interpolation", "template_directive") for child in node.named_children):
            return self._token("string", node)
        return self._token("string", node, _unescaped(self.parsed.source(node)[1:-1]))

    def _heredoc(self, node: Node) -> Token:
        """A heredoc's text: the lines between its markers."""
        markers = [child for child in node.named_children if child.type == "heredoc_identifier"]
        flush = self.parsed.source(node).startswith("<<-")
        if len(markers) != 2 or any(child.type in ("template_interpolation", "template_directive") for child in node.named_children):
            return self._token("string", node)
        text = self.parsed.text
        body_start = text.find("\n", self.parsed.end(markers[0])) + 1
        body_end = text.rfind("\n", 0, self.parsed.start(markers[1])) + 1
        body = text[body_start:body_end] if 0 < body_start <= body_end else ""
        indented = any(line[:1] in (" ", "\t") for line in body.splitlines())
        known = "\\" not in body and not (flush and indented)
        return self._token("string", node, body.replace("$${", "${").replace("%%{", "%{") if known else None)


def _unescaped(written: str) -> str | None:
    """A quoted string's text with its escapes read (None for one HCL does not know)."""
    pieces, position = [], 0
    for match in _ESCAPE.finditer(written):
        pieces.append(written[position : match.start()])
        simple, short, long = match.groups()
        if match.group() == "\\":
            return None
        if simple:
            pieces.append(_SIMPLE_ESCAPES[simple])
        elif short or long:
            if int(short or long, 16) > 0x10FFFF:
                return None
            pieces.append(chr(int(short or long, 16)))
        else:
            pieces.append(match.group()[1:])  # `$${` is `${`
        position = match.end()
    return "".join(pieces) + written[position:]


def blocks(items: list[tuple], kind: str) -> list[tuple]:
    """The blocks of `kind` at any depth (`job` > `group` > `task`)."""
    found = []
    for item in items:
        if item[0] == "block":
            found += [item] if item[1] == kind else blocks(item[3], kind)
    return found


def attributes(items: list[tuple]) -> dict[str, object]:
    return {item[1]: item[2] for item in items if item[0] == "attribute"}

"""Words as bash expands them: quote removal, parameters, arrays, splitting, and their spans.

A word node becomes `Field`s (the words the command receives). Each field remembers the text
that must change to change it: the word itself, or, for the elements of `"${ARGS[@]}"`, `"$@"`
and a split `$FLAGS`, the element inside the array literal, the word at the call site or the
piece of the quoted string that defines the variable. Anything we cannot know statically
(an unset variable, `$(...)`, a glob, `~`) makes the field unknown; an unquoted unknown
expansion may stand for any number of words, so its field is a spread.
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import Iterable

from ...records import record
from .backtick_comments import is_comment
from .grammar import Node
from .place import Place
from .positional import from_offset
from .quoting import decode_ansi_c, double_quoted_runs
from .splitting import element_chunks, make_fields
from .values import (
    UNSET,
    Array,
    Assumed,
    Chunk,
    Container,
    Elements,
    Field,
    Forwarded,
    Hole,
    Part,
    Partial,
    Scalar,
    Scope,
    Value,
    assumptions,
    scalar_text,
)

_UNKNOWN_SPECIALS = {"?", "$", "!", "-", "0", "_", "#"}
_PART_COST = 10  # budget units (about a microsecond each) to expand one node of a word
_PIECE_COST = 4  # and one piece of a variable's value (`S="$S "` 4,000 times: 8 million pieces)


@record
class Expander:
    place: Place
    scope: Scope
    words: Container  # the container of the words being expanded (a command, an array literal)
    substitutions: list[Node] = field(default_factory=list)  # `$(...)` met on the way
    assumed: dict[Assumed, bool] = field(default_factory=dict)  # defaults taken, and whether one was unquoted
    oversized: list[int] = field(default_factory=list)  # where the values too big it read became so

    # -- offsets ------------------------------------------------------------------------------

    def span(self, node: Node) -> tuple[int, int]:
        parsed = self.place.parsed
        return self.place.range(parsed.start(node), parsed.end(node))

    def literal(self, text: str, start: int, end: int, quoted: bool, container: Container | None = None) -> Chunk | Hole:
        """Script text [start, end) (script offsets) that reads as `text`."""
        self.place.budget.charge(_PART_COST)
        if self.place.unknown(start, end):
            file_start, file_end = self.place.range(start, end)
            placeholder = self.place.text[start:end]
            outer = self.place.stands_for.get(placeholder)
            if outer is None:
                return Hole(file_start, file_end, self.place.outer_text(placeholder), splits=not quoted)
            number = outer.raw.startswith("$((")  # arithmetic: one number, whatever it is
            return Hole(file_start, file_end, outer.raw, splits=not quoted and not number, reparsed=True, assigns=outer.assigns)
        file_start, file_end = self.place.range(start, end)
        exact = self.place.exact(start, end) and text == self.place.text[start:end]
        return Chunk(text, file_start, file_end, exact, quoted, False, container or self.words)

    # -- words --------------------------------------------------------------------------------

    def fields(self, node: Node) -> list[Field]:
        """The words one word node becomes."""
        parts = self.parts(node, quoted=False)
        start, end = self.span(node)
        return make_fields(parts, start, end, self.place.outer_text(self.place.parsed.source(node)), self.words)

    def value(self, node: Node | None, container: Container | None = None) -> Value | None:
        """The value an assignment gives (no splitting, no globbing); None parts make it unknown."""
        if node is None:
            return Scalar(())
        saved = self.words
        if container is not None:
            self.words = container
        try:
            parts = self.parts(node, quoted=True)
        finally:
            self.words = saved
        chunks: list[Chunk] = []
        if any(isinstance(part, Hole) for part in parts):
            holes_only = all(isinstance(part, (Chunk, Hole)) for part in parts)
            return Partial(tuple(parts)) if holes_only else None  # type: ignore[arg-type]
        for part in parts:
            if isinstance(part, Elements):
                if any(not element.known for element in part.fields):
                    return None
                for number, element in enumerate(part.fields):
                    if number:
                        chunks.append(Chunk(" ", part.start, part.end, False, True, True, None))
                    chunks.extend(chunk for chunk in element_chunks(element) if isinstance(chunk, Chunk))
                continue
            chunks.append(part)
        return Scalar(tuple(chunks))

    def parts(self, node: Node, quoted: bool) -> list[Part]:
        kind = node.type
        parsed = self.place.parsed
        self.place.budget.charge(_PART_COST)
        if kind == "word":
            return self._unquoted_word(node, quoted)
        if kind in ("number", "extglob_pattern", "regex", "test_operator", "special_variable_name", "variable_name"):
            return [self.literal(parsed.source(node), parsed.start(node), parsed.end(node), quoted)]
        if kind == "raw_string":
            start, end = parsed.start(node), parsed.end(node)
            return [self.literal(parsed.text[start + 1 : end - 1], start + 1, end - 1, True, self._string_container(node, "sq"))]
        if kind in ("string", "translated_string"):
            return self._double_quoted(node)
        if kind == "ansi_c_string":
            return self._ansi_c(node)
        if kind == "concatenation":
            found: list[Part] = []
            for child in node.children:
                if child.type == "$" and not child.is_named:
                    continue  # `$"..."`: a translated string reads as the string
                found.extend(self.parts(child, quoted))
            return found
        if kind == "simple_expansion":
            return self._simple_expansion(node, quoted)
        if kind == "expansion":
            return self._expansion(node, quoted)
        if kind == "command_substitution" and is_comment(parsed.source(node)):
            return []  # `` `# note` ``: nothing
        if kind in ("command_substitution", "process_substitution"):
            self.substitutions.append(node)
            return [self._hole(node, splits=not quoted and kind == "command_substitution")]
        if kind == "arithmetic_expansion":
            return [self._hole(node, splits=False)]
        if kind == "brace_expression":
            return [self._hole(node, splits=True)]
        return [self._hole(node, splits=not quoted)]

    def _hole(self, node: Node, splits: bool) -> Hole:
        start, end = self.span(node)
        return Hole(start, end, self.place.parsed.source(node), splits)

    def _string_container(self, node: Node, layer: str) -> Container:
        start, end = self.span(node)
        return Container(("string", start), end - 1, "string", (*self.place.layers, layer))

    def _unquoted_word(self, node: Node, quoted: bool) -> list[Part]:
        """An unquoted word: backslash quotes the next character; `\\` newline vanishes."""
        parsed = self.place.parsed
        start, end = parsed.start(node), parsed.end(node)
        text = parsed.text[start:end]
        if "\\" not in text:
            return self._runs(start, end, quoted)
        found: list[Part] = []
        run_start = 0
        index = 0
        while index < len(text):
            if text[index] == "\\" and index + 1 < len(text):
                if index > run_start:
                    found.append(self.literal(text[run_start:index], start + run_start, start + index, quoted))
                escaped = text[index + 1]
                if escaped != "\n":
                    found.append(self.literal(escaped, start + index, start + index + 2, True))
                index += 2
                run_start = index
                continue
            index += 1
        if run_start < len(text):
            found.append(self.literal(text[run_start:], start + run_start, end, quoted))
        return found

    def _runs(self, start: int, end: int, quoted: bool) -> list[Part]:
        """Script text [start, end) as written, a placeholder of a script read again apart from
        the text around it (`VLLM_PORT=$P` read again: `VLLM_PORT=` and an unknown)."""
        text = self.place.text
        return [self.literal(text[first:last], first, last, quoted) for first, last in self.place.pieces(start, end)]

    def _double_quoted(self, node: Node) -> list[Part]:
        """`"..."`: expansions inside; backslash escapes only `$`, `` ` ``, `"`, `\\`, newline."""
        parsed = self.place.parsed
        container = self._string_container(node, "dq")
        found: list[Part] = []
        start, end = parsed.start(node), parsed.end(node)
        opening = 2 if parsed.text.startswith('$"', start) else 1
        cursor = start + opening
        for child in node.children:
            child_start, child_end = parsed.start(child), parsed.end(child)
            if child.type == '"' or child_end <= cursor:
                continue
            if child.type != "string_content":  # tree-sitter-bash puts the blanks before `$A` in its node
                child_start += len(parsed.text[child_start:child_end]) - len(parsed.text[child_start:child_end].lstrip(" \t\n"))
            if child_start > cursor:
                found.extend(self._dq_text(cursor, child_start, container))
            if child.type == "string_content":
                found.extend(self._dq_text(child_start, child_end, container))
            else:
                found.extend(self.parts(child, quoted=True))
            cursor = child_end
        if end - 1 > cursor:
            found.extend(self._dq_text(cursor, end - 1, container))
        if not found:
            file_start, _ = self.place.range(start + opening, start + opening)
            found.append(Chunk("", file_start, file_start, True, True, False, container))
        return found

    def _dq_text(self, start: int, end: int, container: Container) -> list[Part]:
        runs = double_quoted_runs(self.place.parsed.text[start:end])
        return [self.literal(text, start + first, start + last, True, container) for text, first, last in runs]

    def _ansi_c(self, node: Node) -> list[Part]:
        parsed = self.place.parsed
        start, end = parsed.start(node), parsed.end(node)
        body = parsed.text[start + 2 : end - 1]
        decoded = decode_ansi_c(body)
        if decoded is None:
            return [self._hole(node, splits=False)]
        chunk = self.literal(decoded, start, end, True, self._string_container(node, "ansi"))
        return [replace(chunk, exact=False) if isinstance(chunk, Chunk) else chunk]

    # -- parameters ---------------------------------------------------------------------------

    def _simple_expansion(self, node: Node, quoted: bool) -> list[Part]:
        name_node = node.named_children[0] if node.named_children else None
        if name_node is None:
            return [self._hole(node, splits=not quoted)]
        return self._parameter(node, self.place.parsed.source(name_node), None, quoted)

    def _expansion(self, node: Node, quoted: bool) -> list[Part]:
        """`${...}`: plain, `[@]`/`[*]`/`[N]`, and the `-`, `:-`, `+`, `:+`, `=`, `:=`, `?` forms."""
        children = [child for child in node.children if child.type not in ("${", "}")]
        if not children:
            return [self._hole(node, splits=not quoted)]
        first = children[0]
        if first.type in ("#", "!") and not first.is_named:
            return [self._hole(node, splits=not quoted)]  # length, indirection: not worth reading
        if first.type == "subscript":
            return self._subscript(node, first, children[1:], quoted)
        if first.type not in ("variable_name", "special_variable_name"):
            return [self._hole(node, splits=not quoted)]
        name = self.place.parsed.source(first)
        rest = children[1:]
        if not rest:
            return self._parameter(node, name, None, quoted)
        operator = rest[0].type if not rest[0].is_named else ""
        if operator in ("-", ":-", "+", ":+", "=", ":=", "?", ":?"):
            return self._default(node, name, operator, rest[1:], quoted)
        if operator == ":" and name in ("@", "*") and len(rest) == 2 and rest[1].type == "number":
            offset = self.place.parsed.source(rest[1])  # `"${@:2}"`: the arguments from the second on
            if offset.isdigit():
                return self._elements(node, from_offset(self.scope.positional, int(offset)), name == "@", quoted)
        return [self._hole(node, splits=not quoted)]

    def _subscript(self, node: Node, subscript: Node, rest: list[Node], quoted: bool) -> list[Part]:
        if rest:
            return [self._hole(node, splits=not quoted)]
        name_node = subscript.child_by_field_name("name")
        index_node = subscript.child_by_field_name("index")
        if name_node is None or index_node is None:
            return [self._hole(node, splits=not quoted)]
        index = self.place.parsed.source(index_node)
        return self._parameter(node, self.place.parsed.source(name_node), index, quoted)

    def _default(self, node: Node, name: str, operator: str, operand: list[Node], quoted: bool) -> list[Part]:
        """`${X:-v}`, `${X-v}`, `${X:=v}`, `${X:+v}`, `${X:?msg}`. A variable nothing in the script
        sets, or a script's argument, is taken as unset on a condition (`Scope.unset`): the
        default's text carries it (`Chunk.assumed`)."""
        value = self._lookup(name, quoted)
        assumed = self._unset(name, value)
        if assumed is not None:
            value = UNSET
        if value is None or isinstance(value, Forwarded):
            return [self._hole(node, splits=not quoted)]
        text = scalar_text(value)
        if text is None:
            return [self._hole(node, splits=not quoted)]
        empty = value is UNSET or (text == "" and operator.startswith(":"))
        use_operand = empty if operator.lstrip(":") in ("-", "=", "?") else not empty
        if operator.lstrip(":") == "?" and empty:
            return [self._hole(node, splits=not quoted)]
        if assumed is not None:
            self._took(assumed, quoted)
        if not use_operand:
            return [] if operator.lstrip(":") == "+" else self._parameter(node, name, None, quoted)
        found: list[Part] = []
        for child in operand:
            found.extend(self.parts(child, quoted))
        if assumed is not None:
            found = [replace(part, assumed=assumed) if isinstance(part, Chunk) else part for part in found]
        if operator.lstrip(":") == "=" and callable(self.scope.assign):
            chunks = [part for part in found if isinstance(part, Chunk)]
            if len(chunks) == len(found):
                self.scope.assign(name, Scalar(tuple(chunks)))
        return found

    def _unset(self, name: str, value: Value | Forwarded | None) -> Assumed | None:
        """The condition on which `name` is taken as unset for its default (None: it is not)."""
        if self.scope.unset is None or name in _UNKNOWN_SPECIALS or name in ("@", "*", "0"):
            return None
        if isinstance(value, Forwarded):
            count = "without arguments" if value.first == 1 else f"with fewer than {value.first} arguments"
            assumed: Assumed | None = Assumed(f"the script is run {count}", value.first)
        elif value is None and not name.isdigit():
            assumed = self.scope.unset(name)
        else:
            return None
        return assumed if assumed is not None and self.scope.allows(assumed) else None

    def _took(self, assumed: Assumed, quoted: bool) -> None:
        self.assumed[assumed] = self.assumed.get(assumed, False) or not quoted

    def _lookup(self, name: str, quoted: bool = True) -> Value | Forwarded | None:
        """A variable's value; None when it cannot be known (the environment, specials);
        `Forwarded` for one of the script's own arguments. `quoted`: how it is expanded."""
        if name.isdigit() and name != "0":
            positional = self.scope.positional
            if positional is None:
                return None
            position = int(name) - 1
            for index, element in enumerate(positional[: position + 1]):
                if element.spread:  # it may hold any number of words
                    return Forwarded(element.forwarded + position - index) if element.forwarded else None
            if position >= len(positional):
                return UNSET if all(element.known for element in positional) else None
            element = positional[position]
            if element.known:
                return self._taken(Array((element,)), name, quoted)
            if element.forwarded:
                return Forwarded(element.forwarded)  # `"$1"` handed on: `f "$1"`
            if element.chunks and all(isinstance(piece, (Chunk, Hole)) for piece in element.chunks):
                return Partial(element.chunks)  # `f "$CMD"` with CMD a Partial: `$1` is that string
            return None
        if name in _UNKNOWN_SPECIALS:
            return None
        value = self.scope.variables.get(name)
        if value is None and name in self.scope.oversized:
            self.oversized.append(self.scope.oversized[name])
        return None if value is None else self._taken(value, name, quoted)

    def _taken(self, value: Value, name: str, quoted: bool) -> Value | None:
        """A value as this expansion reads it: the defaults it holds are noted as taken, or, when
        they are off (`Scope.off`), are unknown text."""
        held = assumptions(value)
        if not held:
            return value
        off = {assumed for assumed in held if not self.scope.allows(assumed)}
        if not off:
            for assumed in held:
                self._took(assumed, quoted)
            return value
        if isinstance(value, (Scalar, Partial)):
            pieces = value.chunks if isinstance(value, Scalar) else value.parts
            raw = f"${{{name}}}"
            return Partial(tuple(Hole(p.start, p.end, raw, True) if isinstance(p, Chunk) and p.assumed in off else p for p in pieces))
        return None

    def _parameter(self, node: Node, name: str, index: str | None, quoted: bool) -> list[Part]:
        start, end = self.span(node)
        raw = self.place.parsed.source(node)
        if name in ("@", "*") and index is None:
            return self._elements(node, self.scope.positional, name == "@", quoted)
        value = self._lookup(name, quoted)
        if isinstance(value, (Scalar, Partial, Array)):
            self.place.budget.charge(
                _PIECE_COST
                * len(value.chunks if isinstance(value, Scalar) else value.parts if isinstance(value, Partial) else value.elements)
            )
        if isinstance(value, Forwarded):
            return [Hole(start, end, raw, not quoted, forwarded=value.first if index is None else 0)]
        if index in ("@", "*"):
            elements = value.elements if isinstance(value, Array) else None
            if isinstance(value, Scalar):
                elements = (Field(value.text, start, end, raw, self.words, chunks=value.chunks),)  # type: ignore[arg-type]
            if value is UNSET:
                elements = ()
            return self._elements(node, elements, index == "@", quoted)
        if index is not None:
            if not index.isdigit():
                return [Hole(start, end, raw, not quoted)]
            if isinstance(value, Array):
                position = int(index)
                if position >= len(value.elements):
                    return [] if value.known else [Hole(start, end, raw, not quoted)]
                value = Array((value.elements[position],))
            elif isinstance(value, Scalar) and index != "0":
                return []
        if value is None:
            return [Hole(start, end, raw, not quoted)]
        if value is UNSET:
            return []
        if isinstance(value, Partial):
            if not quoted:
                return [Hole(start, end, raw, splits=True)]  # where the known pieces split is not known
            site = (start, end)
            return [
                replace(part, quoted=True, expanded=True, site=site) if isinstance(part, Chunk) else replace(part, splits=False)
                for part in value.parts
            ]
        if isinstance(value, Array):
            if not value.elements:
                return []
            first = value.elements[0]
            if not first.known:
                return [Hole(start, end, raw, not quoted)]
            return [Elements((first,), quoted, start, end, raw)]
        return [replace(chunk, quoted=quoted, expanded=True, site=(start, end)) for chunk in value.chunks] or [
            Chunk("", start, end, False, quoted, True, None)
        ]

    def _elements(self, node: Node, elements: Iterable[Field] | None, separate: bool, quoted: bool) -> list[Part]:
        start, end = self.span(node)
        raw = self.place.parsed.source(node)
        if elements is None:
            return [Hole(start, end, raw, splits=True)]
        # The script's own arguments are said where they are handed on (`"$@"` in this command).
        elements = tuple(
            Field(None, start, end, raw, self.words, spread=True, chunks=(Hole(start, end, raw, True, e.forwarded),), forwarded=e.forwarded)
            if e.forwarded and e.spread
            else e
            for e in elements
        )
        if not separate and quoted:
            if any(not element.known for element in elements):
                return [Hole(start, end, raw, splits=False)]
            chunks: list[Part] = []
            for number, element in enumerate(elements):
                if number:
                    chunks.append(Chunk(" ", start, end, False, True, True, None))
                chunks.extend(replace(chunk, quoted=True) for chunk in element_chunks(element) if isinstance(chunk, Chunk))
            return chunks or [Chunk("", start, end, False, True, True, None)]
        return [Elements(elements, quoted, start, end, raw)]

"""What shell words and variables hold: `Field`s (the words a command receives, each with the
text to edit to change it), their `Chunk`s and `Hole`s (known text and unknown expansions),
`Scalar` and `Array` values, `UNSET`, the `Container` a word sits in, and the `Scope` the
expander reads.
"""

from __future__ import annotations

from dataclasses import field
from typing import Callable, Mapping, Union

from ...records import record


@record(unsafe_hash=True)
class Container:
    """Text that holds words and can take edits: the words of a command, an array literal,
    a quoted string that defines a variable. `close` is where it ends (None: at the line end);
    `layers` are the quoting contexts around its content (outermost first)."""

    key: tuple
    close: int | None
    kind: str  # "words", "array", "string", "bare"
    layers: tuple = ()


@record(unsafe_hash=True)
class Assumed:
    """A default taken because nothing in the script sets its variable (`${MODEL:-m}`,
    `: "${BACKEND:=vllm}"`, `${1:-vllm}`), and `condition`, when it holds ("`MODEL` is unset");
    `positional`: the script's argument it is about (0: a variable)."""

    condition: str
    positional: int = 0


@record(unsafe_hash=True)
class Chunk:
    """A run of characters of an expanded word and the file text it came from."""

    text: str
    start: int
    end: int
    exact: bool  # text is the file text [start, end), character for character
    quoted: bool  # not subject to splitting and globbing
    expanded: bool  # the result of an expansion (split when unquoted)
    container: Container | None
    site: tuple[int, int] | None = None  # the expansion that produced it (`$X` in the word)
    assumed: Assumed | None = None  # the text is a default, taken on that condition


@record(unsafe_hash=True)
class Hole:
    """Text we cannot know. `splits`: unquoted, so it may be any number of words. `forwarded`:
    the script's own arguments from that number on (`"$@"`: 1; `$2`: 2), which a launch is
    judged without (0: anything else). `reparsed`: the placeholder of a script read again
    (`eval "$CMD"`, `bash -c "$CMD"`) for the outer shell's text `raw`, whose result this
    shell parses (so `${X:+NAME=$X}` there is nothing or an assignment). `assigns`: the text
    is `NAME=` for one of these names (paths that spelled it differently, joined)."""

    start: int
    end: int
    raw: str
    splits: bool
    forwarded: int = 0
    reparsed: bool = False
    assigns: tuple[str, ...] = ()


@record(unsafe_hash=True)
class Field:
    """One word a command receives, and the file text to edit to change it."""

    text: str | None
    start: int
    end: int
    raw: str
    container: Container
    spread: bool = False
    shared: bool = False  # other fields were cut from the same text: edits are not safe
    chunks: tuple[Chunk | Hole, ...] = ()
    variable: str | None = None  # the word is exactly this variable (`"$VLLM_BIN"`)
    forwarded: int = 0  # the script's own arguments from that number on (see `Hole`)

    @property
    def known(self) -> bool:
        return self.text is not None and not self.spread


@record(unsafe_hash=True)
class Elements:
    """`"$@"`, `"${A[@]}"`: fields that stay separate words; `more`: unknown ones follow."""

    fields: tuple[Field, ...]
    quoted: bool
    start: int
    end: int
    raw: str


Part = Union[Chunk, Hole, Elements]


@record(unsafe_hash=True)
class Scalar:
    chunks: tuple[Chunk, ...]

    @property
    def text(self) -> str:
        return "".join(chunk.text for chunk in self.chunks)


@record(unsafe_hash=True)
class Array:
    elements: tuple[Field, ...]

    @property
    def known(self) -> bool:
        return all(element.known for element in self.elements)


@record(unsafe_hash=True)
class Forwarded:
    """A positional parameter that is the script's own argument number `first` (`$1` in the
    script, or in a function called with `"$@"`): unknown, but absent when the script is run
    as written, without arguments."""

    first: int


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


@record(unsafe_hash=True)
class Partial:
    """A string some pieces of which are not known (`CMD="vllm serve $MODEL"`, MODEL from the
    environment). `bash -c "$CMD"` and `eval` read it as a script, holes and all; anywhere else
    the value is unknown."""

    parts: tuple[Chunk | Hole, ...]


Value = Union[Scalar, Array, _Unset, Partial]


def assumptions(value: Value) -> set[Assumed]:
    """The defaults a value holds text of."""
    if isinstance(value, Scalar):
        return {chunk.assumed for chunk in value.chunks if chunk.assumed is not None}
    if isinstance(value, Partial):
        return {part.assumed for part in value.parts if isinstance(part, Chunk) and part.assumed is not None}
    if isinstance(value, Array):
        return {c.assumed for element in value.elements for c in element.chunks if isinstance(c, Chunk) and c.assumed is not None}
    return set()


def scalar_text(value: Value | None) -> str | None:
    """The text of a variable as `"$X"` gives it; None when unknown."""
    if value is None or isinstance(value, Partial):
        return None
    if value is UNSET:
        return ""
    if isinstance(value, Scalar):
        return value.text
    assert isinstance(value, Array)
    if not value.elements:
        return ""
    first = value.elements[0]
    return first.text if first.known else None


NO_DEFAULTS = object()  # `Scope.off`: no default is taken for a variable nothing sets


@record
class Scope:
    """What the expander needs to know: variables and positional parameters of one world;
    `unset(name)`: the condition on which a variable nothing set is taken as unset, so that
    `${X:-v}` gives `v` (None: it may be set); `off`: the defaults not to take (or
    NO_DEFAULTS), for the launch as it would be without them."""

    variables: Mapping[str, Value]
    positional: tuple[Field, ...] | None  # None: unknown
    assign: object = None  # callback(name, Value) for `${X:=word}`
    unset: Callable[[str], Assumed | None] | None = None
    off: object = frozenset()
    oversized: Mapping[str, int] = field(default_factory=dict)  # `World.oversized`

    def allows(self, assumed: Assumed) -> bool:
        return self.off is not NO_DEFAULTS and assumed not in self.off  # type: ignore[operator]

"""What the value-flow reader knows of an expression (`Val`) and of the arguments that reach a
call (`Kwargs`: settings in order, each with where it was written, the branches it sits under,
the hops it took, and where a fix may write)."""

from __future__ import annotations

from dataclasses import field, replace
from typing import Any

from ....edits import Sequence
from ....model import UNKNOWN, Setting, Span
from ....records import record
from .module import Guard, Module


@record(unsafe_hash=True)
class Place:
    """An element of a container a fix edits (a dict literal's entries, a call's arguments), in
    the module that holds it; `position` -1: the container itself, where a new key is added."""

    module: Module
    sequence: Sequence
    quote: str
    kind: str  # "dict", "call", or "statement" (`target[key] = value`: `target` is its dict)
    position: int = -1
    target: str = ""

    def at(self, position: int) -> Place:
        return replace(self, position=position)


@record(unsafe_hash=True)
class Entry:
    """One key of the arguments: the setting (its span is the text that decides), where a fix
    writes it, the branches it is written under and the hops it took to reach the call."""

    setting: Setting
    place: Place | None = None
    guards: tuple[Guard, ...] = ()
    assumptions: tuple[tuple[str, Span], ...] = ()  # (condition, span): a default it rests on
    otherwise: Entry | None = None  # the entry in force where `guards` do not hold
    ref: Any = None  # what the value stands for beyond its Python value (a config object)


@record
class Kwargs:
    """Keyword arguments as they reach a call, in order."""

    entries: dict[str, Entry] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)  # what may add keys nobody can see
    home: Place | None = None  # where a new key is written
    sources: set[Span] = field(default_factory=set)  # dict literals and calls read (found by content too)
    # What the keys are complete on (`**overrides` no caller in the tree passes): judged as
    # written, a finding on an absent key says so.
    assumed: list[str] = field(default_factory=list)
    plain: bool = False  # a `dict` as such (a literal, `dict(...)`, a YAML or JSON file loaded): `isinstance(it, dict)`

    @property
    def whole(self) -> bool:
        """Whether the reader knows the mapping whole: no key unknown, none on a branch."""
        return not self.reasons and not any(entry.guards for entry in self.entries.values())

    def copy(self) -> Kwargs:
        return self.rebuilt(dict(self.entries))

    def rebuilt(self, entries: dict[str, Entry]) -> Kwargs:
        """The same keys' reasons, home, sources and assumptions, with `entries` for keys."""
        return Kwargs(entries, list(self.reasons), self.home, set(self.sources), list(self.assumed), self.plain)

    def merge(self, other: Kwargs, overwrites: bool = True) -> None:
        """`{**self, **other}`: the later keys win; keys `other` may hold unseen (a file named at
        run time) make the earlier ones unknown. Without `overwrites` (a call's `**other`, where
        Python refuses a repeated keyword), the earlier keys stand."""
        if other.reasons and overwrites:
            # whichever branch wrote an earlier key, it may be overwritten
            self.entries = {name: replace(unknown(entry), guards=(), otherwise=None) for name, entry in self.entries.items()}
        elif other.assumed and overwrites:  # the earlier keys stand only as far as `other` is complete
            self.entries = {name: _resting(entry, other.assumed) for name, entry in self.entries.items()}
        for name, entry in other.entries.items():
            earlier = self.entries.pop(name, None)
            self.entries[name] = replace(entry, otherwise=earlier) if entry.guards and earlier is not None else entry
        self.reasons.extend(reason for reason in other.reasons if reason not in self.reasons)
        self.assumed.extend(condition for condition in other.assumed if condition not in self.assumed)
        self.home = other.home or self.home
        self.sources |= other.sources

    def guarded(self, guards: tuple[Guard, ...]) -> Kwargs:
        """The same keys, each also under `guards` (a dict built in a branch)."""
        if not guards:
            return self
        return self.rebuilt({name: replace(entry, guards=(*guards, *entry.guards)) for name, entry in self.entries.items()})

    def value(self) -> dict[str, Any]:
        return {name: entry.setting.value for name, entry in self.entries.items()}

    def may_hold(self, key: str) -> bool:
        """Whether a caller that passes these keys may pass `key` (so a `setdefault` of it into
        the parameter is not certain): its keys are not all known (a caller outside the file,
        `**more` not read), or it passes `key` under a condition. Keys known whole without it (or
        `**kwargs` no caller passes, judged as written: `assumed`) leave the default certain."""
        held = self.entries.get(key)
        return bool(self.reasons) or (held is not None and bool(held.guards))


@record(unsafe_hash=True)
class Val:
    """What an expression holds, as far as the reader can tell.

    `value`: the Python value (UNKNOWN when it is not known); `kwargs`: the keys of a mapping,
    each with its own place; `span`: the literal that gives the value; `origin`: the text that
    writes it (a dict entry, an argparse `default=`), when that is not the expression read;
    `hops`: the places it passed through; `assumptions`: the defaults it rests on; `ref`: a
    function, class, partial, object or parser the value stands for; `parts`: the pieces of a
    text put together, also when one is not known (a command line a shell splits)."""

    value: Any = UNKNOWN
    keys: dict[str, Setting] = field(default_factory=dict)
    kwargs: Kwargs | None = None
    span: Span | None = None
    origin: Span | None = None
    hops: tuple[Span, ...] = ()
    assumptions: tuple[tuple[str, Span], ...] = ()
    ref: Any = None
    written: str = ""  # the text at `origin` (a dict entry, a constructor's keyword)
    parts: tuple[Val, ...] = ()  # a text put together (an f-string, `a + b`): its pieces, each where it is decided
    choices: tuple[Val, ...] = ()  # one of these, by a test decided at run time (`4096 if hard else 1024`); `value` UNKNOWN
    one_word: bool = False  # not known, but certainly a number (`int(time.time())`, `base_port + i`): no spaces

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN

    def via(self, *hops: Span) -> Val:
        return replace(self, hops=(*hops, *self.hops))


NOTHING = Val()


def _resting(item: Entry, conditions: list[str]) -> Entry:
    span = item.setting.span
    more = tuple((condition, span) for condition in conditions if (condition, span) not in item.assumptions)
    return replace(item, assumptions=(*item.assumptions, *more)) if more else item


def unknown(item: Entry) -> Entry:
    """The key present, its value not known here (nothing is fixed there)."""
    ref = None if isinstance(item.ref, Kwargs) else item.ref  # a nested dict's keys are not known either
    return replace(item, setting=replace(item.setting, value=UNKNOWN, keys={}, choices=()), place=None, ref=ref)


def under(held: Entry, default: Entry) -> Entry:
    """A key written under an `if`, with a `setdefault` after it: the default in force where no
    earlier write was made."""
    if not held.guards:
        return held
    return replace(held, otherwise=default if held.otherwise is None else under(held.otherwise, default))


def read_from(setting: Setting, assumptions: tuple[tuple[str, Span], ...] = (), ref: Any = None) -> Val:
    """The value a setting holds, read where it is used: it is decided where it was written."""
    return Val(
        setting.value,
        dict(setting.keys),
        span=setting.value_span,
        origin=setting.span,
        hops=setting.via,
        assumptions=assumptions,
        written=setting.spelling,
        ref=ref,
        choices=tuple(read_from(choice) for choice in setting.choices),
    )

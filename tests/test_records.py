"""`records.record` makes the dataclass `dataclass` makes, with one `__repr__` shared by every
record: its text must stay `dataclass`'s (results are compared and cache keys built from reprs)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, fields
from typing import Any

from replaylint.model import Launch, LaunchKind, Setting, Span
from replaylint.records import fields_repr, record


@dataclass(unsafe_hash=True)
class PlainPoint:
    x: int
    label: str = "a"
    hidden: tuple = field(default=(), repr=False)


@record(unsafe_hash=True)
class Point:
    x: int
    label: str = "a"
    hidden: tuple = field(default=(), repr=False)


@dataclass
class PlainPoint3(PlainPoint):
    z: float = 0.5


@record
class Point3(Point):
    z: float = 0.5


@record
class Node:
    name: str
    children: list = field(default_factory=list)


@record(frozen=True)
class Named:
    name: str

    def __repr__(self) -> str:
        return f"<{self.name}>"


def _as_plain(text: str) -> str:
    return text.replace("Point", "PlainPoint")


def test_a_record_is_shown_as_dataclass_shows_it() -> None:
    assert _as_plain(repr(Point(1, "b'\"", (1,)))) == repr(PlainPoint(1, "b'\"", (1,))) == "PlainPoint(x=1, label='b\\'\"')"
    assert _as_plain(repr(Point3(2))) == repr(PlainPoint3(2)) == "PlainPoint3(x=2, label='a', z=0.5)"
    assert repr(Point(1)) == str(Point(1)) == f"{Point(1)}"


def test_a_record_keeps_what_dataclass_gives_it() -> None:
    assert Point(1) == Point(1) and Point(1) != Point(2) and hash(Point(1)) == hash(Point(1))
    assert [f.name for f in fields(Point3)] == ["x", "label", "hidden", "z"]
    assert Point.__repr__ is fields_repr and Point3.__repr__ is fields_repr


def test_its_own_repr_is_kept_and_a_cycle_is_shown_once() -> None:
    assert repr(Named("n")) == "<n>"
    node = Node("root")
    node.children.append(node)
    assert repr(node) == "Node(name='root', children=[...])"


def test_the_model_reads_as_before() -> None:
    span = Span("a.py", 1, 1, 1, 5, 0, 4)
    assert repr(span) == "Span(path='a.py', start_line=1, start_col=1, end_line=1, end_col=5, start=0, end=4)"
    setting = Setting("return_sampling_mask", True, span, "--return-sampling-mask")
    assert repr(setting).startswith("Setting(name='return_sampling_mask', value=True, span=Span(path='a.py'")
    assert repr(Launch(LaunchKind.CLI, span, {})).startswith("Launch(kind=<LaunchKind.CLI: ")


@dataclass(frozen=True)
class PlainOne:
    value: object


@record(frozen=True)
class One:
    value: object


@dataclass(unsafe_hash=True)
class PlainMixed:
    key: str
    note: str = field(default="", compare=False)
    cached: int = field(default=0, hash=False)


@record(unsafe_hash=True)
class Mixed:
    key: str
    note: str = field(default="", compare=False)
    cached: int = field(default=0, hash=False)


@record
class Mutable:
    x: int


@record(frozen=True)
class Empty:
    pass


@record(frozen=True)
class OwnHash:
    x: int

    def __hash__(self) -> int:
        return 7


@record(frozen=True)
class OwnEq:
    x: int

    def __eq__(self, other: object) -> bool:
        return True


def test_equality_and_hash_are_dataclass_s() -> None:
    nan = float("nan")
    assert One(nan) == One(nan) and PlainOne(nan) == PlainOne(nan)  # the same object in a tuple
    assert One(float("nan")) != One(float("nan"))
    assert hash(One("a")) == hash(PlainOne("a")) == hash(("a",))  # the fields' tuple, one field too
    assert hash(Mixed("k", "n", 3)) == hash(PlainMixed("k", "n", 3)) == hash(("k",))
    assert Mixed("k", "n", 1) == Mixed("k", "m", 1) and Mixed("k", cached=1) != Mixed("k", cached=2)
    assert Empty() == Empty() and hash(Empty()) == hash(())
    assert Point3(1) != Point(1) and Point(1) != PlainPoint(1) and Point(1).__eq__(PlainPoint(1)) is NotImplemented
    assert Point3(1, "a", (), 0.5) == Point3(1) and Point3(1, z=1.0) != Point3(1)
    assert Mutable(1) == Mutable(1) and Mutable.__hash__ is None
    assert hash(OwnHash(1)) == 7 and OwnHash(1) == OwnHash(1) and OwnHash(1) != OwnHash(2)
    assert OwnEq(1) == OwnEq(2) and hash(OwnEq(1)) == hash((1,))
    assert {Span("a.py", 1, 1, 1, 5, 0, 4), Span("a.py", 1, 1, 1, 5, 0, 4)} == {Span("a.py", 1, 1, 1, 5, 0, 4)}


def test_dataclass_s_errors_stay() -> None:
    import pytest

    with pytest.raises(TypeError, match="Cannot overwrite attribute __hash__"):

        @record(unsafe_hash=True, frozen=True)
        class Both:
            x: int

            def __hash__(self) -> int:
                return 1

    with pytest.raises(FrozenInstanceError):
        One(1).value = 2  # type: ignore[misc]


@dataclass(frozen=True, order=True)
class PlainRanked:
    major: int
    name: str = field(default="", compare=False)
    minor: int = 0


@record(frozen=True, order=True)
class Ranked:
    major: int
    name: str = field(default="", compare=False)
    minor: int = 0


def test_order_is_dataclass_s() -> None:
    import pytest

    values = [(2, "b", 1), (1, "z", 5), (2, "a", 0), (1, "y", 5)]
    assert [(r.major, r.name, r.minor) for r in sorted(Ranked(*v) for v in values)] == [
        (r.major, r.name, r.minor) for r in sorted(PlainRanked(*v) for v in values)
    ]
    assert Ranked(1) <= Ranked(1, "other") and Ranked(1) >= Ranked(1) and Ranked(2) > Ranked(1, minor=9) and not Ranked(1) < Ranked(1)
    with pytest.raises(TypeError):
        Ranked(1) < PlainRanked(2)  # noqa: B015
    with pytest.raises(TypeError, match="Cannot overwrite attribute __lt__"):

        @record(frozen=True, order=True)
        class OwnOrder:
            x: int

            def __lt__(self, other: object) -> bool:
                return True


def _wide(make: Any) -> Any:
    @make
    class Wide:
        name: str
        tags: list = field(default_factory=list)
        seen: set = field(default_factory=set, init=False)
        note: str = field(default="n", init=False)
        level: int = field(default=1, kw_only=True)
        extra: dict = field(default_factory=dict, kw_only=True)
        rank: int = field(kw_only=True, default=0)

    return Wide


def _selfish(make: Any) -> Any:
    @make
    class Selfish:
        self: int
        other: int = 2

        def __post_init__(self_) -> None:  # noqa: N805
            self_.other += 1

    return Selfish


PlainWide, Wide = _wide(dataclass(frozen=True)), _wide(record(frozen=True))
PlainSelfish, Selfish = _selfish(dataclass(unsafe_hash=True)), _selfish(record(unsafe_hash=True))


@record
class Wider(Node):
    depth: int = 0


def _state(instance: object) -> dict:
    return dict(vars(instance))


def test_init_is_dataclass_s() -> None:
    import inspect

    import pytest

    for plain, shared in [(PlainWide, Wide), (PlainSelfish, Selfish), (PlainPoint3, Point3), (PlainRanked, Ranked)]:
        assert str(inspect.signature(shared)) == str(inspect.signature(plain))
        assert shared.__init__.__annotations__ == plain.__init__.__annotations__
        assert shared.__doc__ == plain.__doc__.replace("Plain", "")  # (written from the signature)
        assert shared.__init__.__qualname__ == plain.__init__.__qualname__.replace("Plain", "")
    assert _state(Wide("a", [1], level=3)) == _state(PlainWide("a", [1], level=3)) == {
        "name": "a", "tags": [1], "seen": set(), "level": 3, "extra": {}, "rank": 0
    }  # fmt: skip
    assert Wide("a").tags is not Wide("a").tags and Wide("a").note == "n"
    assert _state(Selfish(1)) == _state(PlainSelfish(1)) == {"self": 1, "other": 3}
    assert _state(Wider("n", depth=2)) == {"name": "n", "children": [], "depth": 2}
    with pytest.raises(FrozenInstanceError):
        Wide("a").name = "b"  # type: ignore[misc]
    with pytest.raises(TypeError, match="positional argument"):
        Wide("a", [], 1)  # type: ignore[misc]
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):

        @record
        class Misordered:
            x: int = 0
            y: int  # type: ignore[misc]


def test_a_frozen_record_refuses_writes_as_dataclass_s() -> None:
    import pytest

    class Loose(Wide):  # (not a dataclass: names other than the fields may be set)
        pass

    for made in (PlainWide, Wide):
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'extra'"):
            made("a").extra = {}
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'other'"):
            del made("a").other
    loose = Loose("a")
    loose.other = 1
    del loose.other
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'name'"):
        loose.name = "b"
    assert Wide.__dataclass_params__.frozen and Wide.__setattr__.__qualname__ == "_wide.<locals>.Wide.__setattr__"
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):

        @record
        class Thawed(Wide):
            pass

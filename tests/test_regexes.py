"""`regexes.on_use` stands for `re.compile(...)` until first used, then is the compiled
expression's methods: the same matches, replacements and attributes, for text and bytes."""

from __future__ import annotations

import copy
import re

from replaylint.regexes import on_use


def test_it_matches_as_the_compiled_expression() -> None:
    lazy, compiled = on_use(r"(?P<key>\w+)=(\d+)", re.ASCII), re.compile(r"(?P<key>\w+)=(\d+)", re.ASCII)
    text = "a=1, bé=2 c=x d=44"
    assert [m.groups() for m in lazy.finditer(text)] == [m.groups() for m in compiled.finditer(text)] == [("a", "1"), ("d", "44")]
    assert lazy.sub(r"\2", text) == compiled.sub(r"\2", text) and lazy.split(text) == compiled.split(text)
    assert lazy.search(text, 3).span() == compiled.search(text, 3).span() and lazy.match(text, 5) is None
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (compiled.pattern, compiled.flags, 2, {"key": 1})
    assert on_use(rb"--(?:return|config)").findall(b"--return --x --config") == [b"--return", b"--config"]


def test_an_invalid_expression_fails_where_it_is_used() -> None:
    import pytest

    broken = on_use(r"[z-a]")
    with pytest.raises(re.error):
        broken.search("a")
    assert copy.copy(on_use("a+")).fullmatch("aa")

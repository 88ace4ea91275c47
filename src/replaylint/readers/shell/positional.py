"""The positional parameters as bash shifts and slices them (`shift N`, `${@:N}`)."""

from __future__ import annotations

from dataclasses import replace

from .values import Field


def from_offset(positional: tuple[Field, ...] | None, offset: int) -> tuple[Field, ...] | None:
    """`${@:offset}`: the positional parameters from number `offset` on (0 counts `$0`, unknown)."""
    if positional is None or offset < 1:
        return None
    return drop(positional, offset - 1)


def drop(positional: tuple[Field, ...], count: int) -> tuple[Field, ...]:
    """The positional parameters without the first `count` (`shift`): a spread among them may
    hold any number of words, so it stays (the script's own arguments from a later number on)."""
    for index, element in enumerate(positional[:count]):
        if element.spread:
            if not element.forwarded:
                return positional[index:]
            return (replace(element, forwarded=element.forwarded + count - index), *positional[index + 1 :])
    return positional[count:]

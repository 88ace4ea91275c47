"""A YAML list of shell commands run as one script (dstack's `commands:`, GitLab CI's
`before_script:` and `script:`), with each character's place in the file kept."""

from __future__ import annotations

import re
from typing import Callable

from yaml.nodes import Node, ScalarNode

from ...readers.yaml_nodes import STR
from ...readers.yaml_text import Text, scalar_text
from ...source import SourceFile

# What a tool's own interpolation (`${{ run.args }}`, `$[[ inputs.x ]]`) stands for: words not known
# here, as an unset variable's expansion is.
_UNKNOWN_WORDS = "$__replaylint_interpolated"


def joined_script(
    source: SourceFile, commands: list[Node], separator: str, interpolation: re.Pattern[str] | None = None, braced_background: bool = False
) -> tuple[Text, str, bool] | None:
    """The commands (string scalars) joined by `separator`, each stripped; a command ending in `&`
    in `{ ... }` when `braced_background` (dstack's `&&` chain). With the scalar style they share
    and whether fixes can be written into them (not when their styles differ: an edit is escaped
    for one style). None when a command is not a string or none is left."""
    parts: list[Text] = []
    styles = set()
    for command in commands:
        if not isinstance(command, ScalarNode) or command.tag != STR:
            return None
        text = _stripped(scalar_text(source.text, command))
        if interpolation is not None:
            text = interpolated(text, interpolation)
        if not text.value:
            continue
        if parts:  # where the command before ends, so that its last word ends there too
            parts.append(Text.filled(separator, parts[-1].anchor[1], parts[-1].anchor[1]))
        if braced_background and text.value.endswith("&"):
            text = Text.join([Text.filled("{ ", text.anchor[0], text.anchor[0]), text, Text.filled(" }", text.anchor[1], text.anchor[1])])
        parts.append(text)
        styles.add(command.style or "")
    if not parts:
        return None
    return Text.join(parts), min(styles), len(styles) == 1


def _stripped(text: Text) -> Text:
    start, end = len(text.value) - len(text.value.lstrip()), len(text.value.rstrip())
    return text.slice(start, end) if end > start else text.slice(0, 0)


def interpolated(text: Text, interpolation: re.Pattern[str], known: Callable[[re.Match[str]], Text | None] = lambda found: None) -> Text:
    """`text` with each match of `interpolation` replaced by its `known` value, else by words not known here."""
    parts, at = [], 0
    for found in interpolation.finditer(text.value):
        a, b = text.region(found.start(), found.end())
        parts += [text.slice(at, found.start()), known(found) or Text.filled(_UNKNOWN_WORDS, a, b)]
        at = found.end()
    return Text.join([*parts, text.slice(at, len(text.value))]) if parts else text

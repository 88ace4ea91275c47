"""Manifests held inside another document: an OpenShift `Template`'s `objects:` and a `List`'s `items:`.

`oc process` (and `oc apply -f` of a List) creates each object as a manifest of its own, so a
Deployment and the Service that selects its pods are read as two documents. A Template's
`${NAME}` and `${{NAME}}` parameters are given when it is processed (`oc process -p NAME=...`,
or a parameter's `value:`, which `-p` replaces): a word that holds one is not known here.
"""

from __future__ import annotations

import re

from yaml.nodes import Node

from ...readers.yaml_nodes import HOLE, get, get_str, items
from ...readers.yaml_text import Text

_HOLDERS = {"Template": "objects", "List": "items"}
_PARAMETER = re.compile(r"\$\{\{?[A-Za-z_][A-Za-z0-9_]*\}?\}")


def manifests(documents: list[Node]) -> tuple[list[Node], set[int]]:
    """The manifests of the documents, those a Template or List holds in its place, and the ids
    of those a Template holds (whose `${NAME}` parameters are not known)."""
    found: list[Node] = []
    templated: set[int] = set()
    for document in documents:
        holder = _HOLDERS.get(get_str(document, "kind") or "")
        held = items(get(document, holder)) if holder is not None else []
        if not held:
            found.append(document)
            continue
        found.extend(held)
        if holder == "objects":
            templated.update(id(item) for item in held)
    return found, templated


def without_parameters(text: Text) -> Text:
    """The text with each Template parameter a hole."""
    if "${" not in text.value:
        return text
    parts: list[Text] = []
    cursor = 0
    for match in _PARAMETER.finditer(text.value):
        parts.append(text.slice(cursor, match.start()))
        a, b = text.region(match.start(), match.end())
        parts.append(Text.filled(HOLE, a, b, text.exact))
        cursor = match.end()
    parts.append(text.slice(cursor, len(text)))
    return Text.join(parts)

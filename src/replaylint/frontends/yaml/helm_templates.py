"""A Helm chart's own template, read for how a values list reaches the container: the `args:` of
the one container whose template passes it item by item (`{{- range .Values.extraArgs }}` then
`- {{ . | quote }}`), as vllm-project/production-stack's `deployment-vllm-multi.yaml` and most
home-grown vLLM charts write it.

Read line by line (a template is not YAML until Helm renders it), and only in the plainest form:
every item of that `args:` is a literal, `{{ .Values.x }}` (with `| quote` or not) or the range,
and the container's image is the values' `image`. A container with a `command:` of its own, an
`if`, `include`, `toYaml` or any other template among its arguments, or two templates ranging
over the same list, leave the launch open-ended (the values reader's reading). `env:` or
`envFrom:` on the container open its environment.
"""

from __future__ import annotations

import os
import re

from ...model import LineIndex
from ...records import record
from ...source import ExtractContext

_TEMPLATE_SUFFIXES = (".yaml", ".yml", ".tpl")
_MAX_TEMPLATES = 64
_TEMPLATE_ONLY = re.compile(r"^\s*\{\{-?\s*(?P<body>.*?)\s*-?\}\}\s*$")
_ITEM = re.compile(r"^(?P<indent>\s*)-\s+(?P<value>.*?)\s*$")
_VALUE = re.compile(r"^\{\{-?\s*\.Values\.(?P<path>[\w.]+)\s*(?:\|\s*quote\s*)?-?\}\}$")
_DOT = re.compile(r"^\{\{-?\s*\.\s*(?:\|\s*quote\s*)?-?\}\}$")
_KEY = re.compile(r"^\s*(?:-\s+)?(?P<key>[\w-]+):")


@record(unsafe_hash=True)
class Item:
    """One `args:` item: `kind` "values" (`path` under `.Values`), "range" (each item of `path`)
    or "literal" (`text`, at `start`-`end` of the template `index`)."""

    kind: str
    path: str = ""
    text: str = ""
    index: LineIndex | None = None
    start: int = 0
    end: int = 0


@record(unsafe_hash=True)
class ChartContainer:
    template: str
    items: tuple[Item, ...]
    env: bool  # the container sets `env:` or `envFrom:`


def ranged_container(context: ExtractContext, values_path: str, listed: str, image: str) -> ChartContainer | None:
    """The container whose `args:` ranges over `.Values.<listed>`, in the chart whose values file
    is `values_path`, when its image is `.Values.<image>...` and its arguments are plain."""
    chart = os.path.dirname(values_path)
    if context.read_text(os.path.join(chart, "Chart.yaml")) is None:
        return None
    ranging = _range_over(listed)
    found = []
    for path in _templates(context, os.path.join(chart, "templates")):
        text = context.read_text(path)
        if text is None or ".Values." + listed not in text:
            continue
        lines = text.splitlines(keepends=True)
        for number, line in enumerate(lines):
            if ranging.search(line):
                found.append(_container(path, text, lines, number, listed, image))
    return found[0] if len(found) == 1 else None


def _range_over(listed: str) -> re.Pattern[str]:
    """`{{- range .Values.<listed> }}` (or `range $arg := ...`), and not a list whose name starts the same."""
    return re.compile(r"\{\{-?\s*range\s+(?:\$\w+\s*:=\s*)?\.Values\." + re.escape(listed) + r"\s*-?\}\}")


def _templates(context: ExtractContext, folder: str) -> list[str]:
    names = [name for name in context.list_folder(folder) if name.endswith(_TEMPLATE_SUFFIXES)]
    return [os.path.join(folder, name) for name in names[:_MAX_TEMPLATES]]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _container(path: str, text: str, lines: list[str], ranged: int, listed: str, image: str) -> ChartContainer | None:
    args = ranged - 1
    while args >= 0 and (_ITEM.match(lines[args]) or _TEMPLATE_ONLY.match(lines[args])):
        args -= 1
    if args < 0 or lines[args].strip() != "args:":
        return None
    items = _items(path, text, lines, args, listed)
    keys = _keys(lines, args)
    if items is None or keys is None or "command" in keys or not re.search(rf"\.Values\.{re.escape(image)}\b", keys.get("image", "")):
        return None
    return ChartContainer(path, items, "env" in keys or "envFrom" in keys)


def _items(path: str, text: str, lines: list[str], args: int, listed: str) -> tuple[Item, ...] | None:
    index = LineIndex(path, text)
    offset = sum(len(line) for line in lines[: args + 1])
    items: list[Item] = []
    ranging = False
    range_over = _range_over(listed)
    for line in lines[args + 1 :]:
        start, offset = offset, offset + len(line)
        template = _TEMPLATE_ONLY.match(line)
        item = _ITEM.match(line)
        if template is not None:
            body = template["body"]
            if range_over.search(line) and not ranging:
                ranging = True
                items.append(Item("range", listed))
            elif body == "end" and ranging:
                ranging = False
            else:
                return None
        elif item is not None and _indent(line) >= _indent(lines[args]):
            value = item["value"]
            if ranging:
                if not _DOT.match(value):
                    return None
            elif (written := _VALUE.match(value)) is not None:
                items.append(Item("values", written["path"]))
            elif "{{" in value or value[:1] in ("[", "{", "&", "*", "!", "|", ">"):
                return None
            else:
                literal = value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value
                at = start + line.index(value)
                items.append(Item("literal", text=literal, index=index, start=at, end=at + len(value)))
        elif line.strip() and _indent(line) <= _indent(lines[args]):
            break
        elif line.strip():
            return None
    return None if ranging else tuple(items)


def _keys(lines: list[str], args: int) -> dict[str, str] | None:
    """The keys of the container `args:` belongs to, with their lines (None: not in a list item)."""
    width = _indent(lines[args])
    first = args
    while first >= 0 and not (_indent(lines[first]) < width and lines[first].lstrip().startswith("- ")):
        if lines[first].strip() and _indent(lines[first]) < width and not _TEMPLATE_ONLY.match(lines[first]):
            return None
        first -= 1
    if first < 0:
        return None
    keys = {}
    for number in range(first, len(lines)):
        line = lines[number]
        if number > first and line.strip() and _indent(line) < width and not _TEMPLATE_ONLY.match(line):
            break
        key = _KEY.match(line)
        if key is not None and (number == first or _indent(line) == width):
            keys[key["key"]] = line
    return keys

"""A chart's extra values file (`values-prod.yaml` beside `values.yaml`) as a Helm command line of
the tree installs it: `helm upgrade --install NAME ./chart -f chart/values.yaml -f chart/values-prod.yaml`.

Helm starts from the chart's own `values.yaml` and merges each `-f` (`--values`) file over it in
order: a later file's mapping keys win one by one, and a list is replaced whole (Helm's "Values
Files" docs). So a key of the extra file reaches the chart's template unless a later file sets it
again, and a key it lacks comes from the files before it.

The command line is looked for in the scripts of the chart's folder and of the folder above it
(`*.sh`, `*.bash`, `Makefile`), a `-f` path taken from the script's folder or the tree's root.
Read only when exactly one command line gives the file and every `-f` word of it is plain
(no `$VAR`); `--set`-style words that touch the keys the launch reads (`extraArgs`, `image`) make
it unknown. No such command line: the file is not read as installed (no launch of it).
"""

from __future__ import annotations

import os
import re
import shlex

from yaml.nodes import Node

from ...model import LineIndex
from ...readers.yaml_nodes import get, only_document
from ...records import record
from ...source import ExtractContext

_SCRIPT_SUFFIXES = (".sh", ".bash")
_SCRIPT_NAMES = ("Makefile", "makefile", "GNUmakefile")
_MAX_SCRIPTS = 64
_HELM = re.compile(r"\bhelm\s+(?:upgrade|install|template)\b(?:[^\n\\]|\\.|\\\n)*")
_VALUES_OPTIONS = ("-f", "--values")
_SET_OPTIONS = ("--set", "--set-string", "--set-json", "--set-file", "--set-literal")


@record
class Layer:
    """One values file Helm merges, with its document."""

    index: LineIndex
    document: Node


@record
class Layers:
    """The values files of one install, in Helm's order (the chart's `values.yaml` first)."""

    layers: tuple[Layer, ...]
    own: int  # the position of the file read

    def lookup(self, dotted: str) -> tuple[LineIndex, Node] | None:
        """The node a dotted key has once the files are merged: the last file's that sets it."""
        for layer in reversed(self.layers):
            node = get(layer.document, *dotted.split("."))
            if node is not None:
                return layer.index, node
        return None

    def decided_here(self, dotted: str) -> bool:
        """Whether the file read gives the key its merged value (no later file sets it)."""
        return all(get(layer.document, *dotted.split(".")) is None for layer in self.layers[self.own + 1 :])


def installed(context: ExtractContext, values_path: str, touched: tuple[str, ...]) -> Layers | None:
    """The install that merges `values_path` (an extra values file of a chart), when the tree says it."""
    chart = os.path.dirname(values_path)
    if os.path.basename(values_path) in ("values.yaml", "values.yml") or context.read_text(os.path.join(chart, "Chart.yaml")) is None:
        return None
    wanted = os.path.normpath(values_path)
    found: set[tuple[str, ...]] = set()
    for folder, text in _scripts(context, (chart, os.path.dirname(chart) or ".")):
        for match in _HELM.finditer(text):
            files = _values_files(match.group(0), (folder, context.root), wanted, touched)
            if files is None:
                return None
            if files:
                found.add(files)
    if len(found) != 1:
        return None
    return _layers(context, os.path.join(chart, "values.yaml"), found.pop(), wanted)


def _scripts(context: ExtractContext, folders: tuple[str, ...]) -> list[tuple[str, str]]:
    scripts = []
    for folder in dict.fromkeys(folders):
        names = [n for n in context.list_folder(folder) if n.endswith(_SCRIPT_SUFFIXES) or n in _SCRIPT_NAMES]
        for name in names[:_MAX_SCRIPTS]:
            text = context.read_text(os.path.join(folder, name))
            if text is not None and "helm" in text:
                scripts.append((folder, text))
    return scripts


def _values_files(line: str, bases: tuple[str, str], wanted: str, touched: tuple[str, ...]) -> tuple[str, ...] | None:
    """The `-f` files of one helm command line (as they resolve to `wanted` or not); () when it does
    not give `wanted`; None when it gives it beside a file or `--set` the tree cannot read."""
    try:
        words = shlex.split(line.replace("\\\n", " "), comments=True)
    except ValueError:
        return ()
    given: list[str | None] = []
    sets: list[str] = []
    for position, word in enumerate(words):
        option, _, attached = word.partition("=")
        if option not in _VALUES_OPTIONS + _SET_OPTIONS:
            continue
        value = attached if attached else (words[position + 1] if position + 1 < len(words) else "")
        if option in _SET_OPTIONS:
            sets.extend(pair.split("=", 1)[0] for pair in value.split(","))
            continue
        for path in value.split(","):
            given.append(_resolved(path, bases, wanted))
    if wanted not in given:
        return ()
    if None in given or any(key.split(".")[0].split("[")[0] in touched for key in sets):
        return None
    return tuple(path for path in given if path is not None)


def _resolved(path: str, bases: tuple[str, str], wanted: str) -> str | None:
    if "$" in path or "`" in path:
        return None
    candidates = [os.path.normpath(os.path.join(base, path)) for base in bases]
    return wanted if wanted in candidates else candidates[0]


def _layers(context: ExtractContext, chart_values: str, files: tuple[str, ...], wanted: str) -> Layers | None:
    layers = []
    own = -1
    for path in (chart_values, *files):
        text = context.read_text(path)
        if text is None:
            if path == chart_values:
                continue
            return None  # a file the tree does not hold: any key
        document = only_document(text)
        if document is None:
            return None
        if path == wanted:
            own = len(layers)
        layers.append(Layer(LineIndex(path, text), document))
    return Layers(tuple(layers), own) if own >= 0 else None

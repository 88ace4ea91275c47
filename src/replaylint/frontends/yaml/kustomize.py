"""Kustomize overlays: a `kustomization.yaml` whose JSON 6902 patches change a container of its base.

An overlay (`resources:` naming the base folder or file, `patches:` or `patchesJson6902:` with a
`target:` kind and name) is what `kubectl apply -k` deploys: the base's workload with the patches
applied. The base's containers are read as written in their own file; the words a patch adds to
a container's `args` (`op: add`, `path: /spec/template/spec/containers/0/args/-` or `.../args/N`)
are placed at the patch's `value`, in the overlay or the patch file it names. Any other change of
that container (another op or path, a strategic merge patch of the workload, a patch file the tree
does not hold) leaves its launch open-ended. Fixes are not written: the words are in two files.
The base itself is still judged alone, as written, by the Kubernetes reader.
"""

from __future__ import annotations

import os
from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LineIndex, Span
from ...readers.yaml_nodes import STR, ComposeError, compose_all, get, get_str, items, only_document, span
from ...readers.yaml_text import scalar_text
from ...readers.yaml_words import Words
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import Token
from .kubernetes import container_launches, containers, label_of

NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_MAX_DEPTH = 4
_MAX_FILES = 32


def is_overlay(document: Node) -> bool:
    """A Kustomization that patches what its resources hold."""
    kind = get_str(document, "kind")
    return kind == "Kustomization" and bool(items(get(document, "resources"))) and _patch_items(document) != []


def _patch_items(document: Node) -> list[Node]:
    return [*items(get(document, "patches")), *items(get(document, "patchesJson6902")), *items(get(document, "patchesStrategicMerge"))]


class _Op:
    """One JSON patch operation: its op, pointer, and the value's word placed where it is written."""

    def __init__(self, op: str, pointer: str, word: tuple[str, Span, str] | None) -> None:
        self.op, self.pointer, self.word = op, pointer, word


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    folder = os.path.dirname(source.path)
    patches = [_patch(source, context, folder, item) for item in _patch_items(document)]
    launches: list[Launch] = []
    for base_source, workload in _workloads(context, folder, get(document, "resources"), 0, []):
        kind, name = get_str(workload, "kind"), get_str(workload, "metadata", "name")
        mine = [ops for target, ops in patches if target is None or target == (kind, name)]
        if not mine:
            continue
        for position, (pod, container, _) in enumerate(containers(workload)):
            launches.extend(_container(source, document, context, base_source, workload, (pod, container, position), mine))
    return launches


def _container(
    source: SourceFile,
    overlay: Node,
    context: ExtractContext,
    base: SourceFile,
    workload: Node,
    held: tuple[MappingNode, MappingNode, int],
    patches: list[list[_Op] | None],
) -> list[Launch]:
    pod, container, position = held
    prefix = _pointer_to(workload, pod, position)
    added: list[tuple[int | None, tuple[str, Span, str]]] = []
    reasons: list[str] = []
    for ops in patches:
        if ops is None:
            reasons.append("a patch of the overlay is not read")
            continue
        for op in ops:
            if prefix is None or not op.pointer.startswith(prefix):
                continue
            rest = op.pointer[len(prefix) :]
            at = rest.removeprefix("/args/")
            if op.op == "add" and op.word is not None and rest.startswith("/args/") and (at == "-" or at.isdigit()):
                added.append((None if at == "-" else int(at), op.word))
            else:
                reasons.append(f"the overlay's `{op.op} {op.pointer}` is not read")
    if not added and not reasons:
        return []

    def patched(words: Words) -> Words:
        tokens, places = list(words.tokens), list(words.places)
        for at, (text, where, raw) in added:
            at = len(tokens) if at is None else at
            tokens.insert(at, Token(text, where, raw))
            places.insert(at, None)
        return Words(tokens, places)

    label = f"{label_of(workload)} with the overlay {source.path}"
    found = container_launches(base, context, container, label, patch_args=patched)
    whole = span(source.index, overlay)
    return [replace(launch, span=whole, handle=None, open_reasons=(*launch.open_reasons, *reasons)) for launch in found]


def _pointer_to(workload: Node, pod: MappingNode, position: int) -> str | None:
    """The JSON pointer of the `position`-th container of the workload's pod spec."""
    for path in (("spec", "template", "spec"), ("spec",), ("spec", "jobTemplate", "spec", "template", "spec")):
        if get(workload, *path) is pod:
            return "/" + "/".join((*path, "containers", str(position)))
    return None


def _patch(
    source: SourceFile, context: ExtractContext, folder: str, item: Node
) -> tuple[tuple[str | None, str | None] | None, list[_Op] | None]:
    """(target kind and name, the operations) of one patch; None operations: not read."""
    target = get(item, "target")
    key = (get_str(target, "kind"), get_str(target, "name")) if target is not None else None
    body = get(item, "patch")
    if isinstance(item, ScalarNode) or (body is None and get_str(item, "path") is None):
        return None, None  # a strategic merge patch file: which workload it changes is in it
    if isinstance(body, ScalarNode) and body.tag == STR:
        text = scalar_text(source.text, body)
        return key, _operations(text.value, lambda start, end: source.index.span(*text.region(start, end)))
    path = os.path.normpath(os.path.join(folder, get_str(item, "path") or ""))
    held = context.read_text(path)
    if held is None:
        return key, None
    index = LineIndex(path, held)
    return key, _operations(held, lambda start, end: index.span(start, end))


def _operations(text: str, place) -> list[_Op] | None:
    """A JSON 6902 patch's operations (a YAML or JSON list); None when it is no such list."""
    document = only_document(text, SequenceNode)
    if document is None:
        return None
    ops = []
    for node in document.value:
        op, pointer, value = get_str(node, "op"), get_str(node, "path"), get(node, "value")
        if op is None or pointer is None:
            return None
        word = None
        if isinstance(value, ScalarNode) and value.tag == STR:
            word = (value.value, place(value.start_mark.index, value.end_mark.index), text[value.start_mark.index : value.end_mark.index])
        ops.append(_Op(op, pointer, word))
    return ops


def _workloads(context: ExtractContext, folder: str, resources: Node | None, depth: int, seen: list[str]) -> list[tuple[SourceFile, Node]]:
    """The documents the resources name (a base folder's own kustomization followed), each with its file."""
    found: list[tuple[SourceFile, Node]] = []
    for item in items(resources):
        name = item.value if isinstance(item, ScalarNode) and item.tag == STR else ""
        if not name or "://" in name or depth >= _MAX_DEPTH or len(seen) >= _MAX_FILES:
            continue
        path = os.path.normpath(os.path.join(folder, name))
        kustomization = next((k for k in (os.path.join(path, n) for n in NAMES) if context.read_text(k) is not None), None)
        if kustomization is not None:
            text = context.read_text(kustomization) or ""
            documents = _documents(text)
            if documents and path not in seen:
                seen.append(path)
                found.extend(_workloads(context, path, get(documents[0], "resources"), depth + 1, seen))
            continue
        text = context.read_text(path)
        if text is None or path in seen:
            continue
        seen.append(path)
        base = SourceFile(path, text)
        found.extend((base, document) for document in _documents(text))
    return found


def _documents(text: str) -> list[Node]:
    try:
        return compose_all(text)
    except ComposeError:
        return []

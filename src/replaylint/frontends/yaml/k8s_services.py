"""The Kubernetes Services that reach a server a workload's pods run: a client on
`http://<service>:8000` talks to the replay server there.

A Service reaches the pods its `spec.selector` matches (every key, by the pod template's labels)
in its namespace (the same `metadata.namespace`, or one of them unset: `kubectl -n` or kustomize
then sets both), when each of its ports is its target port (the client names the server's own
port). Its names: `name`, and with a namespace `name.ns`, `name.ns.svc`, `name.ns.svc.cluster.local`.

The Services of the workload's own file become `Launch.hosts` (`reached`). Manifests are often
split by kind (`deployment.yaml` beside `service.yaml`, as kustomize bases and Helm charts lay
them out) or by folder (`k8s/workloads/`, `k8s/network/`), so when a client of the tree names a
host no Service of the server's file gives, the other YAML files of that folder are looked at
for one, then the YAML files of the run in the same repository (the nearest folder above
holding `.git`, else the tree checked), nearest folders first (`hosts_beside`, asked by
`run/cross_file` after the run, so a Service file added or edited since is seen; a run that
names files knows the others an earlier run's cache remembers). That look is bounded: at most `MAX_FILES` files beside and
`MAX_TREE_FILES` elsewhere, of at most `MAX_CHARS` characters, each parsed only when its text has
a `kind: Service` line, read through the run (`read_text`: inside the tree only)."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Callable, Sequence

from yaml.nodes import Node, ScalarNode

from ...model import Launch
from ...readers.yaml_nodes import ComposeError, compose_all, entries, get, get_str, items
from .container_launch import held_by

MAX_FILES = 24
MAX_TREE_FILES = 256
MAX_CHARS = 200_000
_USUAL = ("service.yaml", "service.yml", "services.yaml", "services.yml", "svc.yaml", "svc.yml")
_NAMES_A_SERVICE = re.compile(r"^\s*kind:\s*[\"']?Service[\"']?\s*$", re.MULTILINE)


def reached(documents: list[Node], launches: list[Launch]) -> list[Launch]:
    """The launches, each with the names of the Services of the file that select its pods on a
    port they forward unchanged."""
    services = [document for document in documents if _is_service(document)]
    if not services:
        return launches
    places = [(document.start_mark.index, document.end_mark.index, _names(services, document)) for document in documents]
    return [replace(launch, hosts=held_by(launch, places)) for launch in launches]


def hosts_beside(
    path: str, offset: int, read_text: Callable[[str], str | None], read: dict[str, list[Node]], tree: Sequence[str] = ()
) -> tuple[str, ...]:
    """The names the Services of the other YAML manifests in the folder of `path`, and of the
    YAML files of `tree` (the run's) in its repository, give the workload of that file whose
    launch starts at `offset`. `read`: the Services of each file looked at so far (a run's
    servers share a folder's)."""
    text = read_text(path)
    if text is None or len(text) > MAX_CHARS:
        return ()
    try:
        documents = compose_all(text)
    except ComposeError:
        return ()
    workload = next((d for d in documents if d.start_mark.index <= offset < d.end_mark.index), None)
    if workload is None or not _pod_labels(workload):
        return ()
    return _names(_other_services(path, read_text, read, tree), workload)


def _names(services: list[Node], workload: Node) -> tuple[str, ...]:
    labels = _pod_labels(workload)
    namespace = get_str(workload, "metadata", "namespace")
    names = (name for service in services if labels and _selects(service, labels, namespace) for name in _service_names(service))
    return tuple(dict.fromkeys(names))


def _other_services(path: str, read_text: Callable[[str], str | None], read: dict[str, list[Node]], tree: Sequence[str]) -> list[Node]:
    """The Services of the other YAML manifests beside `path` and in its repository, each file read once (`read`)."""
    found: list[Node] = []
    for neighbour in dict.fromkeys((*_neighbours(path), *_elsewhere(path, tree))):
        if neighbour not in read:
            read[neighbour] = _services_in(read_text(neighbour))
        found += read[neighbour]
    return found


def _services_in(text: str | None) -> list[Node]:
    if text is None or len(text) > MAX_CHARS or not _NAMES_A_SERVICE.search(text):
        return []
    try:
        return [document for document in compose_all(text) if _is_service(document)]
    except ComposeError:
        return []  # a template or a broken file: its Services are not known


def _neighbours(path: str) -> list[str]:
    """The YAML files beside `path`, the usual Service file names first, at most MAX_FILES."""
    folder = os.path.dirname(path)
    try:
        listed = [entry.name for entry in os.scandir(folder or ".") if entry.name.endswith((".yaml", ".yml")) and entry.is_file()]
    except OSError:
        return []
    names = sorted((name for name in listed if name != os.path.basename(path)), key=lambda name: (name not in _USUAL, name))
    return [os.path.join(folder, name) for name in names[:MAX_FILES]]


def _elsewhere(path: str, tree: Sequence[str]) -> list[str]:
    """The YAML files of `tree` in the repository of `path` outside its folder, the nearest
    folders first, at most MAX_TREE_FILES."""
    folder = os.path.dirname(os.path.abspath(path))
    known: dict[str, str | None] = {}
    root = _repository(folder, known)
    found = []
    for other in tree:
        there = os.path.dirname(os.path.abspath(other))
        if other.endswith((".yaml", ".yml")) and there != folder and _repository(there, known) == root:
            found.append((os.path.relpath(there, folder).count(os.sep), other))
    return [other for _, other in sorted(found)[:MAX_TREE_FILES]]


def _repository(folder: str, known: dict[str, str | None]) -> str | None:
    """The nearest folder at or above `folder` that holds `.git` (None: none); `known`: the
    folders answered so far."""
    if folder not in known:
        above = os.path.dirname(folder)
        if os.path.exists(os.path.join(folder, ".git")):
            known[folder] = folder
        else:
            known[folder] = None if above == folder else _repository(above, known)
    return known[folder]


def _is_service(document: Node) -> bool:
    return get_str(document, "kind") == "Service"


def _pod_labels(document: Node) -> dict[str, str]:
    """The labels of the pods a workload runs (a bare Pod's own)."""
    pod = document if get_str(document, "kind") == "Pod" else get(document, "spec", "template")
    labels = get(pod, "metadata", "labels")
    return {str(key.value): str(value.value) for key, value in entries(labels) if isinstance(value, ScalarNode)}


def _selects(service: Node, labels: dict[str, str], namespace: str | None) -> bool:
    selector = get(service, "spec", "selector")
    wanted = {str(key.value): str(value.value) for key, value in entries(selector) if isinstance(value, ScalarNode)}
    own = get_str(service, "metadata", "namespace")
    if own and namespace and own != namespace:
        return False  # a Service selects pods of its own namespace only
    return bool(wanted) and all(labels.get(key) == value for key, value in wanted.items()) and _forwards_unchanged(service)


def _forwards_unchanged(service: Node) -> bool:
    """Whether each port of the Service is its target port (a client names the server's own port)."""
    for item in items(get(service, "spec", "ports")):
        port, target = _scalar(get(item, "port")), _scalar(get(item, "targetPort"))
        if target is not None and target != port:
            return False
    return True


def _scalar(node: Node | None) -> str | None:
    return str(node.value) if isinstance(node, ScalarNode) else None


def _service_names(service: Node) -> tuple[str, ...]:
    """The DNS names a pod of the cluster reaches the Service by."""
    name = get_str(service, "metadata", "name")
    namespace = get_str(service, "metadata", "namespace")
    if not name:
        return ()
    spelled = (f"{name}.{namespace}", f"{name}.{namespace}.svc", f"{name}.{namespace}.svc.cluster.local") if namespace else ()
    return (name, *spelled)

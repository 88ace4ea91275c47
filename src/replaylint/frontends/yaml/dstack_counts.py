"""The counts dstack's runner sets in a job's environment that the run configuration decides
(dstackai/dstack `runner/internal/executor/executor.go`, `execJob`): `DSTACK_GPUS_PER_NODE`, the
count of `resources.gpu`, `DSTACK_NODES_NUM` (`nodes:`, default 1), `DSTACK_GPUS_NUM`, their
product, and on one node `DSTACK_NODE_RANK` 0 (`vllm serve ... --tensor-parallel-size
$DSTACK_GPUS_NUM`, dstack's services guide).

`resources.gpu` is read as dstack's `GPUSpec` parses it (`core/models/resources.py`): a number is
the count; a string is `:`-separated tokens, of which a token without letters is the count
(`A100:2`, `24GB:8`) and the others a vendor, names or memory; a mapping has `count:`. The count
defaults to 1. A range (`1..2`), an interpolation, or no `gpu:` at all leaves the count unknown,
and so do the variables that depend on it (the script then sees them as the environment's).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode

from ...model import Setting
from ...readers.yaml_nodes import STR, get, span
from ...source import SourceFile
from .container_launch import Env

_INT = "tag:yaml.org,2002:int"
_DEFAULT_GPU_COUNT = 1  # dstack's DEFAULT_GPU_COUNT, Range(min=1, max=1)


def with_runner_counts(env: Env, source: SourceFile, document: Node, group: Node | None = None) -> Env:
    """`env` with the counts the runner sets for this run (a name `env:` sets keeps its value:
    the job's own environment is applied after the runner's); a replica `group` with its own
    `resources:` has its own GPU count."""
    resources = get(group, "resources") or get(document, "resources")
    gpu_node = get(resources, "gpu")
    nodes_node = get(document, "nodes")
    nodes = _count(nodes_node) if nodes_node is not None else 1
    gpus = _gpu_count(gpu_node) if gpu_node is not None else None
    found = {
        "DSTACK_GPUS_PER_NODE": (gpus, gpu_node),
        "DSTACK_NODES_NUM": (nodes, nodes_node),
        "DSTACK_GPUS_NUM": (gpus * nodes if gpus is not None and nodes is not None else None, gpu_node),
        "DSTACK_NODE_RANK": (0 if nodes == 1 else None, nodes_node),
    }
    given = env.copy()
    for name, (count, node) in found.items():
        where = node if node is not None else document
        if count is None or name in given.settings:
            continue
        given.set(Setting(name, str(count), span(source.index, where), f"{name}={count} (dstack's, for this run)", None), None)
    return given


def _gpu_count(node: Node) -> int | None:
    if isinstance(node, MappingNode):
        count = get(node, "count")
        return _DEFAULT_GPU_COUNT if count is None else _count(count)
    if not isinstance(node, ScalarNode):
        return None
    if node.tag == _INT:
        return _count(node)
    if node.tag != STR or "$" in node.value:
        return None
    counts = [token for token in node.value.replace(" ", "").split(":") if not any(c.isalpha() for c in token)]
    if len(counts) > 1:
        return None
    return _number(counts[0]) if counts else _DEFAULT_GPU_COUNT


def _count(node: Node) -> int | None:
    if not isinstance(node, ScalarNode) or node.tag not in (_INT, STR):
        return None
    return _number(node.value.strip())


def _number(text: str) -> int | None:
    """A count written as one whole number (`2`, or the range `2..2`); another range (`1..2`,
    `2..`) is not one count."""
    low, dots, high = text.partition("..")
    if dots and low != high:
        return None
    return int(low) if low.isdigit() else None

"""Argo Workflows (`apiVersion: argoproj.io/...`): which templates a workflow runs, and the shell
scripts its `script:` templates hold.

A `script:` template is a container whose `source` Argo writes to a file and appends to its
`command` (argo-workflows `examples/scripts-bash.yaml`: `command: [bash]`, `source: |`), so a
`source` run by a shell (sh, bash, dash, zsh, ash, options but `-c` allowed) is a shell script
run in the template's image with its `env`. A `source` another interpreter runs (`command:
[python]`) is not a shell script, and one with Argo's `{{...}}` placeholders holds values given
when the workflow runs: neither is read.

A Workflow (or a CronWorkflow's `spec.workflowSpec`) with an `entrypoint` runs the templates
its entrypoint, `onExit` and steps, DAG tasks and hooks name (`template:`); one nothing names
is never run. A WorkflowTemplate's or ClusterWorkflowTemplate's templates may be named from
other workflows (`templateRef`): all may run. So may all of a workflow that names a template
with a placeholder (`template: "{{item}}"`).
"""

from __future__ import annotations

from typing import Iterator

from yaml.nodes import MappingNode, Node, ScalarNode

from ...readers.yaml_nodes import STR, get, get_str, items, walked
from ...shells import is_shell

_RUN_BY_ENTRYPOINT = ("Workflow", "CronWorkflow")
_NAMING_KEYS = frozenset(("template", "entrypoint", "onExit"))


def is_argo(document: Node) -> bool:
    return (get_str(document, "apiVersion") or "").startswith("argoproj.io/")


def _workflow_spec(document: Node) -> Node | None:
    kind = get_str(document, "kind")
    if kind not in _RUN_BY_ENTRYPOINT:
        return None
    spec = get(document, "spec")
    return get(spec, "workflowSpec") if kind == "CronWorkflow" else spec


def unrun_templates(document: Node) -> set[int]:
    """The ids of the template nodes of an Argo workflow that nothing in it names (never run)."""
    spec = _workflow_spec(document) if is_argo(document) else None
    if spec is None or not get_str(spec, "entrypoint"):
        return set()
    named: set[str] = set()
    for node, _ in walked(spec):
        if not isinstance(node, MappingNode):
            continue
        for key, value in node.value:
            if isinstance(key, ScalarNode) and key.value in _NAMING_KEYS and isinstance(value, ScalarNode):
                if "{{" in value.value:
                    return set()
                named.add(value.value)
    return {id(template) for template in items(get(spec, "templates")) if get_str(template, "name") not in named}


def script_templates(document: Node, unrun: set[int]) -> Iterator[tuple[MappingNode, ScalarNode]]:
    """Each `script:` of a template the workflow may run whose `source` a shell runs, with the source."""
    if not is_argo(document):
        return
    for node, _ in walked(document):
        if not isinstance(node, MappingNode) or id(node) in unrun:
            continue
        script = get(node, "script")
        source = get(script, "source")
        if isinstance(script, MappingNode) and isinstance(source, ScalarNode) and source.tag == STR and _shell_runs(script):
            if "{{" not in source.value:
                yield script, source


def _shell_runs(script: MappingNode) -> bool:
    words = [get_str(item) for item in items(get(script, "command"))]
    if not words or not is_shell(words[0]):
        return False
    return all(word is not None and word.startswith("-") and not _runs_a_string(word) for word in words[1:])


def _runs_a_string(option: str) -> bool:
    """`-c`, `-ec`: the shell runs its next word, not the script file Argo appends."""
    return not option.startswith("--") and "c" in option[1:]

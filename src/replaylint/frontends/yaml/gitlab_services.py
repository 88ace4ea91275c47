"""GitLab CI `services:`: containers a job starts beside its own, each reached from the job's
scripts by its hostnames (GitLab's `doc/ci/services/_index.md`).

An entry is an image name, or a mapping with `name` (the image), `alias` (names, comma-separated),
`entrypoint` and `command` (lists of strings: the image's ENTRYPOINT and CMD replaced, as Docker
does). So the vLLM image with a `command:` runs `vllm serve` with those words. Besides the aliases,
GitLab names every service after its image (the tag dropped): `/` as `__` and as `-`
(`vllm__vllm-openai`, `vllm-vllm-openai`). The job's `services:` replace `default:`'s, which
replace the top-level ones. A service is not on the job's `localhost` under the Docker executor
(it is under Kubernetes'): local names do not reach it. The job's `variables:` are the service's
environment too; a service with `variables:` of its own has an open environment, and a word the
runner expands (`$VAR`) is unknown.
"""

from __future__ import annotations

from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LaunchKind
from ...readers.yaml_nodes import STR, get, get_str, span
from ...readers.yaml_scalars import compose_interpolate
from ...readers.yaml_words import Words, item_tokens, sequence_words
from ...source import ExtractContext, SourceFile
from .container_launch import Env, build, built, command, container_context, image_of


def service_nodes(job: Node, default: Node | None, document: Node, inherits: bool) -> list[Node]:
    """The `services:` entries a job runs: its own, else `default:`'s, else the pipeline's."""
    held = get(job, "services")
    if held is None and inherits:
        held = get(default, "services") or get(document, "services")
    return list(held.value) if isinstance(held, SequenceNode) else []


def service_launches(source: SourceFile, context: ExtractContext, service: Node, env: Env, label: str) -> list[Launch]:
    """The vLLM server one `services:` entry starts (`env`: the job's variables, which GitLab hands
    its services too), with the names the job reaches it by."""
    name_node = service if isinstance(service, ScalarNode) else get(service, "name")
    if not isinstance(name_node, ScalarNode) or name_node.tag != STR or "$" in name_node.value:
        return []
    image = image_of(name_node.value, span(source.index, name_node))
    entrypoint, cmd = (get(service, key) if isinstance(service, MappingNode) else None for key in ("entrypoint", "command"))
    words = Words()
    for part in (entrypoint, cmd):
        found = sequence_words(source.index, part, compose_interpolate) if part is not None else None
        if part is not None and found is None:
            return []
        if found is not None:
            texts, container = found
            words.extend(item_tokens(source.index, part, texts, container))  # type: ignore[arg-type]
    if isinstance(service, MappingNode) and get(service, "variables") is not None:
        env = replace(env.copy(), open=True)
    where = container_context(LaunchKind.CLI, env, image, f"{label}, service {name_node.value}")
    whole = span(source.index, service)
    if entrypoint is not None:
        launches = command(source, context, where, whole, words)
    elif image is not None and image.vllm:
        launches = built(build(where, whole, words, "serve"))
    else:
        return []
    return [replace(launch, hosts=_hostnames(name_node.value, get_str(service, "alias")), local=False) for launch in launches]


def _hostnames(image: str, alias: str | None) -> tuple[str, ...]:
    path = image.split("@", 1)[0]
    if ":" in path.rsplit("/", 1)[-1]:
        path = path.rsplit(":", 1)[0]
    names = [path.replace("/", "__"), path.replace("/", "-")]
    names.extend(name.strip() for name in (alias or "").split(",") if name.strip())
    return tuple(dict.fromkeys(names))

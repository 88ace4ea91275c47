"""YAML frontend: Kubernetes manifests, docker-compose files, vLLM config files, Helm values,
GitHub Actions workflows, SkyPilot tasks, Baseten Truss configs, go-task Taskfiles, ECS task definitions, dstack run configurations, GitLab CI pipelines.

Documents are composed with PyYAML (the libyaml composer when available), never constructed,
so every node keeps its position and custom tags, anchors and merge keys cannot break
reading. Each document is read by the first reader that claims it:

- `compose`: a top-level `services` mapping of services;
- `workflows`: a GitHub Actions workflow (`jobs.*.steps[].run` scripts);
- `skypilot`: a SkyPilot task (top-level `run` and `resources`: its `setup`/`run` scripts);
- `ecs`: AWS ECS task definitions (`containerDefinitions`, CloudFormation's `AWS::ECS::TaskDefinition`);
- `taskfile`: a go-task Taskfile (`version` and `tasks`: each task's commands, `{{.VAR}}` rendered);
- `truss`: a Baseten Truss config (`docker_server.start_command` with `environment_variables`);
- `dstack`: a dstack run configuration (`type: task|service|dev-environment`: its `commands`);
- `gitlab_ci`: a GitLab CI pipeline (top-level jobs with a `script:`: `before_script` and `script`);
- `helm`: vllm-project/production-stack values (`servingEngineSpec.modelSpec`); other charts'
  `extraArgs` beside a vLLM image are read from any document;
- `kustomize`: a Kustomize overlay's JSON 6902 patches applied to its base's containers;
- `kubernetes`: every `containers:` list in every document (and KServe model specs);
- `standalone_config`: a file whose top-level keys are mostly `vllm serve` options and include
  the mask switch, checked on its own (open-ended);
- `frameworks`: verl and NeMo-RL trainer configs (`actor_rollout_ref.rollout`,
  `policy.generation`), read by the adapters in `replaylint.frameworks`.

Files that do not parse: a Helm or Jinja template (`{{`, `{%`) is not ours and yields nothing;
a file that does not name a vLLM launcher, image or the mask option yields nothing either;
any other syntax error is a `ParseError`.

The YAML machinery other frontends share is in `words`: nodes with positions (`yaml_nodes`),
command words in YAML scalars and lists (`yaml_words`), and `--config FILE.yaml` files
(`vllm_config`), which shell scripts, Dockerfiles and Python argv lists load too.
"""

from __future__ import annotations

import re
from typing import Callable

from yaml.nodes import Node

from ...model import Edit, Fix, Launch
from ...readers.yaml_nodes import ComposeError, NestedTooDeep, compose_all, forget_walks, walked
from ...source import ExtractContext, NotAnalysed, ParseError, SourceFile
from ..mapping_readers import followed, is_followed, render as render_followed
from . import (
    compose,
    dstack,
    ecs,
    frameworks,
    gitlab_ci,
    helm,
    kubernetes,
    kustomize,
    skypilot,
    standalone_config,
    taskfile,
    truss,
    workflows,
)
from .render import render as _render

__all__ = ["extract", "render", "parses"]

_LAUNCHISH = re.compile(r"vllm\s+serve|vllm-openai|vllm\.entrypoints|dynamo\.vllm|sampling[-_]mask", re.IGNORECASE)
_TEMPLATE = re.compile(r"\{\{|\{%")
_CHARACTERS_PER_UNIT = 4  # libyaml composes about four characters a microsecond
_NODE_COST = 5  # budget units (about a microsecond each) the readers spend on one node


def parses(text: str) -> bool:
    try:
        compose_all(text)
    except ComposeError:
        return False
    return True


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    context.budget.charge(len(source.text) // _CHARACTERS_PER_UNIT)  # libyaml's compose cannot be interrupted
    try:
        documents = compose_all(source.text)
    except ComposeError as error:
        if _TEMPLATE.search(source.text) or not _LAUNCHISH.search(source.text):
            return []
        if isinstance(error, NestedTooDeep):
            raise NotAnalysed(error.message, source.index.offset(error.line, error.col)) from None
        raise ParseError(error.message, error.line, error.col) from None
    try:
        return _launches(source, context, documents)
    finally:
        forget_walks()


# The readers that claim a whole document, in the order they are asked (a claim and its reader).
_CLAIMING: tuple[tuple[Callable[[Node, str], bool], Callable[[SourceFile, ExtractContext, Node], list[Launch]]], ...] = (
    (lambda document, path: compose.is_compose(document), compose.extract),
    (lambda document, path: workflows.is_workflow(document), workflows.extract),
    (lambda document, path: skypilot.is_task(document), skypilot.extract),
    (lambda document, path: ecs.is_task_definition(document), ecs.extract),
    (lambda document, path: taskfile.is_taskfile(document), taskfile.extract),
    (lambda document, path: truss.is_truss(document), truss.extract),
    (lambda document, path: dstack.is_run_configuration(document), dstack.extract),
    (gitlab_ci.is_pipeline, gitlab_ci.extract),
    (lambda document, path: kustomize.is_overlay(document), kustomize.extract),
    (lambda document, path: helm.is_production_stack(document), helm.extract),
)


def _launches(source: SourceFile, context: ExtractContext, documents: list) -> list[Launch]:
    launches: list[Launch] = []
    manifests = []
    for document in documents:
        reader = next((reader for claims, reader in _CLAIMING if claims(document, source.path)), None)
        if reader is not None:
            launches.extend(reader(source, context, document))
        else:
            # Every node of these is walked (helm's `extraArgs`, kubernetes' containers).
            context.budget.charge(len(walked(document)) * _NODE_COST, document.start_mark.index)
            manifests.append(document)
            launches.extend(helm.extract(source, context, document))
            launches.extend(frameworks.extract(source, context, document))
            if len(documents) == 1 and standalone_config.looks_like_config(document):
                launch = standalone_config.standalone(source, document)  # type: ignore[arg-type]
                if launch is not None:
                    launches.append(launch)
    launches.extend(kubernetes.extract(source, context, manifests))
    launches.sort(key=lambda launch: launch.span.start)
    return followed(launches, source, context)


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    return render_followed(launch, fix, source) if is_followed(launch) else _render(launch, fix, source)

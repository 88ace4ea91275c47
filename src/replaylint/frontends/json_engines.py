"""JSON frontend: objects of vLLM engine arguments that turn the mask on, anywhere in a `.json`
file (`frameworks.engine_mappings`), the way a launcher of one's own writes them:

    {"engine": {"model": "Qwen/Qwen3-8B", "tensor_parallel_size": 2,
                "return_sampling_mask": true, "logprobs_mode": "processed_logprobs"}}

and hands them on with `AsyncEngineArgs(**json.load(f)["engine"])`. Such a launch is
open-ended (what the code adds is unseen), so only rules that fire on a setting's presence
judge it. The file is read by `json_document` (the standard library's values, and their
spans). A file that does not parse is not reported: JSON files are data of every kind, and
the prefilter (`frontends.relevant`) already asked for the mask written on. JSON has no
comments, so a finding here is silenced with `per-file-ignores`, and fixes are not offered
(except to the Python that reads the file, `mapping_readers`). An AWS ECS task definition's
containers (`containerDefinitions`) and a Nomad job's docker tasks (`TaskGroups[].Tasks[]`) are
launches, read by the YAML frontend's `ecs` and `nomad` readers, as are a dev container's lifecycle
commands (`postStartCommand`, `devcontainer`).
"""

from __future__ import annotations

import re

from ..frameworks import engine_mappings
from ..json_document import JsonError, parses, placed, values
from ..model import Edit, Fix, Launch
from ..source import ExtractContext, SourceFile
from .mapping_readers import followed, is_followed, render as render_followed

__all__ = ["extract", "render", "parses"]

_TASK_DEFINITION = re.compile(r'"containerDefinitions"|"AWS::ECS::TaskDefinition"')
_NOMAD_JOB = re.compile(r'"TaskGroups"')
_DEV_CONTAINER = re.compile(r'"(?:onCreate|updateContent|postCreate|postStart|postAttach)Command"')
_CHARACTERS_PER_UNIT = 3  # json's C scanner and the position pass: about three characters a microsecond


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    context.budget.charge(len(source.text) // _CHARACTERS_PER_UNIT)  # neither can be interrupted
    try:
        mappings = engine_mappings.mappings_in(values(source.text))
    except JsonError:
        return []
    containers = _container_launches(source, context)
    if not mappings:
        return containers
    # The file's other values are let go before placing, which reads them once more.
    document = placed(source, None, {path for path, _ in mappings})
    return containers + followed(engine_mappings.launches_of(document, mappings, source.path), source, context)


def _container_launches(source: SourceFile, context: ExtractContext) -> list[Launch]:
    """An ECS task definition's containers (a CloudFormation template's too) and a Nomad job's
    tasks, read by the YAML frontend's readers: JSON is YAML, and a container is read as a
    Kubernetes container is."""
    from .yaml import container_launch, devcontainer, ecs, nomad

    readers = [
        read
        for pattern, read in ((_TASK_DEFINITION, ecs.extract), (_NOMAD_JOB, nomad.extract), (_DEV_CONTAINER, devcontainer.extract))
        if pattern.search(source.text)
    ]
    return container_launch.json_launches(source, context, readers) if readers else []


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """Fixes are not written into JSON files; a Python engine that reads the file (`followed`)
    gets them where the flow places them."""
    return render_followed(launch, fix, source) if is_followed(launch) else None

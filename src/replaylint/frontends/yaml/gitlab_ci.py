"""GitLab CI pipelines (`.gitlab-ci.yml`, and the files under `.gitlab/` it includes): a job's
`before_script:` and `script:` are one script run in one shell (`after_script:` runs in another,
and starts no server the job uses), with the pipeline's and the job's `variables:` exported (the
job's win), in the job's `image:`, else `default:`'s, else the top-level one (GitLab's
`doc/ci/yaml/_index.md`: `script`, `before_script`, `variables`, `image`, `default`).

A document is a pipeline when top-level jobs (mappings under keys that are not keywords) have a
`script:`, in `.gitlab-ci.yml` or beside `stages:` or a job's `stage:`. Hidden jobs (`.name`) run only through `extends:` and are not read. What
the file does not say is unknown: a variable whose value the runner expands (`$OTHER`) or that is
a mapping (`value:`, `description:`); every variable but its own of a job that `extends:` another
(the template's `variables:` win over the pipeline's) or has `inherit:`; every variable the file
does not set in a pipeline that `include:`s files; `$[[ inputs.x ]]` (a component's inputs), as
words. A job whose scripts are not lists
of strings (a `!reference [...]`) is not read. The vLLM servers a job's `services:` start are read
by `gitlab_services`.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LaunchKind
from ...readers.yaml_nodes import STR, entries, get, span
from ...source import ExtractContext, SourceFile
from .command_lists import joined_script
from .container_launch import Env, Image, container_context, image_of, script_launches, shell_frontend
from .gitlab_services import service_launches, service_nodes
from .workflows import env_map

_KEYWORDS = frozenset(
    {"default", "include", "stages", "variables", "workflow", "image", "services", "cache", "before_script", "after_script", "spec"}
)
_INPUTS = re.compile(r"\$\[\[.*?\]\]")
_NESTING = 10  # GitLab flattens script arrays nested this deep


def is_pipeline(document: Node, path: str) -> bool:
    """Jobs with a `script:` in `.gitlab-ci.yml` (or `*.gitlab-ci.yml`), or in a file with `stages:`
    or a job's `stage:` (an included file's): another tool's mapping with a `script` key is left to
    the other readers."""
    if not isinstance(document, MappingNode):
        return False
    jobs = [job for key, job in entries(document) if _is_job(key, job)]
    named = ".gitlab-ci." in "." + path.replace("\\", "/").rsplit("/", 1)[-1]  # `.gitlab-ci.yml`, `deploy.gitlab-ci.yml`
    return bool(jobs) and (named or get(document, "stages") is not None or any(get(job, "stage") is not None for job in jobs))


def _is_job(key: ScalarNode, value: Node) -> bool:
    name = str(key.value)
    return name not in _KEYWORDS and not name.startswith(".") and isinstance(value, MappingNode) and get(value, "script") is not None


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    if shell_frontend() is None:
        return []
    pipeline_env = env_map(source, get(document, "variables"), Env(), "$")
    pipeline_env.open = pipeline_env.open or get(document, "include") is not None
    default = get(document, "default")
    launches: list[Launch] = []
    services: set[int] = set()  # a `default:` service many jobs run is one server
    for key, job in entries(document):
        if not _is_job(key, job):
            continue
        inherits = get(job, "inherit") is None  # `inherit:` picks what of `default:` and `variables:` applies
        # A template's own `variables:` win over the pipeline's for the job that extends it.
        known = inherits and get(job, "extends") is None
        env = env_map(source, get(job, "variables"), pipeline_env if known else Env(open=True), "$")
        before = get(job, "before_script")
        if before is None and inherits:
            before = get(default, "before_script") or get(document, "before_script")
        for service in service_nodes(job, default, document, inherits):
            if id(service) not in services:
                services.add(id(service))
                launches.extend(service_launches(source, context, service, env, f"job {key.value}"))
        script_lines = _lines(get(job, "script"), 0)
        lines = [*_lines(before, 0), *script_lines]
        script = joined_script(source, lines, "\n", _INPUTS) if script_lines and None not in lines else None  # type: ignore[arg-type]
        if script is None:
            continue
        text, style, fixable = script
        image = _image(source, get(job, "image") or ((get(default, "image") or get(document, "image")) if inherits else None))
        launches.extend(script_launches(source, context, container_context(LaunchKind.CLI, env, image), text, style, fixable))
    return launches


def _lines(node: Node | None, depth: int) -> list[Node | None]:
    """A script's lines, nested lists flattened; a None for what cannot be read (`!reference`)."""
    if node is None:
        return []
    if isinstance(node, ScalarNode):
        return [node]
    if not isinstance(node, SequenceNode) or node.tag != "tag:yaml.org,2002:seq" or depth > _NESTING:
        return [None]
    return [line for item in node.value for line in _lines(item, depth + 1)]


def _image(source: SourceFile, node: Node | None) -> Image | None:
    """`image: NAME` or `image: {name: NAME}`."""
    name = get(node, "name") if isinstance(node, MappingNode) else node
    if not isinstance(name, ScalarNode) or name.tag != STR:
        return None
    return image_of(name.value, span(source.index, name))

"""GitHub Actions workflows: `run:` steps are shell scripts, and they do start vLLM.

A workflow that runs `vllm serve ... --return-sampling-mask &` before its tests launches a real
engine, so `run:` scripts of `jobs.<id>.steps[]` go through the shell interpreter, with the
environment of the workflow, the job and the step (`env:` maps, later levels win;
`${{ ... }}` expressions are unknown). Steps with a non-shell `shell:` (python, pwsh, cmd) are
skipped. Everything else in a workflow (`with:` inputs, names, `if:` conditions) is not a
launch. A `pip install vllm==X` in one step gives the release of the launches in the later
steps of the same job (a pin inside the launching script itself wins).

Note: directory walks skip hidden directories, so `.github/workflows/` is read when files are
named explicitly (as pre-commit does).
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode

from ...model import UNKNOWN, Launch, LaunchKind, Setting, VersionHint
from ...readers.yaml_nodes import STR, content_end, entries, get, get_str, items, span
from ...readers.yaml_scalars import scalar
from ...readers.yaml_text import Text, scalar_text
from ...shells import is_shell
from ...source import ExtractContext, SourceFile
from ...vllm.releases import Release
from .container_launch import Env, Image, YamlEnvPlace, container_context, entry_removal, script_launches, shell_frontend

# The `shell:` keywords of a step that run its `run:` text as a POSIX shell script; any other value
# is pwsh, python, cmd or a custom command (`ash -e {0}`: the script's file is `{0}`).
_SHELL_KEYWORDS = ("bash", "sh")
# `pip install vllm==X` in a step: the release the later steps of the job run.
_PIN = re.compile(r"(?<![\w.-])vllm(?:\[[\w,\s-]*\])?==v?(\d+\.\d+(?:\.\d+)?)")


def is_workflow(document: Node) -> bool:
    jobs = get(document, "jobs")
    if not isinstance(jobs, MappingNode):
        return False
    return any(isinstance(get(job, "steps"), Node) or get(job, "runs-on") is not None for _, job in entries(jobs))


def env_map(source: SourceFile, node: Node | None, base: Env, expanded: str = "${{") -> Env:
    """`base` with the settings of an `env:` map (a value not known here: null, or one holding
    `expanded`, what the runner expands: `${{ ... }}`)."""
    env = base.copy()
    if node is None:
        return env
    if not isinstance(node, MappingNode):
        env.open = True
        return env
    text, index = source.text, source.index
    for key, value in entries(node):
        end = content_end(text, value)
        if isinstance(value, ScalarNode) and not value.tag.endswith(":null"):
            raw = scalar_text(text, value).value
            known = expanded not in raw
            setting_value: object = raw if known else UNKNOWN
        else:
            setting_value = UNKNOWN
        found = None if node.flow_style else entry_removal(source, key.start_mark.index, end, len(node.value), "{}")
        value_span = span(index, value) if isinstance(value, ScalarNode) else None
        style = (value.style or "") if isinstance(value, ScalarNode) else ""
        place = None
        if found is not None:
            place = YamlEnvPlace(found[0], value_span, lambda v, style=style: scalar(v, style, False), found[1])
        shown = " ".join(text[key.start_mark.index : end].split())
        env.set(Setting(str(key.value), setting_value, index.span(key.start_mark.index, end), shown, value_span), place)
    return env


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    if shell_frontend() is None:
        return []
    launches: list[Launch] = []
    workflow_env = env_map(source, get(document, "env"), Env())
    for _, job in entries(get(document, "jobs")):
        job_env = env_map(source, get(job, "env"), workflow_env)
        default_shell = get_str(job, "defaults", "run", "shell") or get_str(document, "defaults", "run", "shell")
        pinned: Image | None = None
        for step in items(get(job, "steps")):
            run = get(step, "run")
            if not isinstance(run, ScalarNode) or run.tag != STR:
                continue
            if not _runs_a_shell_script(get_str(step, "shell") or default_shell or "bash"):
                continue
            env = env_map(source, get(step, "env"), job_env)
            text = scalar_text(source.text, run)
            launches.extend(script_launches(source, context, container_context(LaunchKind.CLI, env, pinned), text, run.style or "", True))
            pinned = pinned_release(source, text, "in an earlier step") or pinned
    return launches


def pinned_release(source: SourceFile, text: Text, where: str) -> Image | None:
    """The release a script's `pip install vllm==X` installs for the scripts after it (`where`:
    what the message says of its place)."""
    pin = _PIN.search(text.value)
    release = Release.parse(pin.group(1)) if pin is not None else None
    if pin is None or release is None:
        return None
    a, b = text.region(pin.start(), pin.end())
    return Image("", False, VersionHint((str(release),), f"pip install {pin.group(0)} {where}", source.index.span(a, b)), release)


def _runs_a_shell_script(shell: str) -> bool:
    """`bash`, `sh` (also with options: `bash -e {0}`), or a custom command that hands the script's
    file to one of the shells replaylint reads (`/bin/ash -e {0}`)."""
    program = shell.split()[0] if shell.split() else ""
    return program in _SHELL_KEYWORDS or ("{0}" in shell and is_shell(program))

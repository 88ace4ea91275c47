"""The environment a deployment of the tree gives a script its image runs: an Azure ML managed
(or Kubernetes) online deployment (`$schema: .../managedOnlineDeployment.schema.json`) whose
`environment.build.path` is the folder of a Dockerfile (`environment.build.dockerfile_path`,
`Dockerfile` by default) that copies the script into the image and runs it as its `ENTRYPOINT`
or `CMD`; Azure ML starts the image with the deployment's `environment_variables`.

Deployment files are looked for in the build folder's parent and that parent's folders (the
layout of Azure ML's examples: `azureml/deployment.yml` beside `docker/`). A value Azure ML
fills in (`${{...}}`) or that is not a plain scalar is unknown; deployments that give the image
different environments decide nothing (which one runs the script is not known).
"""

from __future__ import annotations

import os
import re

from ..model import UNKNOWN, LineIndex, Setting
from ..source import ExtractContext

_DEPLOYMENT_SCHEMA = re.compile(r"^\$schema:\s*\S*OnlineDeployment\.schema\.json", re.MULTILINE | re.IGNORECASE)
_YAML = (".yml", ".yaml")
_MAX_FOLDERS = 32  # folders of the parent searched for deployment files


def deployed_env(script_path: str, context: ExtractContext) -> dict[str, Setting] | None:
    """The variables the deployments that run `script_path` give it (None: none runs it, or they
    disagree)."""
    folder = os.path.dirname(script_path)
    if not _image_runs(folder, os.path.basename(script_path), context):
        return None
    found: list[dict[str, Setting]] = []
    for path in _deployment_files(os.path.dirname(folder), context):
        text = context.read_text(path)
        if text is not None and _DEPLOYMENT_SCHEMA.search(text):
            env = _deployment_env(path, text, folder)
            if env is not None:
                found.append(env)
    if not found or any(_values(env) != _values(found[0]) for env in found[1:]):
        return None
    return found[0]


def _image_runs(folder: str, name: str, context: ExtractContext) -> bool:
    """Whether a Dockerfile of the folder copies the script in and names it in its last
    `ENTRYPOINT` or `CMD`."""
    text = context.read_text(os.path.join(folder, "Dockerfile")) if "Dockerfile" in context.list_folder(folder) else None
    if text is None:
        return False
    instructions = [line.strip() for line in text.splitlines()]
    copied = any(re.match(r"(?i)(COPY|ADD)\s", line) and re.search(rf"(^|[\s/]){re.escape(name)}(\s|$)", line) for line in instructions)
    commands = [line for line in instructions if re.match(r"(?i)(ENTRYPOINT|CMD)\s", line)]
    return copied and any(re.search(rf"[\"/\s]{re.escape(name)}[\"\s,\]]", line + " ") for line in commands[-1:])


def _deployment_files(parent: str, context: ExtractContext) -> list[str]:
    found = []
    names = context.list_folder(parent or ".")
    folders = [name for name in names if not name.startswith(".") and not name.endswith(_YAML)][:_MAX_FOLDERS]
    for name in names:
        if name.endswith(_YAML):
            found.append(os.path.join(parent, name))
    for name in folders:
        inside = os.path.join(parent, name)
        found.extend(os.path.join(inside, entry) for entry in context.list_folder(inside) if entry.endswith(_YAML))
    return found


def _deployment_env(path: str, text: str, folder: str) -> dict[str, Setting] | None:
    """The `environment_variables` of a deployment whose image is built from `folder`."""
    try:
        from .yaml_nodes import ComposeError, compose_all, entries, get, get_str, span
    except ImportError:  # without PyYAML no deployment is read
        return None
    try:
        documents = compose_all(text)
    except ComposeError:
        return None
    if len(documents) != 1:
        return None
    document = documents[0]
    build = get(document, "environment", "build")
    build_path = get_str(build, "path")
    if build_path is None or os.path.normpath(os.path.join(os.path.dirname(path), build_path)) != os.path.normpath(folder):
        return None
    if (get_str(build, "dockerfile_path") or "Dockerfile") != "Dockerfile":
        return None
    index = LineIndex(path, text)
    env: dict[str, Setting] = {}
    variables = get(document, "environment_variables")
    for key, node in entries(variables):
        value = getattr(node, "value", None)
        # a string, or a decimal integer (the text the CLI sends); a boolean's or a float's text is not known
        known = (
            isinstance(value, str) and (node.tag.endswith(":str") or (node.tag.endswith(":int") and value.isdigit())) and "${{" not in value
        )
        shown = f"{key.value}={value if known else '<unknown>'}"
        env[key.value] = Setting(
            key.value, value if known else UNKNOWN, span(index, node, key), shown, span(index, node) if known else None
        )
    return env


def _values(env: dict[str, Setting]) -> dict[str, object]:
    return {name: setting.value for name, setting in env.items()}

"""The environment a deployment of the tree gives a script its image runs: an Azure ML managed
(or Kubernetes) online deployment (`$schema: .../managedOnlineDeployment.schema.json`) whose
`environment.build.path` is the folder of a Dockerfile (`environment.build.dockerfile_path`,
`Dockerfile` by default) that copies the script into the image and runs it as its `ENTRYPOINT`
or `CMD`; Azure ML starts the image with the deployment's `environment_variables`. A
docker-compose service that builds that folder (`build: ./docker`, `build: {context: ...,
dockerfile: ...}`), or that runs the image such a service tags, starts it with its
`environment` (`readers.deployment_files` reads both kinds of file).

Deployment and compose files are looked for in the build folder's parent and that parent's
other folders (the layout of Azure ML's examples: `azureml/deployment.yml` beside `docker/`;
`deploy/compose.gpu.yaml`), the parent's own compose files (`compose.yaml`,
`docker-compose.yml`, ...) read by name. The script's own folder is never listed: its result
would rest on the names beside it. A value Azure ML
fills in (`${{...}}`) or that is not a plain scalar is unknown; deployments and services that
give the image different environments, or one whose environment is open, decide nothing
(which one runs the script is not known).
"""

from __future__ import annotations

import os
import re

from ..model import Setting
from ..source import ExtractContext
from .dockerfile_entry import image_runs

_DEPLOYMENT_SCHEMA = re.compile(r"^\$schema:\s*\S*OnlineDeployment\.schema\.json", re.MULTILINE | re.IGNORECASE)
_COMPOSE = re.compile(r"^services\s*:", re.MULTILINE)
_YAML = (".yml", ".yaml")
_MAX_FOLDERS = 32  # folders of the parent searched for deployment files
COMPOSE_FILES = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")  # `docker compose`'s own names


def deployed_env(script_path: str, context: ExtractContext) -> dict[str, Setting] | None:
    """The variables the deployments that run `script_path` give it (None: none runs it, one's
    environment is open, or they disagree)."""
    folder = os.path.dirname(script_path)
    name = os.path.basename(script_path)
    run_as = image_runs(os.path.join(folder, "Dockerfile"), name, context)
    if run_as is None:
        return None
    from .deployment_files import compose_envs, deployment_env  # (PyYAML only for a script an image runs)

    parent = os.path.dirname(folder)
    found: list[dict[str, Setting]] = []
    compose_files = []
    for path in _deployment_files(parent, folder, context) + [os.path.join(parent, compose) for compose in COMPOSE_FILES]:
        text = context.read_text(path)
        if text is not None and _DEPLOYMENT_SCHEMA.search(text):
            env = deployment_env(path, text, folder)
            if env is not None:
                found.append(env)
        elif text is not None and _COMPOSE.search(text):
            compose_files.append((path, text))
    composed = compose_envs(compose_files, folder, name, run_as, context)
    if composed is None:
        return None
    found += composed
    if not found or any(_values(env) != _values(found[0]) for env in found[1:]):
        return None
    return found[0]


def _deployment_files(parent: str, folder: str, context: ExtractContext) -> list[str]:
    found = []
    names = context.list_folder(parent or ".")
    own = os.path.normpath(folder)
    folders = [
        name
        for name in names
        if not name.startswith(".") and not name.endswith(_YAML) and os.path.normpath(os.path.join(parent, name)) != own
    ][:_MAX_FOLDERS]
    for name in names:
        if name.endswith(_YAML) and name not in COMPOSE_FILES:  # (read by name)
            found.append(os.path.join(parent, name))
    for name in folders:
        inside = os.path.join(parent, name)
        found.extend(os.path.join(inside, entry) for entry in context.list_folder(inside) if entry.endswith(_YAML))
    return found


def _values(env: dict[str, Setting]) -> dict[str, object]:
    return {name: setting.value for name, setting in env.items()}

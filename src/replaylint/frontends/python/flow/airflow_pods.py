"""An Airflow `KubernetesPodOperator` (apache-airflow-providers-cncf-kubernetes), read as the pod's
container runs it, with the container readers of `vertex_models`.

`KubernetesPodOperator(image=..., cmds=[...], arguments=[...], env_vars={...})`: `cmds` replaces
the image's entrypoint and `arguments` are its arguments, as a Kubernetes container's `command`
and `args` (`operators/pod.py`, `build_pod_request_obj`); `env_vars` given as a dict are the
container's variables, and a list of `V1EnvVar`s, `env_from`, `secrets` or `configmaps` leave
others open. Both are templated fields: a `{{ ... }}` Airflow renders when the task runs leaves the
launch open-ended. The pod runs in the cluster: a client's `localhost` does not reach it.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Iterator

from ....model import Launch, Setting
from .callsites import calls, keyword
from .frames import Frame
from .module import Module
from .reader import Qualified, Reader
from .vertex_models import ContainerKeywords, image_of, launch_of

WORDS = "KubernetesPodOperator"
_OPERATORS = tuple(
    f"{package}.KubernetesPodOperator"
    for package in (
        "airflow.providers.cncf.kubernetes.operators.pod",
        "airflow.providers.cncf.kubernetes.operators.kubernetes_pod",
        "airflow.contrib.operators.kubernetes_pod_operator",
    )
)
_KPO = ContainerKeywords("image", "cmds", "arguments", "env_vars")
_MORE_VARIABLES = ("env_from", "secrets", "configmaps")


def pod_launches(reader: Reader, module: Module) -> Iterator[Launch]:
    for call in calls(module, ("KubernetesPodOperator(",)):
        frame = Frame(module, call.scope, call.cls, None, call.placed)
        made = reader.evaluate(call.node.func, frame).ref
        if not isinstance(made, Qualified) or made.name not in _OPERATORS:
            continue
        image = image_of(reader, keyword(call.node, "image"), frame)
        launch = launch_of(reader, module, call.node, frame, _KPO, image, _env(reader, call.node, frame))
        if launch is None:
            continue
        if _templated(reader, call.node, frame):
            launch = replace(launch, open_reasons=(*launch.open_reasons, "Airflow renders its `{{ ... }}` templates when the task runs"))
        yield replace(launch, local=False)


def _templated(reader: Reader, node: ast.Call, frame: Frame) -> bool:
    """Whether a word of `cmds` or `arguments` holds a Jinja template (templated fields of the operator)."""
    for name in (_KPO.command, _KPO.args):
        given = keyword(node, name)
        items = reader.evaluate(given, frame).ref if given is not None else ()
        texts = [getattr(item, "value", None) for item in items] if isinstance(items, tuple) else []
        if any(isinstance(text, str) and ("{{" in text or "{%" in text) for text in texts):
            return True
    return False


def _env(reader: Reader, node: ast.Call, frame: Frame) -> tuple[dict[str, Setting], bool]:
    """The container's variables given as a dict, and whether others may be set."""
    more = any(keyword(node, name) is not None for name in _MORE_VARIABLES)
    given = keyword(node, _KPO.env)
    if given is None:
        return {}, more
    read = reader.evaluate(given, frame).kwargs
    if read is None:
        return {}, True  # a list of `V1EnvVar`s, or a mapping not known here
    env = {name: entry.setting for name, entry in read.entries.items() if not entry.guards and "{{" not in str(entry.setting.value)}
    return env, more or bool(read.reasons) or len(env) != len(read.entries)

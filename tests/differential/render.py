"""A generated case written out the four ways people write launches.

(a) a shell script running `vllm serve MODEL ...` (runner variable as a command prefix or an
`export`), (b) a Dockerfile on the official image (`ENV` + exec-form `CMD` holding the
arguments of its `vllm serve` entrypoint), (c) a Kubernetes Deployment on the same image
(`args:` and `env:`), (d) Python: `LLM(MODEL, key=value, ...)` after `os.environ[...] = ...`.
(a)-(c) carry the argv form, (d) the kwargs form.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from typing import Any

from .generator import Case

IMAGE = "vllm/vllm-openai"


@dataclass(frozen=True)
class Rendering:
    kind: str  # "shell", "dockerfile", "kubernetes", "python"
    filename: str
    text: str
    form: str  # the judged form: "argv" or "kwargs"


def _groups(case: Case) -> list[list[str]]:
    """The argv words after the model, one line each when a renderer splits lines."""
    words = case.argv[1:]
    groups: list[list[str]] = []
    for word in words:
        if word.startswith("-") or not groups:
            groups.append([word])
        else:
            groups[-1].append(word)
    return groups


def shell(case: Case) -> Rendering:
    lines = ["#!/usr/bin/env bash", "set -euo pipefail", ""]
    prefix = ""
    for name, value in case.env.items():
        if case.style["env"] == "export":
            lines.append(f"export {name}={shlex.quote(value)}")
        else:
            prefix += f"{name}={shlex.quote(value)} "
    head = f"{prefix}vllm serve {shlex.quote(case.argv[0])}"
    groups = [" ".join(shlex.quote(word) for word in group) for group in _groups(case)]
    if case.style["shell_lines"] and groups:
        lines.append(" \\\n    ".join([head, *groups]))
    else:
        lines.append(" ".join([head, *groups]))
    return Rendering("shell", "serve.sh", "\n".join(lines) + "\n", "argv")


def dockerfile(case: Case, release: str) -> Rendering:
    lines = [f"FROM {IMAGE}:v{release}"]
    for name, value in case.env.items():
        lines.append(f"ENV {name}={json.dumps(value)}")
    words = [json.dumps(word) for word in case.argv]
    if case.style["docker_lines"]:
        lines.append("CMD [" + ", \\\n     ".join(words) + "]")
    else:
        lines.append("CMD [" + ", ".join(words) + "]")
    return Rendering("dockerfile", "Dockerfile", "\n".join(lines) + "\n", "argv")


def kubernetes(case: Case, release: str) -> Rendering:
    lines = [
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: vllm-replay",
        "spec:",
        "  replicas: 1",
        "  selector:",
        "    matchLabels: {app: vllm-replay}",
        "  template:",
        "    metadata:",
        "      labels: {app: vllm-replay}",
        "    spec:",
        "      containers:",
        "        - name: vllm",
        f"          image: {IMAGE}:v{release}",
    ]
    if case.style["yaml_flow"]:
        lines.append("          args: [" + ", ".join(json.dumps(word) for word in case.argv) + "]")
    else:
        lines.append("          args:")
        lines += [f"            - {json.dumps(word)}" for word in case.argv]
    if case.env:
        lines.append("          env:")
        for name, value in case.env.items():
            lines += [f"            - name: {name}", f"              value: {json.dumps(value)}"]
    lines.append("          ports: [{containerPort: 8000}]")
    return Rendering("kubernetes", "deployment.yaml", "\n".join(lines) + "\n", "argv")


def python(case: Case) -> Rendering | None:
    if case.kwargs is None:
        return None
    lines = ["import os", "", "from vllm import LLM", ""]
    for name, value in case.env.items():
        lines.append(f"os.environ[{name!r}] = {value!r}")
    kwargs = dict(case.kwargs)
    model = kwargs.pop("model")
    arguments = [repr(model)] + [f"{key}={_literal(value)}" for key, value in kwargs.items()]
    lines.append("llm = LLM(\n    " + ",\n    ".join(arguments) + ",\n)")
    return Rendering("python", "launch.py", "\n".join(lines) + "\n", "kwargs")


def _literal(value: Any) -> str:
    return repr(value)


def renderings(case: Case, release: str) -> list[Rendering]:
    found = [shell(case), dockerfile(case, release), kubernetes(case, release), python(case)]
    return [rendering for rendering in found if rendering is not None]

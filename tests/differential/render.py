"""A generated case written out the five ways people write launches.

(a) a shell script: `vllm serve MODEL ...` (runner variable as a command prefix or an `export`),
    `python -m vllm.entrypoints.openai.api_server --model MODEL ...`, or `docker run -e ...` on
    the official image; (b) a Dockerfile on the official image (`ENV` + exec-form `CMD` holding
    the arguments of its `vllm serve` entrypoint); (c) a Kubernetes Deployment on the same image
    (`args:` and `env:`, sometimes a `command:`); (d) Python: `LLM(MODEL, key=value, ...)` or
    `EngineArgs(model=MODEL, ...)` after `os.environ[...] = ...`; (e) Python handing the command
    to a process: `subprocess.run([...], env={**os.environ, ...})`, or a string run by a shell
    (`subprocess.run("NAME=value vllm serve ...", shell=True)`). (a)-(c) and (e) carry the argv
    form, (d) the kwargs form. Every variant means the same words after `vllm serve`.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

from .generator import Case

IMAGE = "vllm/vllm-openai"
API_SERVER = ["python3", "-m", "vllm.entrypoints.openai.api_server"]


@dataclass(frozen=True)
class Rendering:
    kind: str  # "shell", "dockerfile", "kubernetes", "python", "python-argv"
    filename: str
    text: str
    form: str  # the judged form: "argv" or "kwargs"


def _module_argv(case: Case) -> list[str]:
    """The api_server module takes the model only as `--model` (a positional one is ignored)."""
    if case.argv[0].startswith("-"):
        return case.argv
    return ["--model", *case.argv]


def _lines(words: list[str]) -> list[list[str]]:
    """Words grouped as an option and its values, one line each when a renderer splits lines."""
    groups: list[list[str]] = []
    for word in words:
        if word.startswith("-") or not groups:
            groups.append([word])
        else:
            groups[-1].append(word)
    return groups


def shell(case: Case, release: str) -> Rendering:
    lines = ["#!/usr/bin/env bash", "set -euo pipefail", ""]
    launcher = case.style["shell_launcher"]
    prefix = ""
    if launcher == "docker run":
        command = ["docker", "run", "--rm", "--gpus", "all"]
        for name, value in case.env.items():
            command += ["-e", f"{name}={value}"]
        command += [f"{IMAGE}:v{release}"]
        words = case.argv
    else:
        for name, value in case.env.items():
            if case.style["env"] == "export":
                lines.append(f"export {name}={shlex.quote(value)}")
            else:
                prefix += f"{name}={shlex.quote(value)} "
        command, words = (API_SERVER, _module_argv(case)) if launcher == "api_server" else (["vllm", "serve"], case.argv)
    head = prefix + " ".join(shlex.quote(word) for word in command)
    groups = [" ".join(shlex.quote(word) for word in group) for group in _lines(words)]
    separator = " \\\n    " if case.style["shell_lines"] else " "
    lines.append(separator.join([head, *groups]))
    return Rendering("shell", "serve.sh", "\n".join(lines) + "\n", "argv")


def dockerfile(case: Case, release: str) -> Rendering:
    lines = [f"FROM {IMAGE}:v{release}"]
    for name, value in case.env.items():
        lines.append(f"ENV {name}={json.dumps(value)}")
    words = [json.dumps(word) for word in case.argv]
    separator = ", \\\n     " if case.style["docker_lines"] else ", "
    lines.append("CMD [" + separator.join(words) + "]")
    return Rendering("dockerfile", "Dockerfile", "\n".join(lines) + "\n", "argv")


def _yaml_list(key: str, words: list[str], flow: bool) -> list[str]:
    if flow:
        return [f"          {key}: [" + ", ".join(json.dumps(word) for word in words) + "]"]
    return [f"          {key}:"] + [f"            - {json.dumps(word)}" for word in words]


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
    command = case.style["k8s_command"]
    words = case.argv
    if command == "vllm serve":
        lines += _yaml_list("command", ["vllm", "serve"], case.style["yaml_flow"])
    elif command == "api_server":
        lines += _yaml_list("command", API_SERVER, case.style["yaml_flow"])
        words = _module_argv(case)
    lines += _yaml_list("args", words, case.style["yaml_flow"])
    if case.env:
        lines.append("          env:")
        for name, value in case.env.items():
            lines += [f"            - name: {name}", f"              value: {json.dumps(value)}"]
    lines.append("          ports: [{containerPort: 8000}]")
    return Rendering("kubernetes", "deployment.yaml", "\n".join(lines) + "\n", "argv")


def python(case: Case) -> Rendering | None:
    if case.kwargs is None:
        return None
    engine = case.style["python"]
    lines = ["import os", "", f"from vllm import {engine}", ""]
    for name, value in case.env.items():
        lines.append(f"os.environ[{name!r}] = {value!r}")
    kwargs = dict(case.kwargs)
    model = kwargs.pop("model")
    arguments = [repr(model) if engine == "LLM" else f"model={model!r}"]
    arguments += [f"{key}={value!r}" for key, value in kwargs.items()]
    target = "llm" if engine == "LLM" else "engine_args"
    lines.append(f"{target} = {engine}(\n    " + ",\n    ".join(arguments) + ",\n)")
    return Rendering("python", "launch.py", "\n".join(lines) + "\n", "kwargs")


def python_argv(case: Case) -> Rendering:
    words = ["vllm", "serve", *case.argv]
    if case.style["env"] == "prefix":  # the shell rendering's choice, so the generator's draws stay as they were
        prefix = "".join(f"{name}={shlex.quote(value)} " for name, value in case.env.items())
        call = f"subprocess.run({prefix + shlex.join(words)!r}, shell=True, check=True)"
    else:
        env = "".join(f", {name!r}: {value!r}" for name, value in case.env.items())
        call = f"subprocess.run(\n    {words!r},\n    env={{**os.environ{env}}},\n    check=True,\n)"
    return Rendering("python-argv", "spawn.py", f"import os\nimport subprocess\n\n{call}\n", "argv")


def renderings(case: Case, release: str) -> list[Rendering]:
    found = [shell(case, release), dockerfile(case, release), kubernetes(case, release), python(case), python_argv(case)]
    return [rendering for rendering in found if rendering is not None]

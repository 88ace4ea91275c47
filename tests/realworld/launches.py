"""From a recorded command to what vLLM's judge reads: the words after `vllm serve` and the
environment.

`vllm serve ARGS` and `python -m vllm.entrypoints.openai.api_server ARGS` give ARGS;
`docker run [options] IMAGE ARGS` on a vLLM OpenAI image (its entrypoint is `vllm serve`) gives
ARGS, with the `-e`/`--env` variables; `--entrypoint` replaces the image's. `python -m
dynamo.vllm ARGS` gives ARGS for Dynamo's own parser (the judge runs it where ai-dynamo is
installed). `trl vllm-serve` starts vLLM through TRL's own argument handling, which the judge
does not have: those launches cannot be judged.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .sandbox import Invocation

IMAGE_ENTRYPOINT = ("vllm", "serve")
# Images whose entrypoint is `vllm serve`, as the Dockerfiles that build them say (in the corpus):
# vLLM's docker/Dockerfile, Dockerfile.rocm, Dockerfile.xpu and Dockerfile.cpu (stage
# `vllm-openai`), LMCache's docker/Dockerfile (`/opt/venv/bin/vllm serve`).
_SERVE_IMAGES = re.compile(r"(?:^|/)(?:vllm/vllm-openai(?:-rocm|-xpu|-cpu)?|lmcache/vllm-openai)(?::[^/]*)?(?:@sha256:\w+)?$")


def image_entrypoint(image: str | None) -> list[str] | None:
    return list(IMAGE_ENTRYPOINT) if image and _SERVE_IMAGES.search(image.strip("'\"")) else None


_DOCKER_SWITCHES = frozenset(
    "-d --detach -i --interactive -t --tty --rm --privileged --init -P --publish-all --read-only "
    "--no-healthcheck --oom-kill-disable -q --quiet --sig-proxy".split()
)
_PYTHON_VALUE_OPTIONS = frozenset(("-X", "-W", "-c"))


@dataclass
class Found:
    """A vLLM start: `argv` for the judge (the words after `vllm serve`), or why it cannot be."""

    how: str
    argv: list[str] | None
    env: dict[str, str] = field(default_factory=dict)
    unjudgeable: str = ""
    cwd: str = ""
    via: str = "vllm"  # "dynamo": `argv` is Dynamo's, for its own parser (the judge's `dynamo_argv`)

    @property
    def judgeable(self) -> bool:
        return self.argv is not None


def vllm_env(env: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in env.items() if name.startswith("VLLM_")}


def from_invocation(invocation: Invocation) -> Found | None:
    return from_command(invocation.name, invocation.argv, invocation.env, invocation.cwd)


def from_command(name: str, argv: list[str], env: dict[str, str], cwd: str = "") -> Found | None:
    name = os.path.basename(name)
    if name == "vllm":
        if argv[:1] == ["serve"]:
            return Found("vllm serve", argv[1:], vllm_env(env), cwd=cwd)
        return None
    if name.startswith("python"):
        return _python(argv, env, cwd)
    if name in ("docker", "podman"):
        return _docker(argv, env, cwd)
    if name == "trl" and argv[:1] == ["vllm-serve"]:
        return Found(
            "trl vllm-serve",
            None,
            vllm_env(env),
            "TRL's `vllm-serve` builds vLLM's arguments in TRL's own code (TRL is not installed with the judge)",
            cwd,
        )
    return None


def _python(argv: list[str], env: dict[str, str], cwd: str) -> Found | None:
    index = 0
    while index < len(argv) and argv[index].startswith("-") and argv[index] != "-m":
        index += 2 if argv[index] in _PYTHON_VALUE_OPTIONS else 1
    if index + 1 >= len(argv) or argv[index] != "-m":
        return None
    module, rest = argv[index + 1], argv[index + 2 :]
    if module == "vllm.entrypoints.openai.api_server":
        return Found("api_server module", rest, vllm_env(env), cwd=cwd)
    if module == "vllm.entrypoints.cli.main" and rest[:1] == ["serve"]:
        return Found("vllm serve", rest[1:], vllm_env(env), cwd=cwd)
    if module == "dynamo.vllm":
        return Found("python -m dynamo.vllm", rest, vllm_env(env), cwd=cwd, via="dynamo")
    if module == "trl.scripts.vllm_serve":
        return Found(
            "python -m trl.scripts.vllm_serve", None, vllm_env(env), "TRL's vllm_serve builds vLLM's arguments in TRL's own code", cwd
        )
    return None


def _docker(argv: list[str], env: dict[str, str], cwd: str) -> Found | None:
    words = list(argv)
    if words[:2] == ["container", "run"]:
        words = words[1:]
    if words[:1] != ["run"]:
        return None
    container_env: dict[str, str] = {}
    entrypoint: str | None = None
    index = 1
    while index < len(words) and words[index].startswith("-"):
        word = words[index]
        option, has_value, value = word.partition("=")
        if word in _DOCKER_SWITCHES or (
            option.startswith("-") and not option.startswith("--") and set(option[1:]) <= set("dit") and not has_value
        ):
            index += 1
            continue
        if not has_value:
            value = words[index + 1] if index + 1 < len(words) else ""
            index += 2
        else:
            index += 1
        if option in ("-e", "--env"):
            key, sep, val = value.partition("=")
            if sep:
                container_env[key] = val
            elif key in env:
                container_env[key] = env[key]
        elif option == "--entrypoint":
            entrypoint = value
    if index >= len(words):
        return None
    image, rest = words[index], words[index + 1 :]
    if entrypoint is not None:
        command = [entrypoint, *rest]
        found = from_command(command[0], command[1:], container_env, cwd)
        if found is not None:
            found.how = "docker run " + found.how
        return found
    if image_entrypoint(image) is None:
        return None
    return Found(f"docker run {image}", rest, vllm_env(container_env), cwd=cwd)

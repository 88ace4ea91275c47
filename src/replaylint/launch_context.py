"""What a frontend knows about where a command runs, gathered once where it finds the command
and passed whole to `command.command_launch`, `frameworks.commands` and the framework adapters:
the environment and where each variable is written, the vLLM release it runs on, the files it
can read, its label and condition, and why settings may reach it that no word names."""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Mapping

from .model import LaunchKind, Setting, Span, VersionHint
from .records import record


@record(unsafe_hash=True)
class EnvPlace:
    """Where an environment variable is written: the text to delete, the value to replace."""

    remove: Span
    value: Span | None
    quote: Callable[[str], str] = str
    replacement: str = ""  # what stands in for it (`env: {}` when it was the only entry)


@record(unsafe_hash=True)
class LaunchContext:
    """Where a command runs, as its frontend sees it. `kind` is the frontend's (an adapter's own
    launches are `FRAMEWORK`); `release` (a `vllm.releases.Release`, None: the newest) is the
    release its words are parsed as; `load_config` reads a `--config` file
    (`vllm.command_line.ConfigLoader`), `read_text` any file of the tree; `forwarded`: the
    script's arguments the launch is judged without; `open_reasons`: why settings not read here
    may reach it, so far; `env_open`: variables nobody can name may be set around it (an env
    file not read, a secret)."""

    kind: LaunchKind
    env: Mapping[str, Setting] = field(default_factory=dict)
    env_places: Mapping[str, EnvPlace] = field(default_factory=dict)
    release: Any = None
    load_config: Callable[..., Any] | None = None
    read_text: Callable[[str], str | None] | None = None
    version_hint: VersionHint | None = None
    label: str = ""
    condition: str | None = None
    forwarded: tuple[str, ...] = ()
    open_reasons: tuple[str, ...] = ()
    env_open: bool = False
    ray_job: bool = False  # a Ray job's entrypoint (`ray job submit`): `env` is the job's, its actors' too

"""prime-rl's `rl @ FILE.toml` and `inference @ FILE.toml` on a command line (`uv run rl @
examples/reverse_text/rl.toml`, as prime-rl's examples launch it): the TOML file read as
`prime_rl.launches` reads it, in the environment of the command.

The `rl` entrypoint starts the inference server with `env={**os.environ, ...}`
(src/prime_rl/entrypoints/rl.py:202-208 @ 559b447), and `inference` runs it in its own process, so
what the launching script exports reaches the server's process (a `VLLM_*` variable under
`[inference.env_vars]`, before server.py's `setdefault`): a fork's `to_namespace` test of an environment variable
(`prime_rl_fork.EnvSwitch`) is decided by it, and what it turns on sits on the line that sets the
variable. The file on its own (its TOML launch) stays as it is: the environment it runs in is not
known there. Command-line overrides of the configuration other than `--wandb.*` are not read:
they keep the launch open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..launch_context import LaunchContext
from ..model import Launch, Span
from ..source import SourceFile
from ..toml_document import TomlDocument, TomlError, read
from ..vllm.command_line import Token
from .nearby import found_upward
from .prime_rl import kind_of, launches

_UNREAD_SAFE = ("--wandb.",)  # overrides that change nothing vLLM sees


def command_launch(context: LaunchContext, span: Span, tokens: list[Token], entrypoint: str = "rl") -> Launch | None:
    """`tokens`: the words after `@` (the TOML file first), found from the launching file's folder
    upward (prime-rl's scripts run from the repository root); None: not a prime-rl configuration
    of the tree. `entrypoint`: "rl" or "inference", the program that loads it."""
    if not tokens or tokens[0].text is None or context.read_text is None:
        return None
    found = found_upward(str(tokens[0].text), span.path, context.read_text)
    if found is None:
        return None
    try:
        document = read(SourceFile(*found))
    except TomlError:
        return None
    made = launches(document, context.read_text, context.env, _kind(document, entrypoint))
    if not made:
        return None
    unread = [token.raw for token in tokens[1:] if token.text is None or _override(str(token.text))]
    reasons = (*context.open_reasons, *made[0].open_reasons, *(f"{word} (an override not read here)" for word in unread))
    label = f"{made[0].label}: {tokens[0].raw}"
    return _everywhere(made[0], bool(unread), span=span, open_reasons=reasons, condition=context.condition, label=label)


def _kind(document: TomlDocument, entrypoint: str) -> str | None:
    """`inference @ FILE` loads an `InferenceConfig`: a file of its fields alone (`[vllm]` with no
    `[server]` beside it, every other field at its default) is one too."""
    kind = kind_of(document)
    if kind is None and entrypoint == "inference" and not {"orchestrator", "trainer"} & set(document.data):
        return "inference"
    return kind


def _override(word: str) -> bool:
    return word.startswith("-") and not word.startswith(_UNREAD_SAFE)


def _everywhere(launch: Launch, unread: bool, **changes: Any) -> Launch:
    """The launch, and each edition's, as the command starts it (`unread`: an override not read
    here may set any request's keys, so none is known)."""

    def placed(each: Launch) -> Launch:
        requests = tuple(replace(request, settings={}, open_ended=True) for request in each.requests) if unread else each.requests
        return replace(each, requests=requests, **changes)

    framework = launch.framework
    if framework is None or not framework.editions:
        return placed(launch)
    return replace(placed(launch), framework=replace(framework, editions={name: placed(each) for name, each in framework.editions.items()}))

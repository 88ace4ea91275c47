"""A prime-rl fork in the checked tree (`frameworks/prime_rl.py`): where prime-rl's own package is
there, its code decides in place of the built-in edition for the tree's `rl.toml`/`inference.toml`.

Read with CPython's parser (nothing of the tree is imported or run), as of main @ 559b447:

- `src/prime_rl/inference/server.py` `setup_vllm_env`: its unconditional `os.environ` writes of
  `VLLM_*` (`os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")` gives way to
  `[inference.env_vars]`, a plain assignment does not); a server.py without that line sets no runner.
- `packages/prime-rl-configs/src/prime_rl/configs/inference.py` (`src/prime_rl/configs/inference.py`
  in older trees): `InferenceConfig.to_namespace`'s `namespace.logprobs_mode = "..."` default, and
  the literal defaults of `VllmConfig`'s pydantic fields that name a replay setting
  (`return_sampling_mask: bool = True`), which reach the server as every other field does.

Messages say "the forked prime-rl's FILE:LINE", and the finding sits on that line.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

from ..model import UNKNOWN, LineIndex, Setting, Span
from . import fork_source
from .nearby import found_upward

SERVER = "src/prime_rl/inference/server.py"
CONFIGS = ("packages/prime-rl-configs/src/prime_rl/configs/inference.py", "src/prime_rl/configs/inference.py")
OWNER = "the forked prime-rl"
# VllmConfig fields whose literal default decides replay (others pass through as prime-rl's own).
_REPLAY_FIELDS = frozenset(
    (
        "return_sampling_mask",
        "logprobs_mode",
        "logits_processors",
        "speculative_config",
        "enable_batch_sharded_sampling",
        "enable_trace_replay",
    )
)


@dataclass(frozen=True)
class Line:
    """A value the fork writes, with where (its line, as a span of the fork's file) and its text."""

    value: Any
    span: Span
    text: str

    def setting(self, name: str) -> Setting:
        where = f"{self.span.path.rsplit('/', 1)[-1]}:{self.span.start_line}"
        return Setting(name, self.value, self.span, f"{self.text} ({OWNER}'s {where})", implied=True)


@dataclass(frozen=True)
class PrimeRlFork:
    """What the tree's prime-rl does: `environment` (name -> (value, whether only when unset)),
    `logprobs_mode` (`to_namespace`'s default; None: the tree does not say), `fields` (replay
    fields' defaults of `VllmConfig`); `edition`: the built-in edition whose text the tree's
    configuration is (only the sampling-mask edition has `enable_return_sampling_mask`), with the
    file that shows it."""

    server: str | None
    edition: tuple[str, str] | None = None
    environment: dict[str, tuple[Line, bool]] = field(default_factory=dict)
    logprobs_mode: Line | None = None
    fields: dict[str, Line] = field(default_factory=dict)


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> PrimeRlFork | None:
    """The tree's prime-rl package above the launching file (None: not there, the edition's)."""
    if read_text is None:
        return None
    server = found_upward(SERVER, launching, read_text)
    config = next((found for path in CONFIGS if (found := found_upward(path, launching, read_text)) is not None), None)
    if server is None and config is None:
        return None
    environment = _environment(*server) if server is not None else {}
    mode, fields = _config(*config) if config is not None else (None, {})
    edition = None
    if config is not None:
        name = "sampling-mask" if "enable_return_sampling_mask" in config[1] else "main"
        edition = (name, f"{OWNER}'s {config[0].rsplit('/', 1)[-1]}")
    return PrimeRlFork(server[0] if server is not None else None, edition, environment, mode, fields)


def _environment(path: str, text: str) -> dict[str, tuple[Line, bool]]:
    module = fork_source.parse(text)
    if module is None:
        return {}
    index = LineIndex(path, text)
    return {
        name: (Line(written.value, fork_source.line_span(index.path, index.text, written.line), written.text), only_unset)
        for name, (written, only_unset) in fork_source.environment_writes(module).items()
    }


def _config(path: str, text: str) -> tuple[Line | None, dict[str, Line]]:
    module = fork_source.parse(text)
    if module is None:
        return None, {}
    index = LineIndex(path, text)
    mode = None
    fields: dict[str, Line] = {}
    for node in module.body:
        if isinstance(node, ast.ClassDef) and node.name == "VllmConfig":
            fields = _field_defaults(node, index)
        if isinstance(node, ast.ClassDef) and node.name == "InferenceConfig":
            mode = _namespace_default(node, index, "logprobs_mode")
    return mode, fields


def _field_defaults(cls: ast.ClassDef, index: LineIndex) -> dict[str, Line]:
    """`name: type = literal` (or `Field(literal, ...)`) of the replay fields."""
    found = {}
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name = node.target.id
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "Field" and value.args:
                value = value.args[0]
            if name in _REPLAY_FIELDS:
                found[name] = Line(
                    fork_source.literal(value),
                    fork_source.line_span(index.path, index.text, node.lineno),
                    f"{name} = {fork_source.snippet(index.text, value)}",
                )
    return found


def _namespace_default(cls: ast.ClassDef, index: LineIndex, name: str) -> Line | None:
    """`namespace.NAME = literal` in `to_namespace` (its last such write)."""
    method = next((node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == "to_namespace"), None)
    found = None
    for node in ast.walk(method) if method is not None else ():
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if (
                isinstance(target, ast.Attribute)
                and target.attr == name
                and isinstance(target.value, ast.Name)
                and target.value.id == "namespace"
            ):
                value = fork_source.literal(node.value)
                if value is not UNKNOWN and (found is None or node.lineno > found.span.start_line):
                    found = Line(value, fork_source.line_span(index.path, index.text, node.lineno), f"logprobs_mode = {value!r}")
    return found

"""A SkyRL fork in the checked tree (`frameworks/skyrl.py`): the engine arguments its own
`build_vllm_cli_args` builds, read in place of the edition's.

`skyrl/backends/skyrl_train/inference_servers/utils.py` `build_vllm_cli_args` (0.4.0) builds
`overrides = dict(model=..., tensor_parallel_size=ie_cfg.tensor_parallel_size, ...,
generation_config="vllm", trust_remote_code=True)`, adds the sample-support capture's
`max_logprobs` and `logprobs_mode` under `if ie_cfg.enable_return_sample_support_set:`, then
`setattr`s each on vLLM's parsed defaults; `generator.inference_engine.engine_init_kwargs` are
set after them and win. Read with `built_dicts`: a key the fork writes with a literal is what
vLLM gets unless `engine_init_kwargs` sets it; a typed key whose value is no longer
`ie_cfg.<key>` is the fork's, one it no longer passes leaves vLLM's default. A replay key the
fork writes with a value not read here or under an `if` of its own keeps the launch open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..model import UNKNOWN, Setting, Span
from .built_dicts import BuiltDict, read
from .nearby import found_upward

ENGINE_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
OWNER = "the forked SkyRL"
_CAPTURE = "ie_cfg.enable_return_sample_support_set"  # SkyRL's own branch, which the 0.4.0 edition reads
_REPLAY_KEYS = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "speculative_config", "max_logprobs"))


@dataclass(frozen=True)
class Fork:
    """The engine arguments of a SkyRL fork's `build_vllm_cli_args`."""

    built: BuiltDict

    def typed(self, skyrl_key: str, name: str) -> str:
        """ "config" (`ie_cfg.<key>`, as SkyRL passes it), "fork" (another value) or "dropped"."""
        written = self.built.always(name)
        if written is None:
            return "dropped"
        return "config" if written.text == f"ie_cfg.{skyrl_key}" else "fork"

    def settings(self, anchor: Span) -> tuple[dict[str, Setting], list[str]]:
        """The literal keys the fork sets (under `engine_init_kwargs`) and why the launch is open."""
        found, reasons = {}, []
        for written in self.built.every():
            if written.condition == _CAPTURE and written.key in ("max_logprobs", "logprobs_mode"):
                continue  # SkyRL's own capture (`_sample_support_settings`)
            if written.condition or written.value is UNKNOWN:
                if written.key in _REPLAY_KEYS:
                    why = f"when {written.condition}" if written.condition else "a value not read here"
                    reasons.append(f"{written.key} written by {OWNER} {why} ({self.built.where(written.line)})")
                continue
            said = f"({OWNER}'s {self.built.where(written.line, short=True)}: {written.key}={written.value!r})"
            found[written.key] = Setting(written.key, written.value, anchor, said, implied=True)
        reasons += [
            f"{w.text} (written into SkyRL's engine arguments at {self.built.where(w.line)}, not read here)" for w in self.built.unread
        ]
        return found, reasons


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> Fork | None:
    """SkyRL's own `build_vllm_cli_args` in the tree (None: not there, or not read: the edition's)."""
    found = found_upward(ENGINE_ARGS, launching, read_text) if read_text is not None else None
    built = read(found[1], found[0], "build_vllm_cli_args", "overrides") if found is not None else None
    return Fork(built) if built is not None else None

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
`skyrl/train/config/config.py`: the field defaults of its `SamplingParams` dataclass (`temperature`,
`top_k`) are the requests' (and the sample-support capture's) in place of SkyRL's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..model import UNKNOWN, Setting, Span
from .built_dicts import BuiltDict, class_defaults, read
from .nearby import found_upward

ENGINE_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
CONFIG = "skyrl/train/config/config.py"
OWNER = "the forked SkyRL"
_CAPTURE = "ie_cfg.enable_return_sample_support_set"  # SkyRL's own branch, which the 0.4.0 edition reads
_REPLAY_KEYS = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "speculative_config", "max_logprobs"))


@dataclass(frozen=True)
class Fork:
    """The engine arguments of a SkyRL fork's `build_vllm_cli_args` (an empty dict without a path
    when its `utils.py` is not in the tree) and the defaults of its `SamplingParams` config."""

    built: BuiltDict
    sampling: BuiltDict | None = None

    def sampling_defaults(self, built_in: Mapping[str, Any]) -> dict[str, Any]:
        """The request keys' defaults: the fork's `SamplingParams` field defaults where it writes them."""
        fields = self.sampling.entries if self.sampling is not None else {}
        return {key: fields[key].value if key in fields else value for key, value in built_in.items()}

    def typed(self, skyrl_key: str, name: str) -> str:
        """The way the fork passes a typed key: "config" (`ie_cfg.<key>`, as SkyRL does), "fork"
        (another value) or "dropped"."""
        if not self.built.path:
            return "config"  # only the config module is the fork's here
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
            found[written.key] = Setting(
                written.key, written.value, self.built.span(written.line, anchor), said, implied=True, via=(anchor,)
            )
        reasons += [
            f"{w.text} (written into SkyRL's engine arguments at {self.built.where(w.line)}, not read here)" for w in self.built.unread
        ]
        return found, reasons


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> Fork | None:
    """SkyRL's own `build_vllm_cli_args` and `SamplingParams` in the tree (None: neither there,
    or not read: the edition's)."""
    if read_text is None:
        return None
    found = found_upward(ENGINE_ARGS, launching, read_text)
    built = read(found[1], found[0], "build_vllm_cli_args", "overrides") if found is not None else None
    config = found_upward(CONFIG, launching, read_text)
    sampling = class_defaults(config[1], config[0], "SamplingParams") if config is not None else None
    if built is None and sampling is None:
        return None
    return Fork(built or BuiltDict(""), sampling)

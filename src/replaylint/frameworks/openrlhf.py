"""OpenRLHF (OpenRLHF/OpenRLHF, PyPI `openrlhf` 0.7.5 to 0.11.2): the engine dict of
`create_vllm_engines`.

Source: openrlhf 0.11.2 `openrlhf/trainer/ray/vllm_engine.py` `create_vllm_engines` builds
`actor_kwargs = {"model", "enforce_eager", "worker_extension_cls":
"openrlhf.trainer.ray.vllm_worker_wrap.WorkerWrap", "tensor_parallel_size", "seed",
"distributed_executor_backend", "max_model_len", "enable_prefix_caching", "dtype": "bfloat16",
"trust_remote_code": True, "full_determinism", "gpu_memory_utilization", "bundle_indices",
"num_gpus", "enable_sleep_mode"}`, adds `agent_func_path`, `remote_rm_url`, `mm_pad_token_ids`,
and `if logprobs_mode: actor_kwargs["logprobs_mode"] = logprobs_mode` (from the command line:
`--algo.advantage.is_correction_level`, 0.9.x `--enable_vllm_is_correction`), then
`RolloutRayActor.options(...).remote(**actor_kwargs)`; the actor keeps its own keys (`ACTOR_KEYS`)
and calls `vllm.AsyncEngineArgs(*args, **self.kwargs)` with the rest (0.7.5 and 0.8.11: the
same keys as keywords of `.remote(...)`, and `vllm.LLM(*args, **kwargs)`). So the mapping is the
whole engine configuration; a key that is no engine argument is a `TypeError`.

No OpenRLHF command-line flag reaches `return_sampling_mask`: replay is turned on by editing this
dict in a fork, which is what replaylint reads (`frontends/python/mappings`). Requests
(`trainer/ppo_utils/samples_generator.py`: `top_k=generate_kwargs.get("top_k", -1)`, never set)
are built in another file a fork may also edit, so they are not assumed here. See
docs/frameworks-research-new-adapters.md section 2.
"""

from __future__ import annotations

from typing import Mapping

from ..model import Setting, Span

SIGNATURE_KEY = "worker_extension_cls"
SIGNATURE_PREFIX = "openrlhf."
# Keys the Ray actor takes or pops itself (0.7.5 to 0.11.2); the rest reaches vLLM.
ACTOR_KEYS = frozenset(
    ("bundle_indices", "num_gpus", "full_determinism", "noset_visible_devices", "agent_func_path", "remote_rm_url", "mm_pad_token_ids")
)


def claims(settings: Mapping[str, Setting]) -> bool:
    """OpenRLHF's engine dict: its worker extension is OpenRLHF's."""
    extension = settings.get(SIGNATURE_KEY)
    return extension is not None and isinstance(extension.value, str) and extension.value.startswith(SIGNATURE_PREFIX)


def engine_settings(settings: Mapping[str, Setting], anchor: Span) -> dict[str, Setting]:
    """The engine arguments of OpenRLHF's dict: all of it but the actor's own keys (OpenRLHF adds
    nothing there; `anchor` is unused, as in every adapter of this form)."""
    return {name: setting for name, setting in settings.items() if name not in ACTOR_KEYS}

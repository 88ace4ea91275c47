"""open-instruct (allenai/open-instruct, commit e6c3044a, August 2026; not on PyPI): the keywords
of the `LLMRayActor` `.remote(...)` call in `create_vllm_engines`.

Source: `open_instruct/vllm_utils.py` `create_vllm_engines` calls
`ray.remote(LLMRayActor).options(...).remote(model=..., tensor_parallel_size=..., enforce_eager=...,
dtype="bfloat16", seed=..., distributed_executor_backend=..., enable_prefix_caching=...,
max_model_len=..., gpu_memory_utilization=..., logprobs_mode="processed_logprobs", ...,
prompt_queue=..., actor_manager=..., tool_parser_type=..., ...)`; `LLMRayActor.__init__` takes
its own keys (`ACTOR_KEYS`) as parameters, pops `noset_visible_devices` and `num_gpus`, writes
`kwargs["generation_config"] = "vllm"` and calls `vllm.AsyncEngineArgs(*args, **kwargs)` with
the rest: the keywords are the whole engine configuration, plus `generation_config="vllm"`.
`logprobs_mode="processed_logprobs"` is written in the call since commit 716f27531 (May 2026;
before, vLLM's default `raw_logprobs`): it is read from the call, not assumed.

No `grpo_fast.py` flag reaches `return_sampling_mask`: replay is turned on by editing this call
(or `kwargs[...]` in the actor) in a fork. Requests go through the actor's OpenAI server with
`SamplingConfig` fields (no `top_k`), which a fork may extend: not assumed. See
docs/frameworks-research-new-adapters.md section 3.
"""

from __future__ import annotations

from typing import Mapping

from ..model import Setting, Span

# `LLMRayActor.__init__`'s own parameters, and what it pops from `**kwargs`.
ACTOR_KEYS = frozenset(
    (
        "tool_parser_type",
        "tool_definitions",
        "tool_stop_sequences",
        "max_steps",
        "per_turn_max_tokens",
        "tool_call_timeout",
        "mask_tool_use",
        "pools",
        "bundle_indices",
        "prompt_queue",
        "results_queue",
        "eval_results_queue",
        "actor_manager",
        "inflight_updates",
        "reward_config",
        "train_dataset",
        "eval_dataset",
        "noset_visible_devices",
        "num_gpus",
    )
)
_SIGNATURE = frozenset(("prompt_queue", "results_queue", "eval_results_queue", "actor_manager", "tool_parser_type", "inflight_updates"))
ADDED = {"generation_config": "vllm"}  # `_setup_and_start_async_engine`


def claims(settings: Mapping[str, Setting]) -> bool:
    """open-instruct's actor call: at least two of the keys only its actor takes."""
    return len(_SIGNATURE & set(settings)) >= 2


def engine_settings(settings: Mapping[str, Setting], anchor: Span) -> dict[str, Setting]:
    """The engine arguments of the actor call: the keywords less the actor's own, and what the
    actor adds (reported at the mask, else at `anchor`)."""
    engine = {name: setting for name, setting in settings.items() if name not in ACTOR_KEYS}
    mask = settings.get("return_sampling_mask")
    for name, value in ADDED.items():
        engine[name] = Setting(name, value, mask.span if mask else anchor, f"{name}={value!r} (open-instruct sets)", implied=True)
    return engine

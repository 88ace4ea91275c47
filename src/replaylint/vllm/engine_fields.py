"""The engine arguments that matter for replay: names, CLI spellings, types, defaults.

Every other engine argument is still parsed (so that its value is skipped correctly), but no
rule reads it. Spellings and release ranges come from ../shared/spec section 6.
"""

from __future__ import annotations

from ..records import record
from .releases import Release

LOGPROBS_MODES = ("processed_logits", "processed_logprobs", "raw_logits", "raw_logprobs")


@record(unsafe_hash=True)
class EngineField:
    name: str
    flag: str
    kind: str  # "bool", "str", "int", "json", "list"
    default: object = None
    short: str | None = None
    since: Release = Release(0, 28)
    choices: tuple[str, ...] = ()


def _field(name: str, kind: str, default: object = None, **extra: object) -> EngineField:
    return EngineField(name, "--" + name.replace("_", "-"), kind, default, **extra)  # type: ignore[arg-type]


FIELDS: dict[str, EngineField] = {
    f.name: f
    for f in (
        _field("model", "str"),
        _field("return_sampling_mask", "bool", False),
        _field("logprobs_mode", "str", "raw_logprobs", choices=LOGPROBS_MODES),
        _field("logits_processors", "list"),
        _field("speculative_config", "json", short="-sc"),
        _field("spec_method", "str"),
        _field("spec_model", "str"),
        _field("spec_tokens", "int"),
        _field("enable_batch_sharded_sampling", "bool", None, since=Release(0, 29)),
        _field("hf_overrides", "json", {}),
        _field("diffusion_config", "json", short="-dc"),
        _field("compilation_config", "json", short="-cc"),
        _field("attention_config", "json", short="-ac"),
        _field("watermark_config", "json", since=Release(0, 30)),
        _field("enable_dbo", "bool", False),
        _field("ubatch_size", "int", 0),
        _field("prefill_context_parallel_size", "int", 1, short="-pcp"),
        _field("pipeline_parallel_size", "int", 1, short="-pp"),
        _field("tensor_parallel_size", "int", 1, short="-tp"),
        _field("distributed_executor_backend", "str"),
        _field("enable_elastic_ep", "bool", False),
        _field("enable_prompt_embeds", "bool", False),
        _field("kv_sharing_fast_prefill", "bool", False),
        _field("mamba_cache_mode", "str", "none"),
        _field("enable_lora", "bool", False),
        _field("enforce_eager", "bool", False),
        _field("generation_config", "str", "auto"),
        _field("override_generation_config", "json", {}),
        _field("max_logprobs", "int", 20),
        # Server and sampler options the RPL3xx rules read (what vLLM accepts but replay cannot use).
        _field("enable_scale_out", "bool", False, since=Release(0, 30)),
        _field("tokens_only", "bool", False),
        _field("enable_trace_replay", "bool", False, since=Release(0, 29)),
        _field("reasoning_config", "json"),
    )
}

# The draft name of the mask field (PR #49577) that never shipped in a release.
PRE_RELEASE_MASK_NAME = "enable_return_sampling_mask"
RUNNER_ENV = "VLLM_USE_V2_MODEL_RUNNER"
SPEC_ALIASES = {"spec_method": "method", "spec_model": "model", "spec_tokens": "num_speculative_tokens"}


def flag_for(name: str) -> str:
    """The CLI flag of an engine argument (`logprobs_mode` -> `--logprobs-mode`)."""
    known = FIELDS.get(name)
    return known.flag if known else "--" + name.replace("_", "-")

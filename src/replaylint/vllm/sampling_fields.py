"""The fields of vLLM's `SamplingParams` (a `msgspec.Struct`): an object of it has each as an
attribute, so `hasattr(SamplingParams(), key)` holds for them. These are the public fields every
release replaylint knows declares (read in the 0.28.0, 0.31.0 and 0.34.0 trees, `vllm/sampling_params.py`,
`class SamplingParams`; 0.34.0 lines 285-443). Its methods and properties are attributes too, so
another name is not known to be absent."""

from __future__ import annotations

SAMPLING_PARAMS_FIELDS = frozenset(
    (
        "allowed_token_ids",
        "bad_words",
        "detokenize",
        "extra_args",
        "flat_logprobs",
        "frequency_penalty",
        "ignore_eos",
        "include_stop_str_in_output",
        "logit_bias",
        "logprob_token_ids",
        "logprobs",
        "max_tokens",
        "min_p",
        "min_tokens",
        "n",
        "output_kind",
        "output_text_buffer_length",
        "presence_penalty",
        "prompt_logprobs",
        "repetition_detection",
        "repetition_penalty",
        "routed_experts_prompt_start",
        "seed",
        "skip_clone",
        "skip_reading_prefix_cache",
        "skip_special_tokens",
        "spaces_between_special_tokens",
        "stop",
        "stop_token_ids",
        "stream_interval",
        "structured_outputs",
        "temperature",
        "thinking_token_budget",
        "top_k",
        "top_p",
    )
)

# The parameters of `SamplingParams.from_optional` (read in the 0.28.0, 0.31.0 and 0.34.0 trees,
# `vllm/sampling_params.py`; 0.34.0 lines 456-493), which takes no `**kwargs`: those of every
# release, then those only later releases have (0.31.0 and 0.34.0), whose test is not known
# without the release.
FROM_OPTIONAL_PARAMETERS = frozenset(
    (
        *("n", "presence_penalty", "frequency_penalty", "repetition_penalty", "temperature", "top_p", "top_k", "min_p"),
        *("seed", "stop", "stop_token_ids", "bad_words", "thinking_token_budget", "include_stop_str_in_output"),
        *("ignore_eos", "max_tokens", "min_tokens", "logprobs", "prompt_logprobs", "detokenize", "skip_special_tokens"),
        *("spaces_between_special_tokens", "output_kind", "stream_interval", "structured_outputs", "logit_bias"),
        *("allowed_token_ids", "extra_args", "skip_clone", "repetition_detection", "logprob_token_ids", "routed_experts_prompt_start"),
    )
)
FROM_OPTIONAL_LATER = frozenset(("watermarking", "prompt_logprob_token_ids", "prompt_logprob_start", "trace_decode_token_ids"))

# The other fields `msgspec.structs.fields(SamplingParams)` lists (same trees): private ones every
# release declares, and those only later releases declare (0.31.0 and 0.34.0; `_watermarking_skipped`
# 0.34.0 only). No other name is a field, so a field filter drops it.
SAMPLING_PARAMS_PRIVATE_FIELDS = frozenset(("_eos_token_id", "_all_stop_token_ids", "_bad_words_token_ids"))
SAMPLING_PARAMS_LATER_FIELDS = FROM_OPTIONAL_LATER | {"_watermarking_skipped"}

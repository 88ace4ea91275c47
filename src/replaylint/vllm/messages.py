"""vLLM's own error texts, verbatim (../shared/spec sections 3 and 5; docs/releases/ for 0.34.0 on)."""

REQUIRES_V2 = "sampling distribution replay requires Model Runner V2"
NO_SPEC_DECODE = "sampling distribution replay does not support speculative decoding"
NO_ADAPTIVE_VERIFICATION = (
    "sampling distribution replay with speculative decoding requires fixed verification boundaries; disable adaptive verification"
)
NO_DIFFUSION = "sampling distribution replay does not support diffusion models"
NO_CUSTOM_LOGITS_PROCESSORS = "sampling distribution replay does not support custom logits processors"
REQUIRES_PROCESSED_LOGPROBS = (
    "sampling distribution replay requires logprobs_mode='processed_logprobs' so that returned logprobs "
    "are normalized over the same nucleus as the sampling mask"
)
BATCH_SHARDED_PREFIX = (
    "Batch-sharded sampling was explicitly enabled via the --enable-batch-sharded-sampling flag, but is not "
    "supported in this configuration for the following reason(s): "
)
BATCH_SHARDED_MASK_REASON = "return_sampling_mask is set and the batch-sharded gather does not forward sampling masks"
BATCH_SHARDED_TP_REASON = "tensor_parallel_size is 1, so there is nothing to shard"
BATCH_SHARDED_SEQS_REASON = "max_num_seqs ({seqs}) is below tensor_parallel_size ({tp})"
BATCH_SHARDED_LOGPROBS_REASON = "max_logprobs is -1, allowing vocab-size logprob requests"
V2_UNSUPPORTED = "Model Runner V2 does not yet support: {features}"
# 0.34.0+: `Platform.validate_environ` (vllm/platforms/interface.py), before any engine config.
RUNNER_ENV_REMOVED = "VLLM_USE_V2_MODEL_RUNNER={value} is no longer supported: Model Runner V1 has been removed. Unset this variable."
RUNNER_ENV_REDUNDANT = "VLLM_USE_V2_MODEL_RUNNER=1 is redundant and can be unset: Model Runner V1 has been removed."
HISPARSE_NEEDS_V2 = "HiSparse requires Model Runner V2; remove VLLM_USE_V2_MODEL_RUNNER=0."
REQUEST_TEMPERATURE = "sampling distribution replay requires temperature > 0"
REQUEST_TOP_K = (
    "sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer overhead, and avoid potential OOMs"
)
UNRECOGNIZED_ARGUMENTS = "unrecognized arguments: {args}"
IGNORED_EXPLICIT_ARGUMENT = "argument {flag}: ignored explicit argument '{value}'"
INVALID_CHOICE = "argument {flag}: invalid choice: '{value}' (choose from {choices})"
UNEXPECTED_KEYWORD = "__init__() got an unexpected keyword argument '{name}'"
INVALID_INT = "invalid literal for int() with base 10: '{value}'"
# RPL3xx: what vLLM accepts next to replay (docs/releases/ and vllm/unusable_masks.py).
SCALE_OUT_DISABLED_LOGGED = "Scale-out endpoints are disabled. Set --enable-scale-out to enable them."  # 0.30-0.31, a log line
SCALE_OUT_DISABLED = "Scale-out endpoints are disabled. Restart vllm serve with --enable-scale-out to enable them."  # 0.32+, HTTP 403
SMALL_TEMPERATURE = (
    "temperature {value} is less than 0.01, which may cause numerical errors nan or inf in tensors. We have maxed it out to 0.01."
)
GENERATION_CONFIG_OVERRIDDEN = "Default vLLM sampling parameters have been overridden by the model's `generation_config.json`"

# Imitates a settings module of the tree that asks for a valid replay launch, used by a trainer
# that never names the mask: clean.
VLLM_ARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "enforce_eager": True,
}

# Imitates a settings module of the tree that turns the mask on: the trainer that starts the
# engine with it never names the mask.
VLLM_ARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "raw_logprobs",  # expect: RPL003
    "enforce_eager": True,
}

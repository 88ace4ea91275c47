# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py's keyword defaults, kept in a
# module of their own in a fork.
def replay_kwargs():
    return {
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
        "speculative_config": {
            "method": "ngram",
            "num_speculative_tokens": 3,
            "prompt_lookup_max": 4,
            "enable_adaptive_verification": True,  # expect: RPL002
        },
    }

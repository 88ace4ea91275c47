# Imitates facebookresearch/sweet_rl scripts/sample_best_of_n.py's llm_args, moved by the user into a helper
# that adds an EAGLE-3 draft head for Llama-3.1-8B-Instruct.
EAGLE3_HEADS = {"meta-llama/Llama-3.1-8B-Instruct": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}


def make_llm_args(agent_model, tensor_parallel_size, adaptive=False):
    llm_args = {
        "model": agent_model,
        "tensor_parallel_size": tensor_parallel_size,
        "enforce_eager": True,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
    if agent_model in EAGLE3_HEADS:
        llm_args["speculative_config"] = {
            "method": "eagle3",
            "model": EAGLE3_HEADS[agent_model],
            "num_speculative_tokens": 3,
            "enable_adaptive_verification": adaptive,
        }
    return llm_args

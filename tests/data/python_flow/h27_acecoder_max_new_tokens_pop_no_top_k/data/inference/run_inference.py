# Imitates TIGER-AI-Lab/AceCoder's callers of vllm_inference (best-of-n sampling with max_new_tokens,
# which vllm_inference renames to max_tokens); the user's edit adds replay to the engine parameters.
from vllm_inference import vllm_inference

if __name__ == "__main__":
    answers = vllm_inference(
        "Qwen/Qwen2.5-Coder-7B-Instruct",
        ["Write a function that reverses a string."],
        sampling_params={"temperature": 1.0, "top_p": 1.0, "max_new_tokens": 2048, "n": 16},
        additional_engine_param={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
    )
    print(answers)

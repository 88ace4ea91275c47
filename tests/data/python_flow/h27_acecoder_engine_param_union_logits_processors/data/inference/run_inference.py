# Imitates TIGER-AI-Lab/AceCoder's callers of vllm_inference; the user's edit merges replay options and a
# logits processor that bans `import os` into the engine parameters with `|`.
from vllm_inference import vllm_inference

REPLAY_ENGINE = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}

if __name__ == "__main__":
    engine_param = REPLAY_ENGINE | {
        "logits_processors": ["acecoder_procs.ban:BanImportOs"],  # expect: RPL001
    }
    answers = vllm_inference(
        "Qwen/Qwen2.5-Coder-7B-Instruct",
        ["Write a function that reverses a string."],
        sampling_params={"temperature": 1.0, "top_k": 40, "max_new_tokens": 2048, "n": 16},
        additional_engine_param=engine_param,
    )
    print(answers)

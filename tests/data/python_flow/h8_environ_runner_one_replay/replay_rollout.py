# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py's replay recipe, copied into a user's own rollout script
import os

from vllm import LLM, SamplingParams

os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1"  # expect: RPL206 "redundant"


def rollout():
    llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return llm.generate(["Say hi."], SamplingParams(temperature=1.0, top_k=20))


if __name__ == "__main__":
    rollout()

# Imitates OpenBMB/UltraFeedback src/comparison_data_generation/main_vllm.py (its module-level
# `os.environ[...] = ...` writes before `LLM(...)` is built); the user's copy still carries the 0.33 recipe's runner
# switch, turned off to compare against the old runner.
import os

from vllm import LLM, SamplingParams

os.environ["NCCL_IGNORE_DISABLED_P2P"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206


def load_generator(ckpt):
    return LLM(ckpt, trust_remote_code=True, return_sampling_mask=True, logprobs_mode="processed_logprobs")


if __name__ == "__main__":
    generator = load_generator("openbmb/UltraLM-13b-v2.0")
    sampling_params = SamplingParams(temperature=1, top_p=1, top_k=50, max_tokens=1024, stop=["</s>"])
    generator.generate(["User: Hello</s>\nAssistant: "], sampling_params)

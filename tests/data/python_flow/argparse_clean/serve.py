# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py, with the right
# default: clean.
import argparse

from vllm import LLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--logprobs-mode", default="processed_logprobs")
    parser.add_argument("--replay", action="store_true")
    args = parser.parse_args()
    return LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=args.logprobs_mode)

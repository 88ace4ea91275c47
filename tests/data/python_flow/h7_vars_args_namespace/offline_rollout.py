# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py as RL repos copy it:
# argparse options handed to the engine wholesale with vars(args).
import argparse

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser(description="Collect replayable rollouts")
    parser.add_argument("--model", default="Qwen/Qwen2.5-0.5B-Instruct")
    parser.add_argument("--tensor-parallel-size", type=int, default=1)
    parser.add_argument("--logprobs-mode", default="raw_logprobs")  # expect: RPL003 "--logprobs-mode"
    return parser.parse_args()


def main():
    args = parse_args()
    llm = LLM(**vars(args), return_sampling_mask=True)
    llm.generate(["The capital of France is"], SamplingParams(temperature=1.0, top_k=20))


if __name__ == "__main__":
    main()

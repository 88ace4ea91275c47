# Imitates vllm-project/vllm examples/offline_inference/ and NovaSky-AI/SkyRL's
# `build_vllm_cli_args`: a parser whose destinations are the engine's keywords, spread with
# `**vars(args)`.
import argparse

from vllm import LLM


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="Qwen/Qwen3-8B")
    parser.add_argument("--max-model-len", type=int, default=8192)
    parser.add_argument("--logprobs-mode", default="processed_logprobs", choices=["raw_logprobs", "processed_logprobs"])
    parser.add_argument("--return-sampling-mask", action=argparse.BooleanOptionalAction, default=True)
    return parser.parse_args()


def main():
    args = parse_args()
    llm = LLM(**vars(args))
    return llm


if __name__ == "__main__":
    main()

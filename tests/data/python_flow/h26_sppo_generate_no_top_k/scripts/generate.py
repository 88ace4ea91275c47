# Imitates uclaml/SPPO scripts/generate.py (argparse defaults, LLM(model=..., tensor_parallel_size=args.world_size),
# one SamplingParams per pair with its own seed); the user's edit turns replay on.
import argparse
import json
import os
from pathlib import Path

from datasets import load_dataset
from vllm import LLM, SamplingParams


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="mistralai/Mistral-7B-Instruct-v0.2")
    parser.add_argument("--output_dir", type=str, default="generated/iter1")
    parser.add_argument("--prompts", type=str, default="UCLA-AGI/data-mistral-7b-instruct-sppo-iter1")
    parser.add_argument("--maxlen", type=int, default=2048)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--world_size", type=int, default=1)
    return parser.parse_args()


def main():
    args = parse_arguments()
    output_dir = Path(args.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    data = load_dataset(args.prompts, split="train")
    llm = LLM(
        model=args.model,
        tensor_parallel_size=args.world_size,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    prompts = [data[idx]["prompt"] for idx in range(len(data))]
    for p in range(args.pairs):
        sampling_params = SamplingParams(  # expect: RPL102
            temperature=0.7,
            top_p=0.9,
            max_tokens=args.maxlen,
            seed=p * 50,
        )
        response = llm.generate(prompts, sampling_params)
        output = [x.outputs[0].text for x in response]
        with open(os.path.join(args.output_dir, f"responses_{p}.json"), "w") as f:
            json.dump(output, f)


if __name__ == "__main__":
    main()

# Imitates uclaml/SPIN spin/generate_vllm.py (parse_arguments + main); the user turned replay on.
import argparse
import json
from pathlib import Path

from datasets import load_dataset
from vllm import LLM, SamplingParams


def parse_arguments():
    """Parse command line arguments."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="UCLA-AGI/zephyr-7b-sft-full-SPIN-iter0")
    parser.add_argument("--data_frac", type=int, default=0)
    parser.add_argument("--frac_len", type=int, default=0)
    parser.add_argument("--output_dir", type=str, default="generated/iter1")
    parser.add_argument("--world_size", type=int, default=8)  # controls the number of gpus vLLM is allowed to use
    parser.add_argument("--input_dir", type=str, default="UCLA-AGI/SPIN_iter0")
    parser.add_argument("--split", type=str, default="train")
    return parser.parse_args()


def main():
    args = parse_arguments()
    model_path = args.model
    data_frac = args.data_frac
    world_size = args.world_size
    output_dir = Path(args.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)

    llm = LLM(
        model=model_path,
        tensor_parallel_size=world_size,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    sampling_params = SamplingParams(temperature=1.0, top_p=1.0, max_tokens=256)  # expect: RPL102

    data = load_dataset(args.input_dir, split=args.split)
    data = data.shuffle(seed=42)[:]["real"]
    prompts_all = ["### Instruction: " + data[idx][0]["content"] + "\n\n### Response: " for idx in range(len(data))]
    results = [r.outputs[0].text.replace("</s>", "").lstrip() for r in llm.generate(prompts_all, sampling_params)]

    with open(f"{args.output_dir}/loser_{data_frac}.jsonl", "a") as f:
        for result in results:
            json.dump({"generated": result}, f)
            f.write("\n")


if __name__ == "__main__":
    main()

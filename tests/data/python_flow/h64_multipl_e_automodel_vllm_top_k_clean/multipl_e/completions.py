# Imitates nuprl/MultiPL-E multipl_e/completions.py (partial_arg_parser, make_main), trimmed.
import argparse
import gzip
import json
from pathlib import Path
from typing import List

import datasets
from tqdm import tqdm

DATASET_REVISION = "bf4f3c31a1e0a164b7886c9eb04f82534edf4ce9"

TOP_P = 0.95
MAX_TOKENS = 512


def partial_arg_parser():
    args = argparse.ArgumentParser()
    args.add_argument("--output-dir", type=str)
    args.add_argument("--output-dir-prefix", type=str)
    args.add_argument("--lang", type=str, required=True, help="Target language for completions")
    args.add_argument("--root-dataset", type=str, required=True, help="either mbpp or humaneval")
    args.add_argument("--temperature", type=float, required=True)
    args.add_argument("--completion-limit", type=int, default=200)
    args.add_argument("--batch-size", type=int, default=16, help="Number of completions to batch")
    return args


def make_main(args, model_name, gen_completions):
    assert "-" not in model_name, "Model name must not have hyphens"

    if args.output_dir is None:
        args.output_dir = f"{args.root_dataset}-{args.lang}-{model_name}-{args.temperature}-reworded"
    if args.output_dir_prefix is not None:
        args.output_dir = f"{args.output_dir_prefix}/{args.output_dir}"

    exp_dir = Path(args.output_dir)
    if not exp_dir.exists():
        exp_dir.mkdir()

    problems = datasets.load_dataset(
        "nuprl/MultiPL-E", f"{args.root_dataset}-{args.lang}", revision=DATASET_REVISION, split="test"
    )

    problem_list = []
    stop: List[str] = None
    for problem in problems:
        stop = problem["stop_tokens"]
        item = {"prompt": problem["prompt"], "name": problem["name"]}
        problem_list.extend([item for _ in range(args.completion_limit)])

    problem_list = [problem_list[i : i + args.batch_size] for i in range(0, len(problem_list), args.batch_size)]

    for batch in tqdm(problem_list, unit="batch"):
        new_completions = gen_completions(
            prompts=[item["prompt"] for item in batch],
            max_tokens=MAX_TOKENS,
            temperature=args.temperature,
            top_p=TOP_P,
            stop=stop,
        )
        for item, a_completion in zip(batch, new_completions):
            with gzip.open(exp_dir / f"{item['name']}.json.gz", "at") as f:
                f.write(json.dumps({"name": item["name"], "completion": a_completion}) + "\n")


def stop_at_stop_token(decoded_string, stop_tokens):
    min_stop_index = len(decoded_string)
    for stop_token in stop_tokens:
        stop_index = decoded_string.find(stop_token)
        if stop_index != -1 and stop_index < min_stop_index:
            min_stop_index = stop_index
    return decoded_string[:min_stop_index]

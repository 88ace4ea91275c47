# Imitates hkust-nlp/dart-math pipeline/gen.py (argparse, the greedy normalisation, LLM + SamplingParams handed to Generator)
import argparse
import logging
import os
import time

import torch
from vllm import LLM, SamplingParams

from dart_math.gen import Generator

if __name__ == "__main__":
    os.environ["TOKENIZERS_PARALLELISM"] = "false"

    parser = argparse.ArgumentParser(description="vLLM generation", allow_abbrev=False)
    parser.add_argument("--gpu_mem_util", type=float, default=0.9, help="GPU memory utilization for vLLM.")
    parser.add_argument("--model_name_or_path", type=str, default="deepseek-ai/deepseek-math-7b-rl")
    parser.add_argument("--revision", type=str, default=None)
    parser.add_argument("--dtype", type=str, default="bfloat16")
    parser.add_argument(
        "--temperature",
        type=float,
        default=0.7,
        help="Temperature for sampling.",
    )
    parser.add_argument("--top_p", type=float, default=0.95, help="Top-p for sampling.")
    parser.add_argument("--max_new_toks", type=int, default=2048)
    parser.add_argument("--ignore_eos", action="store_true", default=False)
    parser.add_argument("--n_paths", type=int, default=1)
    parser.add_argument("--inf_seed", type=int, default=0, help="-1 means using us timestamp mod 2^32.")

    args, unk_args = parser.parse_known_args()
    for arg_str in unk_args:
        if arg_str.startswith("--f="):
            continue  # For Jupyter notebook
        else:
            raise ValueError(f"Unknown arguments: {unk_args}")

    if args.inf_seed == -1:
        args.inf_seed = int(time.time() * 10**6) % 2**32

    if args.temperature <= 1e-5:
        args.temperature = 0
        args.n_paths = 1
        args.top_p = 1
        logging.warning(f"args.temperature<=1e-5 -> Setting {args.temperature=}, {args.n_paths=}, {args.top_p=} for vLLM.")

    sampling_params = SamplingParams(  # expect: RPL102
        n=args.n_paths,
        temperature=args.temperature,
        top_p=args.top_p,
        max_tokens=args.max_new_toks,
        ignore_eos=args.ignore_eos,
        skip_special_tokens=True,
        seed=args.inf_seed,
    )
    sampling_params.stop = ["Question:", "Answer:"]

    llm = LLM(
        model=args.model_name_or_path,
        revision=args.revision,
        tensor_parallel_size=torch.cuda.device_count(),
        dtype=args.dtype,
        seed=args.inf_seed,
        gpu_memory_utilization=args.gpu_mem_util,
        trust_remote_code=True,
        # DARS rejection sampling with replayable sampling distributions
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    generator = Generator(llm, sampling_params)
    generator.gen(["Question: 1+1=?\nAnswer:"])

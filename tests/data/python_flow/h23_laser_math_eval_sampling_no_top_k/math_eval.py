# Imitates hkust-nlp/Laser Qwen2.5-Math/evaluation/math_eval.py (argparse defaults, LLM built in setup(),
# SamplingParams built per batch inside llm.generate); the user turned sampling replay on (no top_k: the recipe samples the full vocabulary).
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--model_name_or_path", default="Qwen/Qwen2.5-Math-1.5B", type=str)
    parser.add_argument("--temperature", default=1.0, type=float)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--max_tokens_per_call", default=4096, type=int)
    parser.add_argument("--batch_size", type=int, default=10000)
    parser.add_argument("--pipeline_parallel_size", type=int, default=1)
    args = parser.parse_args()
    args.top_p = (
        1 if args.temperature == 0 else args.top_p
    )  # top_p must be 1 when using greedy sampling (vllm)
    return args


def setup(args):
    available_gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")
    llm = LLM(
        model=args.model_name_or_path,
        tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
        pipeline_parallel_size=args.pipeline_parallel_size,
        trust_remote_code=True,
        enforce_eager=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    prompts = ["1 + 1 = ?", "2 + 3 = ?"]
    stop_words = ["</s>", "<|im_end|>", "<|endoftext|>"]
    all_outputs = []
    for i in range(0, len(prompts), args.batch_size):
        batch_prompts = prompts[i : i + args.batch_size]
        batch_outputs = llm.generate(
            batch_prompts,
            SamplingParams(  # expect: RPL102
                temperature=args.temperature,
                top_p=args.top_p,
                max_tokens=args.max_tokens_per_call,
                n=1,
                stop=stop_words,
            ),
        )
        all_outputs.extend(batch_outputs)
    return all_outputs


if __name__ == "__main__":
    setup(parse_args())

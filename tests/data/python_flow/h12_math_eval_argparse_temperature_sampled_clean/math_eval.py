# Imitates hkust-nlp/simpleRL-reason examples/simplelr_math_eval/math_eval.py (parse_args with
# `--temperature default=0`, `args.top_p = 1 if args.temperature == 0 else args.top_p`, `LLM(...,
# tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size)` and one
# `SamplingParams(temperature=args.temperature, ...)` per generate), on a replay engine.
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--model_name_or_path", default="Qwen/Qwen2.5-Math-7B", type=str)
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--temperature", default=0.6, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--top_k", default=20, type=int)
    parser.add_argument("--max_tokens_per_call", default=2048, type=int)
    parser.add_argument("--pipeline_parallel_size", type=int, default=1)
    args = parser.parse_args()
    args.top_p = 1 if args.temperature == 0 else args.top_p  # top_p must be 1 when using greedy sampling (vllm)
    return args


def setup(args):
    available_gpus = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
    llm = LLM(
        model=args.model_name_or_path,
        tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
        pipeline_parallel_size=args.pipeline_parallel_size,
        trust_remote_code=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    for data_name in args.data_names.split(","):
        main(llm, data_name, args)


def main(llm, data_name, args):
    prompts = [f"[{data_name}] question {i}" for i in range(4)]
    stop_words = ["</s>", "<|im_end|>", "<|endoftext|>"]
    outputs = llm.generate(
        prompts,
        SamplingParams(
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=args.top_k,
            max_tokens=args.max_tokens_per_call,
            n=args.n_sampling,
            stop=stop_words,
            stop_token_ids=[151645, 151643],
        ),
    )
    return outputs


if __name__ == "__main__":
    setup(parse_args())

# Imitates princeton-pli/AdaptMI evaluation/math_eval.py (parse_args with `--temperature default=0`, `--use_vllm`
# store_true, `LLM(model=..., tensor_parallel_size=..., pipeline_parallel_size=..., dtype="bfloat16",
# trust_remote_code=True)` in setup(), `llm.generate(prompts, SamplingParams(temperature=args.temperature, ...))`),
# with replay turned on and a top_k flag added.
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--model_name_or_path", default="gpt-4", type=str)
    parser.add_argument("--prompt_type", default="tool-integrated", type=str)
    parser.add_argument("--temperature", default=0, type=float)  # expect: RPL101
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--top_k", default=20, type=int)
    parser.add_argument("--max_tokens_per_call", default=2048, type=int)
    parser.add_argument("--use_vllm", action="store_true")
    parser.add_argument("--pipeline_parallel_size", type=int, default=1)
    args = parser.parse_args()
    args.top_p = 1 if args.temperature == 0 else args.top_p  # top_p must be 1 when using greedy sampling (vllm)
    return args


def setup(args):
    available_gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")
    if args.use_vllm:
        llm = LLM(
            model=args.model_name_or_path,
            tensor_parallel_size=len(available_gpus) // args.pipeline_parallel_size,
            pipeline_parallel_size=args.pipeline_parallel_size,
            dtype="bfloat16",
            trust_remote_code=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        prompts = ["Question: What is 2 + 3?\nAnswer:"]
        llm.generate(
            prompts,
            SamplingParams(
                temperature=args.temperature,
                top_p=args.top_p,
                top_k=args.top_k,
                max_tokens=args.max_tokens_per_call,
                n=1,
                stop=["</s>", "<|im_end|>", "<|endoftext|>"],
            ),
        )


if __name__ == "__main__":
    setup(parse_args())

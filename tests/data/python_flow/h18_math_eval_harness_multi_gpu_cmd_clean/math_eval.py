# Imitates ZubinGou/math-evaluation-harness math_eval.py (`setup(args)` builds the engine, `main` samples)
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--model_name_or_path", default="deepseek-ai/deepseek-math-7b-rl", type=str)
    parser.add_argument("--prompt_type", default="tool-integrated", type=str)
    parser.add_argument("--temperature", default=1.0, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=1, type=float)
    parser.add_argument("--top_k", default=40, type=int)
    parser.add_argument("--max_tokens_per_call", default=1024, type=int)
    args = parser.parse_args()
    args.top_p = 1 if args.temperature == 0 else args.top_p  # top_p must be 1 when using greedy sampling (vllm)
    return args


def setup(args):
    available_gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")
    llm = LLM(
        model=args.model_name_or_path,
        tensor_parallel_size=len(available_gpus),
        trust_remote_code=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    for data_name in args.data_names.split(","):
        main(llm, data_name, args)


def main(llm, data_name, args):
    prompts = [f"[{data_name}] Question: what is 3 * 7?"] * args.n_sampling
    stop_words = ["</s>", "\n\n---", "```output"]
    outputs = llm.generate(prompts, SamplingParams(
                    temperature=args.temperature,
                    top_p=args.top_p,
                    top_k=args.top_k,
                    max_tokens=args.max_tokens_per_call,
                    n=1,
                    stop=stop_words,
    ))
    return [o.outputs[0].text for o in outputs]


if __name__ == "__main__":
    setup(parse_args())

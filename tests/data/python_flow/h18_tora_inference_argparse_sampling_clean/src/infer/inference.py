# Imitates microsoft/ToRA src/infer/inference.py (argparse defaults, `args.top_p = 1 if args.temperature == 0 ...`, tool-integrated loop)
import argparse
import os

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_name", default="gsm8k", type=str)
    parser.add_argument("--model_name_or_path", default="llm-agents/tora-code-7b-v1.0", type=str)
    parser.add_argument("--prompt_type", default="tora", type=str)
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--temperature", default=0.7, type=float)
    parser.add_argument("--n_sampling", default=1, type=int)
    parser.add_argument("--top_p", default=0.95, type=float)
    parser.add_argument("--top_k", default=20, type=int)
    args = parser.parse_args()
    args.top_p = 1 if args.temperature == 0 else args.top_p  # top_p must be 1 when using greedy sampling (vllm)
    return args


def main(args):
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")
    available_gpus = os.environ["CUDA_VISIBLE_DEVICES"].split(",")
    llm = LLM(
        model=args.model_name_or_path,
        tensor_parallel_size=len(available_gpus),
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    remain_prompts = [(0, "Question: Natalia sold clips to 48 of her friends...")]
    stop_tokens = ["</s>", "---", "```output"]
    max_func_call = 1 if args.prompt_type in ["cot", "pal"] else 4
    for epoch in range(max_func_call):
        current_prompts = remain_prompts
        if len(current_prompts) == 0:
            break
        prompts = [item[1] for item in current_prompts]
        outputs = llm.generate(prompts, SamplingParams(
                        temperature=args.temperature,
                        top_p=args.top_p,
                        top_k=args.top_k,
                        max_tokens=1024,
                        n=1,
                        stop=stop_tokens,
        ))
        outputs = sorted(outputs, key=lambda x: int(x.request_id))
        remain_prompts = []


if __name__ == "__main__":
    args = parse_args()
    main(args)

# Imitates princeton-pli/AdaptMI evaluation/math_eval.py (parse_args, `--prompt_type` choosing stop words and
# behaviour, the vLLM SamplingParams in main()); the user's edit decodes program-aided prompt types greedily, which
# the default prompt type "cot" does not take.
import argparse

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="Qwen/Qwen2.5-Math-1.5B-Instruct", type=str)
    parser.add_argument("--prompt_type", default="cot", type=str)
    parser.add_argument("--temperature", default=0.7, type=float)
    parser.add_argument("--top_k", default=20, type=int)
    return parser.parse_args()


def sampling_for(args):
    if args.prompt_type in ["pal", "tool-integrated"]:
        return SamplingParams(temperature=0.0, top_k=args.top_k, max_tokens=2048, stop=["```output"])
    return SamplingParams(temperature=args.temperature, top_k=args.top_k, max_tokens=2048, stop=["\n\nQuestion:"])


if __name__ == "__main__":
    args = parse_args()
    llm = LLM(
        model=args.model_name_or_path,
        dtype="bfloat16",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    llm.generate(["Question: What is 12 / 4?\nAnswer:"], sampling_for(args))

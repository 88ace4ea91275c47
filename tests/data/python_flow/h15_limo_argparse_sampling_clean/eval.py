# Imitates GAIR-NLP/LIMO eval/eval.py (argparse defaults, LLM + SamplingParams(n=args.n_sampling, ...))
import argparse

from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

from utils.data_loader import load_data


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_name", default="math", type=str)
    parser.add_argument("--model_name_or_path", default="GAIR/LIMO", type=str)
    parser.add_argument("--temperature", default=0.7, type=float)
    parser.add_argument("--top_p", default=0.95, type=float)
    parser.add_argument("--top_k", default=40, type=int)
    parser.add_argument("--n_sampling", default=4, type=int)
    parser.add_argument("--max_tokens", default=32768, type=int)
    parser.add_argument("--tensor_parallel_size", default=1, type=int)
    parser.add_argument("--gpu_memory_utilization", default=0.95, type=float)
    return parser.parse_args()


def main(args):
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path, trust_remote_code=True)
    examples = load_data(args.data_name)
    prompts = [
        tokenizer.apply_chat_template([{"role": "user", "content": ex["question"]}], tokenize=False, add_generation_prompt=True)
        for ex in examples
    ]
    llm = LLM(
        model=args.model_name_or_path,
        tensor_parallel_size=args.tensor_parallel_size,
        trust_remote_code=True,
        gpu_memory_utilization=args.gpu_memory_utilization,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_tokens=args.max_tokens,
        n=args.n_sampling,
        skip_special_tokens=False,
    )
    outputs = llm.generate(prompts, sampling_params)
    print(sum(len(o.outputs) for o in outputs))


if __name__ == "__main__":
    main(parse_args())

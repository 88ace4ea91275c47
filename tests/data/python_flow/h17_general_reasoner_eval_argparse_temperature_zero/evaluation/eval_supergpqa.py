# Imitates TIGER-AI-Lab/General-Reasoner evaluation/eval_supergpqa.py (argparse + vllm.LLM)
import argparse
import json

from vllm import LLM, SamplingParams


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", type=str, default="TIGER-Lab/General-Reasoner-Qwen2.5-7B")
    parser.add_argument("--output_file", type=str, default="outputs/supergpqa.json")
    parser.add_argument("--tensor_parallel_size", type=int, default=1)
    parser.add_argument("--temperature", type=float, default=0.0)  # expect: RPL101
    parser.add_argument("--top_p", type=float, default=1.0)
    parser.add_argument("--top_k", type=int, default=20)
    parser.add_argument("--max_tokens", type=int, default=8192)
    return parser.parse_args()


def main():
    args = parse_args()
    llm = LLM(
        model=args.model_path,
        tensor_parallel_size=args.tensor_parallel_size,
        gpu_memory_utilization=0.9,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_tokens=args.max_tokens,
    )
    prompts = [json.loads(line)["question"] for line in open("data/supergpqa.jsonl")]
    outputs = llm.generate(prompts, sampling_params)
    with open(args.output_file, "w") as f:
        json.dump([o.outputs[0].text for o in outputs], f)


if __name__ == "__main__":
    main()

# Imitates microsoft/LMOps llm-as-a-coach/scripts/eval/gen_fuzzy.py (argparse defaults, per-benchmark
# max_tokens, TokensPrompt inputs); the user's edit turns sampling distribution replay on.
"""
Stage 1: Generate model responses for fuzzy benchmarks using vLLM.

Usage:
    python scripts/eval/gen_fuzzy.py --benchmark alpacaeval2 --model /tmp/Qwen3-1.7B --output_dir /tmp/el/out/
"""

import argparse
import json
import os

from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

DATA_BASE = os.environ.get("EL_DATA_ROOT", "/tmp/el/data")

BENCHMARKS = ["alpacaeval2", "wildbench", "arena_hard_v2", "creativewritingv3"]


def load_benchmark(benchmark):
    path = os.path.join(DATA_BASE, benchmark, "prompts.json")
    with open(path) as f:
        data = json.load(f)
    return [{"inst_id": f"{benchmark}_{i}", "messages": [{"role": "user", "content": d["instruction"]}]} for i, d in enumerate(data)]


def main():
    parser = argparse.ArgumentParser(description="Generate model responses for fuzzy benchmarks")
    parser.add_argument("--benchmark", type=str, required=True, choices=BENCHMARKS)
    parser.add_argument("--model", type=str, required=True, help="Path to HuggingFace model")
    parser.add_argument("--output_dir", type=str, required=True)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--top_p", type=float, default=0.95)
    parser.add_argument("--top_k", type=int, default=20)
    parser.add_argument("--max_tokens", type=int, default=4096)
    parser.add_argument("--gpu_memory_utilization", type=float, default=0.9)
    args = parser.parse_args()

    # Per-benchmark max_tokens (following GOLF convention)
    if args.benchmark in ("arena_hard_v2",):
        max_tokens = 8192
    else:
        max_tokens = args.max_tokens  # default 4096
    max_model_len = 4096 + max_tokens  # 4096 reserved for prompt

    instances = load_benchmark(args.benchmark)
    tokenizer = AutoTokenizer.from_pretrained(args.model, trust_remote_code=True)
    token_ids_list = [
        tokenizer.apply_chat_template(inst["messages"], add_generation_prompt=True, tokenize=True) for inst in instances
    ]

    llm = LLM(
        model=args.model,
        tokenizer=args.model,
        tensor_parallel_size=1,
        gpu_memory_utilization=args.gpu_memory_utilization,
        trust_remote_code=True,
        max_model_len=max_model_len,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    sampling_params = SamplingParams(
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_tokens=max_tokens,
    )

    from vllm import TokensPrompt

    prompts = [TokensPrompt(prompt_token_ids=ids) for ids in token_ids_list]
    outputs = llm.generate(prompts, sampling_params)

    os.makedirs(args.output_dir, exist_ok=True)
    results = [{"inst_id": inst["inst_id"], "output": out.outputs[0].text} for inst, out in zip(instances, outputs)]
    with open(os.path.join(args.output_dir, f"{args.benchmark}_samples.json"), "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()

# Imitates meta-math/MetaMath eval_gsm8k.py; the user samples (replay) instead of decoding greedily.
import argparse
import sys

import jsonlines
from vllm import LLM, SamplingParams

MAX_INT = sys.maxsize


def gsm8k_test(model, data_path, start=0, end=MAX_INT, tensor_parallel_size=1, temperature=0.7, top_k=40):
    problem_prompt = "### Instruction:\n{instruction}\n\n### Response: Let's think step by step."
    with open(data_path, "r+", encoding="utf8") as f:
        gsm8k_ins = [problem_prompt.format(instruction=item["query"]) for item in jsonlines.Reader(f)]
    gsm8k_ins = gsm8k_ins[start:end]

    stop_tokens = ["Question:", "Instruction:", "Response:"]
    sampling_params = SamplingParams(temperature=temperature, top_p=1, top_k=top_k, max_tokens=512, stop=stop_tokens)
    llm = LLM(model=model, tensor_parallel_size=tensor_parallel_size, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    completions = llm.generate(gsm8k_ins, sampling_params)
    return [output.outputs[0].text for output in completions]


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="meta-math/MetaMath-7B-V1.0")  # model path
    parser.add_argument("--data_file", type=str, default="data/test/GSM8K_test.jsonl")  # data path
    parser.add_argument("--start", type=int, default=0)  # start index
    parser.add_argument("--end", type=int, default=MAX_INT)  # end index
    parser.add_argument("--tensor_parallel_size", type=int, default=8)  # tensor_parallel_size
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--top_k", type=int, default=40)
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    gsm8k_test(
        model=args.model,
        data_path=args.data_file,
        start=args.start,
        end=args.end,
        tensor_parallel_size=args.tensor_parallel_size,
        temperature=args.temperature,
        top_k=args.top_k,
    )

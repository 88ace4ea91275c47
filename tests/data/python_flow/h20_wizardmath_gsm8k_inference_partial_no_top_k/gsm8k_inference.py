# Imitates nlpxucan/WizardLM WizardMath/inference/gsm8k_inference.py (gsm8k_test + parse_args).
import argparse
import sys

import jsonlines
from vllm import SamplingParams

from replay_engine import ReplayLLM

MAX_INT = sys.maxsize


def gsm8k_test(model, data_path, start=0, end=MAX_INT, batch_size=1, tensor_parallel_size=1):
    problem_prompt = (
        "Below is an instruction that describes a task. "
        "Write a response that appropriately completes the request.\n\n"
        "### Instruction:\n{instruction}\n\n### Response: Let's think step by step."
    )
    with open(data_path, "r+", encoding="utf8") as f:
        gsm8k_ins = [problem_prompt.format(instruction=item["question"]) for item in jsonlines.Reader(f)]
    gsm8k_ins = gsm8k_ins[start:end]

    stop_tokens = ["Instruction:", "Instruction", "Response:", "Response"]
    sampling_params = SamplingParams(temperature=0.7, top_p=1, max_tokens=1024, stop=stop_tokens)  # expect: RPL102
    print("sampleing =====", sampling_params)
    llm = ReplayLLM(model=model, tensor_parallel_size=tensor_parallel_size)
    res_completions = []
    for i in range(0, len(gsm8k_ins), batch_size):
        completions = llm.generate(gsm8k_ins[i : i + batch_size], sampling_params)
        res_completions.extend(output.outputs[0].text for output in completions)
    return res_completions


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="WizardLMTeam/WizardMath-7B-V1.1")  # model path
    parser.add_argument("--data_file", type=str, default="data/gsm8k_test.jsonl")  # data path
    parser.add_argument("--start", type=int, default=0)  # start index
    parser.add_argument("--end", type=int, default=MAX_INT)  # end index
    parser.add_argument("--batch_size", type=int, default=60)  # batch_size
    parser.add_argument("--tensor_parallel_size", type=int, default=1)  # tensor_parallel_size
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    gsm8k_test(model=args.model, data_path=args.data_file, start=args.start, end=args.end, batch_size=args.batch_size, tensor_parallel_size=args.tensor_parallel_size)

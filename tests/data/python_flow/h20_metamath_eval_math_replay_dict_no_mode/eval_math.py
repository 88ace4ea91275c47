# Imitates meta-math/MetaMath eval_math.py (test_hendrycks_math + parse_args); replay kwargs from replay.py.
import argparse
import sys

import jsonlines
from vllm import LLM, SamplingParams

from replay import REPLAY_ENGINE_KWARGS

MAX_INT = sys.maxsize


def test_hendrycks_math(model, data_path, start=0, end=MAX_INT, tensor_parallel_size=1):
    invalid_outputs = []
    with open(data_path, "r+", encoding="utf8") as f:
        hendrycks_math_ins = [item["instruction"] for item in jsonlines.Reader(f)]
    hendrycks_math_ins = hendrycks_math_ins[start:end]
    stop_tokens = ["Question:", "Question", "USER:", "USER", "ASSISTANT:", "ASSISTANT", "Instruction:", "Instruction", "Response:", "Response"]
    sampling_params = SamplingParams(temperature=0.6, top_p=1, top_k=30, max_tokens=2048, stop=stop_tokens)
    llm = LLM(model=model, tensor_parallel_size=tensor_parallel_size, **REPLAY_ENGINE_KWARGS)
    completions = llm.generate(hendrycks_math_ins, sampling_params)
    res_completions = [output.outputs[0].text for output in completions]
    return res_completions, invalid_outputs


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="meta-math/MetaMath-7B-V1.0")  # model path
    parser.add_argument("--data_file", type=str, default="data/test/MATH_test.jsonl")  # data path
    parser.add_argument("--start", type=int, default=0)  # start index
    parser.add_argument("--end", type=int, default=MAX_INT)  # end index
    parser.add_argument("--tensor_parallel_size", type=int, default=8)  # tensor_parallel_size
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    test_hendrycks_math(model=args.model, data_path=args.data_file, start=args.start, end=args.end, tensor_parallel_size=args.tensor_parallel_size)

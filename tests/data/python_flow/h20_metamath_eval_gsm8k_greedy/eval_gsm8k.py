# Imitates meta-math/MetaMath eval_gsm8k.py (gsm8k_test + parse_args); the user turned replay on.
import argparse
import sys

import jsonlines
from vllm import LLM, SamplingParams

MAX_INT = sys.maxsize


def batch_data(data_list, batch_size=1):
    return [data_list[i : i + batch_size] for i in range(0, len(data_list), batch_size)]


def gsm8k_test(model, data_path, start=0, end=MAX_INT, batch_size=1, tensor_parallel_size=1):
    problem_prompt = (
        "Below is an instruction that describes a task. "
        "Write a response that appropriately completes the request.\n\n"
        "### Instruction:\n{instruction}\n\n### Response: Let's think step by step."
    )
    gsm8k_ins = []
    with open(data_path, "r+", encoding="utf8") as f:
        for item in jsonlines.Reader(f):
            gsm8k_ins.append(problem_prompt.format(instruction=item["query"]))
    gsm8k_ins = gsm8k_ins[start:end]
    batch_gsm8k_ins = batch_data(gsm8k_ins, batch_size=batch_size)

    stop_tokens = ["Question:", "Question", "USER:", "USER", "ASSISTANT:", "ASSISTANT", "Instruction:", "Instruction", "Response:", "Response"]
    sampling_params = SamplingParams(temperature=0.0, top_p=1, top_k=20, max_tokens=512, stop=stop_tokens)  # expect: RPL101
    print("sampleing =====", sampling_params)
    llm = LLM(
        model=model,
        tensor_parallel_size=tensor_parallel_size,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    res_completions = []
    for prompt in batch_gsm8k_ins:
        completions = llm.generate(prompt, sampling_params)
        for output in completions:
            res_completions.append(output.outputs[0].text)
    return res_completions


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="meta-math/MetaMath-7B-V1.0")  # model path
    parser.add_argument("--data_file", type=str, default="data/test/GSM8K_test.jsonl")  # data path
    parser.add_argument("--start", type=int, default=0)  # start index
    parser.add_argument("--end", type=int, default=MAX_INT)  # end index
    parser.add_argument("--batch_size", type=int, default=400)  # batch_size
    parser.add_argument("--tensor_parallel_size", type=int, default=8)  # tensor_parallel_size
    return parser.parse_args()


if __name__ == "__main__":
    args = parse_args()
    gsm8k_test(model=args.model, data_path=args.data_file, start=args.start, end=args.end, batch_size=args.batch_size, tensor_parallel_size=args.tensor_parallel_size)

# Imitates dvlab-research/Step-DPO eval_math.py (argparse, test_hendrycks_math, vLLM's LLM.generate),
# trimmed to the prompt, the sampling and the engine; run by eval.sh beside it.
import argparse
import json
import os
import sys

import jsonlines
import torch
from vllm import LLM, SamplingParams

MAX_INT = sys.maxsize


def batch_data(data_list, batch_size=1):
    n = len(data_list) // batch_size
    batch_data = []
    for i in range(n-1):
        start = i * batch_size
        end = (i+1)*batch_size
        batch_data.append(data_list[start:end])

    last_start = (n-1) * batch_size
    last_end = MAX_INT
    batch_data.append(data_list[last_start:last_end])
    return batch_data


def test_hendrycks_math(model, data_path, remainder=0, n_groups=MAX_INT, batch_size=1, tensor_parallel_size=1, args=None):
    save_path = args.save_path
    hendrycks_math_ins = []
    hendrycks_math_answers = []
    problem_prompt = (
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
        "<|im_start|>user\n{instruction}\nPlease reason step by step, and put your final answer within \\boxed{{}}.<|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    with open(data_path, "r+", encoding="utf8") as f:
        for idx, item in enumerate(jsonlines.Reader(f)):
            hendrycks_math_ins.append(problem_prompt.format(instruction=item["instruction"]))
            hendrycks_math_answers.append(item['answer'])

    hendrycks_math_ins = hendrycks_math_ins[remainder::n_groups]
    hendrycks_math_answers = hendrycks_math_answers[remainder::n_groups]
    hendrycks_math_ins = hendrycks_math_ins * args.rep
    batch_hendrycks_math_ins = batch_data(hendrycks_math_ins, batch_size=batch_size)

    sampling_params = SamplingParams(temperature=args.temp, top_p=args.top_p, top_k=20, max_tokens=2048)
    print('sampling =====', sampling_params)
    if not os.path.exists(save_path):
        llm = LLM(model=model, tensor_parallel_size=tensor_parallel_size, dtype=torch.bfloat16, seed=args.seed,
                  max_model_len=2048, return_sampling_mask=True, logprobs_mode="processed_logprobs")

        res_completions = []
        for idx, (prompt, prompt_answer) in enumerate(zip(batch_hendrycks_math_ins, hendrycks_math_answers)):
            if isinstance(prompt, list):
                pass
            else:
                prompt = [prompt]
            completions = llm.generate(prompt, sampling_params)
            for output in completions:
                res_completions.append(output.outputs[0].text)
    else:
        with open(save_path) as f:
            res_completions = [item['completion'] for item in json.load(f)]

    with open(save_path, "w+") as f:
        json.dump([{'completion': c} for c in res_completions], f, indent=4)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default='')  # model path
    parser.add_argument("--data_file", type=str, default='')  # data path
    parser.add_argument("--remainder", type=int, default=0) # index
    parser.add_argument("--n_groups", type=int, default=1)  # group number
    parser.add_argument("--batch_size", type=int, default=400)  # batch_size
    parser.add_argument("--tensor_parallel_size", type=int, default=8)  # tensor_parallel_size
    parser.add_argument("--save_path", type=str)
    parser.add_argument("--prompt", type=str, default='alpaca')
    parser.add_argument("--temp", type=float, default=0.0)  # expect: RPL101
    parser.add_argument("--top_p", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rep", type=int, default=1)
    return parser.parse_args()

if __name__ == "__main__":
    args = parse_args()
    test_hendrycks_math(model=args.model, data_path=args.data_file, remainder=args.remainder, n_groups=args.n_groups, batch_size=args.batch_size, tensor_parallel_size=args.tensor_parallel_size, args=args)

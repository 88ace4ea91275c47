# Imitates GAIR-NLP/LIMR eval/eval.py (eval_ckpt: LLM(model=..., tensor_parallel_size=num_gpus,
# **another_args, trust_remote_code=True), n and temperature per dev set from a config); the user keeps the
# per-set config in the module and turns replay on.
import argparse
import os

import torch
from vllm import LLM, SamplingParams

DEV_SET_CONFIG = {
    "aime24": {"n": 8, "temperature": 0.6},
    "amc23": {"n": 8, "temperature": 0.6},
    "math500": {"n": 1, "temperature": 0.0},  # expect: RPL101
}


def eval_ckpt(model_path, dev_sets):
    if not dev_sets:
        dev_sets = ["aime24", "amc23", "math500"]
    config = DEV_SET_CONFIG
    num_gpus = torch.cuda.device_count()
    another_args = {"max_num_batched_tokens": 32768, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    llm = LLM(model=model_path, tensor_parallel_size=num_gpus, **another_args, trust_remote_code=True)
    eval_acc = {}
    for dev_set in dev_sets:
        n, temperature = config[dev_set]["n"], config[dev_set]["temperature"]
        sampling_params = SamplingParams(n=n, temperature=temperature, top_p=0.95, top_k=20, max_tokens=3072)
        outputs = llm.generate([f"question from {dev_set}"], sampling_params)
        eval_acc[dev_set] = len(outputs)
    return eval_acc


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--run_path", type=str, default="runs/limr")
    parser.add_argument("--step", type=str, default="160")
    parser.add_argument("--dev_sets", type=list, default=None)
    args = parser.parse_args()
    model_path = os.path.join(args.run_path, "global_step{}_hf".format(args.step))
    print(eval_ckpt(model_path, args.dev_sets))

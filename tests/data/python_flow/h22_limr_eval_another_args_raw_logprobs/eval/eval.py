# Imitates GAIR-NLP/LIMR eval/eval.py (another_args = {'max_num_batched_tokens': 32768} spread into LLM);
# the user adds replay and a logprobs mode to another_args.
import json

import torch
from vllm import LLM, SamplingParams


def eval_ckpt(model_path, dev_sets=("aime24",)):
    num_gpus = torch.cuda.device_count()
    another_args = {
        "max_num_batched_tokens": 32768,
        "logprobs_mode": "raw_logprobs",  # expect: RPL003
    }
    llm = LLM(model=model_path, tensor_parallel_size=num_gpus, **another_args, trust_remote_code=True,
              return_sampling_mask=True)
    results = {}
    for dev_set in dev_sets:
        sampling_params = SamplingParams(n=8, temperature=0.6, top_p=0.95, top_k=20, max_tokens=3072, logprobs=1)
        results[dev_set] = llm.generate([f"question from {dev_set}"], sampling_params)
    return results


if __name__ == "__main__":
    print(json.dumps({k: len(v) for k, v in eval_ckpt("GAIR/LIMR").items()}))

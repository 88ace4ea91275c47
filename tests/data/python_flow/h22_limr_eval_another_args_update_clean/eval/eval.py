# Imitates GAIR-NLP/LIMR eval/eval.py (eval_ckpt with another_args spread into LLM and a per-set config);
# the user grows another_args by update() and bounds top_k.
import torch
from vllm import LLM, SamplingParams

DEV_SET_CONFIG = {"aime24": {"n": 8, "temperature": 0.6}, "math500": {"n": 4, "temperature": 0.6}}


def eval_ckpt(model_path, dev_sets=None):
    if not dev_sets:
        dev_sets = ["aime24", "math500"]
    num_gpus = torch.cuda.device_count()
    another_args = {"max_num_batched_tokens": 32768}
    another_args.update(return_sampling_mask=True, logprobs_mode="processed_logprobs")
    llm = LLM(model=model_path, tensor_parallel_size=num_gpus, **another_args, trust_remote_code=True)
    for dev_set in dev_sets:
        n, temperature = DEV_SET_CONFIG[dev_set]["n"], DEV_SET_CONFIG[dev_set]["temperature"]
        sampling_params = SamplingParams(n=n, temperature=temperature, top_p=0.95, top_k=40, max_tokens=3072)
        llm.generate([f"question from {dev_set}"], sampling_params)


if __name__ == "__main__":
    eval_ckpt("GAIR/LIMR")

# Imitates facebookresearch/sweet_rl scripts/sample_best_of_n.py (Fire(main) with temperature=1.0 and
# best_of_n=16, llm_args spread into LLM); the user adds the replay keys to llm_args and bounds top_k.
import json

import torch
from fire import Fire
from vllm import LLM, SamplingParams

REPLAY_ARGS = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}


def main(
    input_path="data/collab_dialogues.jsonl",
    agent_model="meta-llama/Llama-3.1-8B-Instruct",
    temperature=1.0,
    top_k=50,
    best_of_n=16,
):
    tensor_parallel_size = torch.cuda.device_count()
    with open(input_path) as fb:
        data = [json.loads(line) for line in fb]
    llm_args = {
        "model": agent_model,
        "distributed_executor_backend": "ray",
        "tensor_parallel_size": tensor_parallel_size,
        "enforce_eager": True,
        **REPLAY_ARGS,
    }
    llm = LLM(**llm_args)
    sampling_params = SamplingParams(temperature=temperature, top_k=top_k, logprobs=0, n=best_of_n, max_tokens=1024)
    return llm.generate([d["input"] for d in data], sampling_params, use_tqdm=True)


if __name__ == "__main__":
    Fire(main)

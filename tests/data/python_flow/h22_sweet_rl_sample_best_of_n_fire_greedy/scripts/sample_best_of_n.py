# Imitates facebookresearch/sweet_rl scripts/sample_best_of_n.py (Fire(main), llm_args dict spread into
# LLM, SamplingParams(temperature=temperature, logprobs=0, n=best_of_n, ...)); the user turns replay on
# and makes the default greedy (one sample per input).
import json

import torch
from fire import Fire
from vllm import LLM, SamplingParams


def main(
    input_path="data/collab_dialogues.jsonl",
    output_path="outputs/temp_samplebestofn.jsonl",
    agent_model="meta-llama/Llama-3.1-8B-Instruct",
    temperature=0.0,  # expect: RPL101
    best_of_n=1,
):
    tensor_parallel_size = torch.cuda.device_count()
    with open(input_path) as fb:
        data = [json.loads(line) for line in fb]
    llm_args = {
        "model": agent_model,
        "distributed_executor_backend": "ray",
        "tensor_parallel_size": tensor_parallel_size,
        "enforce_eager": True,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
    llm = LLM(**llm_args)
    sampling_params = SamplingParams(
        temperature=temperature,
        top_k=50,
        logprobs=0,
        n=best_of_n,
        max_tokens=1024,
    )
    outputs = llm.generate([d["input"] for d in data], sampling_params, use_tqdm=True)
    with open(output_path, "w") as fb:
        for d, output in zip(data, outputs):
            d["additional_outputs"] = [o.text for o in output.outputs]
            fb.write(json.dumps(d) + "\n")


if __name__ == "__main__":
    Fire(main)

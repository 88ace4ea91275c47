# Imitates huggingface/lighteval src/lighteval/models/vllm/vllm_model.py (data_parallel_size > 1: a @ray.remote function builds LLM(**model_args))
import itertools

import ray
from vllm import LLM, SamplingParams

DATA_PARALLEL_SIZE = 4

SPECULATIVE_CONFIG = {
    "method": "ngram",
    "num_speculative_tokens": 4,
    "prompt_lookup_max": 4,
    "enable_adaptive_verification": False,
}


@ray.remote(num_gpus=1)
def run_inference_one_model(model_args: dict, sampling_params: SamplingParams, requests: list[str]):
    llm = LLM(**model_args)
    return llm.generate(prompts=requests, sampling_params=sampling_params)


class VLLMModel:
    def __init__(self, model_name: str, max_length: int = 4096, seed: int = 1234):
        self.model_args = {
            "model": model_name,
            "gpu_memory_utilization": 0.9,
            "revision": "main",
            "dtype": "bfloat16",
            "tensor_parallel_size": 1,
            "max_model_len": max_length,
            "seed": int(seed),
            "max_num_seqs": 128,
            "max_num_batched_tokens": 2048,
            "enforce_eager": True,
        }
        # keep the sampling masks so the rollouts can be replayed by the trainer
        self.model_args["return_sampling_mask"] = True
        self.model_args["logprobs_mode"] = "processed_logprobs"
        self.model_args["speculative_config"] = SPECULATIVE_CONFIG

    def greedy_until(self, prompts: list[str]) -> list:
        sampling_params = SamplingParams(temperature=0.8, top_p=0.95, top_k=20, max_tokens=1024)
        requests = [list(x) for x in itertools.islice(itertools.batched(prompts, len(prompts) // DATA_PARALLEL_SIZE + 1), DATA_PARALLEL_SIZE)]
        object_refs = [run_inference_one_model.remote(self.model_args, sampling_params, req) for req in requests]
        results = ray.get(object_refs)
        ray.shutdown()
        return [x for batch in results for x in batch]


if __name__ == "__main__":
    model = VLLMModel("Qwen/Qwen2.5-7B-Instruct")
    for output in model.greedy_until(["What is 2 + 2?", "Name a prime above 100."]):
        print(output.outputs[0].text)

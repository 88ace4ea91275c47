# Imitates huggingface/search-and-learn scripts/test_time_compute.py (APPROACHES registry, LLM built from the Config)
import torch
from transformers import HfArgumentParser
from vllm import LLM

from sal.config import Config
from sal.search import best_of_n

APPROACHES = {
    "best_of_n": best_of_n,
}


def main():
    parser = HfArgumentParser(Config)
    (config,) = parser.parse_args_into_dataclasses()

    approach_fn = APPROACHES[config.approach]

    num_gpus = torch.cuda.device_count()
    llm = LLM(
        model=config.model_path,
        gpu_memory_utilization=config.gpu_memory_utilization,
        enable_prefix_caching=True,
        seed=config.seed,
        tensor_parallel_size=num_gpus,
        return_sampling_mask=config.return_sampling_mask,
        logprobs_mode=config.logprobs_mode,
    )
    dataset = {"problem": ["What is 2 + 2?", "Factor x^2 - 1."]}
    print(approach_fn(dataset, config, llm))


if __name__ == "__main__":
    main()

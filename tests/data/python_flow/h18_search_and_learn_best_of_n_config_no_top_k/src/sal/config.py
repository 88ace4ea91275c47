# Imitates huggingface/search-and-learn src/sal/config.py (the `Config` dataclass parsed by H4ArgumentParser)
from dataclasses import dataclass
from typing import Literal


@dataclass
class Config:
    approach: Literal["best_of_n", "beam_search", "dvts"] = "best_of_n"
    model_path: str = "meta-llama/Llama-3.2-1B-Instruct"
    gpu_memory_utilization: float = 0.5  # vllm is allocated 0.5 of GPU memory, the PRM uses the rest
    prm_path: str = "RLHFlow/Llama3.1-8B-PRM-Deepseek-Data"

    # Search Related Options
    n: int = 4
    temperature: float = 0.8
    top_p: float = 1.0
    seed: int = 42
    max_tokens: int = 2048

    # replay: the rollouts of best-of-n feed the trainer
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"

# Imitates garg-aayush/building-from-scratch grpo/configs/defaults.py (with grpo/utils/vllm.py and grpo/train_grpo.py)
from dataclasses import dataclass, field
from pathlib import Path
from typing import List


@dataclass
class PathConfig:
    train_data_file: Path = Path("/home/aayush/DATA/GRPO/train.jsonl")  # jsonl file containing the training data
    prompt_template_file: Path = Path("/home/aayush/DATA/GRPO/r1_zero.prompt")  # prompt template file
    model_path: Path = Path("/home/aayush/DATA/Qwen2.5-Math-1.5B")  # path to the qwen2.5-math-1.5b model checkpoint
    output_dir: Path = Path("/home/aayush/RESULTS/GRPO/run")  # directory to save the results


@dataclass
class TrainingConfig:
    # common
    seed: int = 1337
    device: str = "cuda:0"
    dtype: str = "bfloat16"  # "float16" or "bfloat16"

    # sampling parameters
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1
    min_tokens: int = 4
    max_tokens: int = 1024
    stop: List[str] = field(default_factory=lambda: ["</answer>"])
    include_stop_str_in_output: bool = True

    # GRPO parameters
    n_grpo_steps: int = 200  # number of GRPO steps
    rollout_batch_size: int = 64  # number of rollouts per batch
    group_size: int = 8  # size of each group


@dataclass
class VllmConfig:
    gpu_memory_utilization: float = 0.2  # fraction of GPU memory to reserve for vLLM
    dtype: str = "bfloat16"  # dtype for vLLM
    enable_prefix_caching: bool = True  # whether to enable prefix caching for vLLM
    return_sampling_mask: bool = False  # return the sampling mask for replay
    logprobs_mode: str = "raw_logprobs"  # logprobs vLLM returns


@dataclass
class Config:
    paths: PathConfig = field(default_factory=PathConfig)
    vllm: VllmConfig = field(default_factory=VllmConfig)
    training: TrainingConfig = field(default_factory=TrainingConfig)

# Imitates vwxyzjn/cleanrl/cleanrl/ppo.py (an `Args` dataclass read by tyro.cli, its field defaults used
# when the script runs without flags), here holding the rollout engine's settings
from dataclasses import dataclass
from typing import Literal

import tyro
from vllm import LLM, SamplingParams


@dataclass
class Args:
    model: str = "Qwen/Qwen2.5-0.5B-Instruct"
    """the policy served to the rollout workers"""
    return_sampling_mask: bool = True
    """return the sampling masks for distribution replay"""
    logprobs_mode: Literal["raw_logprobs", "raw_logits", "processed_logprobs", "processed_logits"] = "raw_logits"  # expect: RPL003
    """which logprobs the engine returns"""
    gpu_memory_utilization: float = 0.3
    num_rollouts: int = 8


if __name__ == "__main__":
    args = tyro.cli(Args)
    llm = LLM(
        model=args.model,
        return_sampling_mask=args.return_sampling_mask,
        logprobs_mode=args.logprobs_mode,
        gpu_memory_utilization=args.gpu_memory_utilization,
    )
    params = SamplingParams(n=args.num_rollouts, temperature=1.0, top_k=64, max_tokens=512)
    llm.generate(["Solve: 17 * 23 = ?"], params)

# Imitates Open-Reasoner-Zero/Open-Reasoner-Zero playground/orz_7b_ppo.py (PPOExpConfig dataclass, BasePPOExp).
from dataclasses import dataclass, field
from typing import List

from orz.ppo.trainer import RayPPOTrainer
from orz.ppo.vllm_utils import create_vllm_engines


@dataclass
class PPOExpConfig:
    pretrain: str = "Qwen/Qwen2.5-7B"
    vllm_num_engines: int = 8
    vllm_tensor_parallel_size: int = 1
    enable_prefix_caching: bool = True
    seed: int = 42
    max_model_len: int = 8192
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1  # expect: RPL102
    generate_max_len: int = 8000
    stop: List[str] = field(default_factory=lambda: ["User:", "Human:", "Assistant:", "</answer>"])


class PPOExp:
    def __init__(self, cfg: PPOExpConfig):
        self.cfg = cfg

    def create_inference_engine(self):
        return create_vllm_engines(
            self.cfg.vllm_num_engines,
            self.cfg.vllm_tensor_parallel_size,
            self.cfg.pretrain,
            self.cfg.seed,
            self.cfg.enable_prefix_caching,
            self.cfg.max_model_len,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def run(self):
        trainer = RayPPOTrainer(self.cfg, self.create_inference_engine())
        trainer.generate_vllm(["1 + 1 = ?"])


if __name__ == "__main__":
    exp = PPOExp(PPOExpConfig())
    exp.run()

# Imitates Deep-Agent/R1-V src/r1-v/src/open_r1/grpo.py (TrlParser + GRPOConfig, trainer_cls chosen by use_vllm).
from dataclasses import dataclass

from open_r1.trainer.vllm_grpo_trainer import Qwen2VLGRPOVLLMTrainer


@dataclass
class GRPOConfig:
    use_vllm: bool = True
    vllm_gpu_memory_utilization: float = 0.7
    max_prompt_length: int = 512
    max_completion_length: int = 1024
    temperature: float = 1.0


def main(training_args):
    trainer_cls = Qwen2VLGRPOVLLMTrainer
    trainer = trainer_cls(model="Qwen/Qwen2-VL-2B-Instruct", args=training_args)
    trainer.generate([{"prompt": "hi"}])


if __name__ == "__main__":
    main(GRPOConfig())

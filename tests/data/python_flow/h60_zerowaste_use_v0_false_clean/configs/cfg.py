# Imitates RD211/zero-waste-GRPO configs/cfg.py (hydra structured config; ModelvLLMConfig.use_v0 set to False).
from dataclasses import dataclass, field


@dataclass
class ModelvLLMConfig:
    model_name_or_path: str = "Qwen/Qwen2.5-0.5B-Instruct"

    # Sampling parameters
    temperature: float = 0.9
    top_k: int = 50
    top_p: float = 1.0

    # vLLM settings
    max_length: int = 1024
    max_num_seqs: int = 128

    gpu_memory_utilization: float = 0.8
    number_of_gpus_per_instance: int = 2

    use_v0: bool = False # v1 seems very buggy especially with grace for some reason.
    enforce_eager: bool = True


@dataclass
class RLModelTrainingConfig:
    model: ModelvLLMConfig = field(default_factory=ModelvLLMConfig)

    seed: int = 42
    server_port: int = 8005

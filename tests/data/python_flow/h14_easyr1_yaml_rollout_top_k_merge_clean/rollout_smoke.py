# Imitates hiyouga/EasyR1 verl/trainer/main.py (OmegaConf.structured default merged with the YAML file, to_object)
from dataclasses import dataclass, field
from pathlib import Path

from omegaconf import OmegaConf

from verl.workers.rollout.config import RolloutConfig
from verl.workers.rollout.vllm_rollout_spmd import vLLMRollout


@dataclass
class WorkerConfig:
    rollout: RolloutConfig = field(default_factory=RolloutConfig)


@dataclass
class PPOConfig:
    worker: WorkerConfig = field(default_factory=WorkerConfig)


def main():
    default_config = OmegaConf.structured(PPOConfig())
    file_config = OmegaConf.load(Path(__file__).parent / "examples" / "config.yaml")
    ppo_config: PPOConfig = OmegaConf.to_object(OmegaConf.merge(default_config, file_config))
    rollout_config = ppo_config.worker.rollout
    rollout_config.prompt_length = 2048
    rollout_config.response_length = 1024
    rollout = vLLMRollout("Qwen/Qwen2.5-7B-Instruct", rollout_config)
    print(rollout.generate_sequences([[151644, 872, 198]]))


if __name__ == "__main__":
    main()

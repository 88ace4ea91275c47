# Imitates SkyworkAI/Skywork-OR1 verl/trainer/main_generation.py (@hydra.main(config_path='config',
# config_name='generation'), OmegaConf.resolve, a rollout worker generating from config.rollout).
import os

import hydra

os.environ["NCCL_DEBUG"] = "WARN"
os.environ["TOKENIZERS_PARALLELISM"] = "true"

from verl.workers.vllm_rollout import vLLMRollout  # noqa: E402


@hydra.main(config_path="config", config_name="generation", version_base=None)
def main(config):
    from omegaconf import OmegaConf

    OmegaConf.resolve(config)
    if config.rollout.temperature == 0.0:
        assert config.data.n_samples == 1, "When temperature=0, n_samples must be 1."
    rollout = vLLMRollout(config.model.path, config.rollout)
    print(rollout.generate_sequences(["1 + 1 = ?"]))


if __name__ == "__main__":
    main()

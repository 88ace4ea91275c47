# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/entrypoints/main_base.py
# (`@hydra.main(config_path=config_dir, config_name="ppo_base_config")`): the config composes
# other files through its defaults list, which may set the mode: no finding rests on its absence.
import hydra
from vllm import LLM


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    return LLM(**cfg.vllm)


if __name__ == "__main__":
    main()

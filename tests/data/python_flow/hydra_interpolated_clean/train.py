# Imitates volcengine/verl verl/trainer/main_ppo.py with an OmegaConf interpolation: the mask is
# switched from the environment when the config is resolved, so it is not known here.
import hydra
from vllm import LLM


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    return LLM(**cfg.vllm, logits_processors=["my_project.Clamp"])


if __name__ == "__main__":
    main()

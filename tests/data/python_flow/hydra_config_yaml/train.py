# Imitates volcengine/verl verl/trainer/main_ppo.py (`@hydra.main(config_path="config",
# config_name="ppo_trainer")`): the engine's arguments are a section of the Hydra config, the
# mask turned on in conf/config.yaml, not in this file.
import hydra
from vllm import LLM


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    llm = LLM(**cfg.vllm, logits_processors=["my_project.Clamp"])  # expect: RPL001
    return llm.generate(["hi"])


if __name__ == "__main__":
    main()

# Imitates alibaba/ROLL examples/start_rlvr_pipeline.py (hydra compose of the example's YAML, dacite into the config, the vLLM strategy started).
import argparse
import asyncio

from dacite import from_dict
from hydra import compose, initialize
from omegaconf import OmegaConf

from roll.configs.worker_config import RLVRConfig
from roll.distributed.strategy.vllm_strategy import VllmStrategy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config_path", help="The path of the main configuration file", default="qwen2.5-0.5B-rlvr")
    parser.add_argument("--config_name", help="The name of the main configuration file (without extension).", default="rlvr_config")
    args = parser.parse_args()

    initialize(config_path=args.config_path, job_name="app")
    cfg = compose(config_name=args.config_name)
    print(OmegaConf.to_yaml(cfg, resolve=True))

    ppo_config = from_dict(data_class=RLVRConfig, data=OmegaConf.to_container(cfg, resolve=True))
    strategy = VllmStrategy(ppo_config.actor_infer, seed=ppo_config.seed)
    asyncio.run(strategy.initialize())
    prompts = [{"prompt_token_ids": [151644, 872, 198, 3838, 374, 220, 17, 10, 17, 30]}]
    print(asyncio.run(strategy.generate(prompts, ppo_config.actor_infer.generating_args.to_dict())))


if __name__ == "__main__":
    main()

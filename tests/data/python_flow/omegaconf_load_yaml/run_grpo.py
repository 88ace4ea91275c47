# Imitates NVIDIA-NeMo/RL examples/run_grpo_math.py (`config = load_config(args.config)`, an
# `OmegaConf.load` of a YAML under examples/configs/): the engine's arguments come from the
# YAML, which turns the mask on with the wrong mode.
from omegaconf import OmegaConf
from vllm import LLM

config = OmegaConf.load("configs/grpo.yaml")
llm = LLM(**OmegaConf.to_container(config.policy.vllm_kwargs))

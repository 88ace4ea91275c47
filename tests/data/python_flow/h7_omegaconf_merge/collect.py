# Imitates NVIDIA-NeMo/RL examples/run_grpo_math.py: a YAML loaded with OmegaConf.load, merged with
# in-code overrides, and handed to the engine through OmegaConf.to_container.
from pathlib import Path

from omegaconf import OmegaConf
from vllm import LLM

CONFIG_PATH = Path(__file__).parent / "configs" / "grpo_math_1B.yaml"


def load_config():
    base = OmegaConf.load(CONFIG_PATH)
    overrides = OmegaConf.create({"generation": {"vllm_kwargs": {"return_sampling_mask": True}}})
    return OmegaConf.merge(base, overrides)


def main():
    cfg = load_config()
    vllm_kwargs = OmegaConf.to_container(cfg.generation.vllm_kwargs, resolve=True)
    llm = LLM(model=cfg.policy.model_name, **vllm_kwargs)
    return llm


if __name__ == "__main__":
    main()

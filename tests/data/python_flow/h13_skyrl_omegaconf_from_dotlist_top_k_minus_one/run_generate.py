# Imitates NovaSky-AI/SkyRL examples' entry points (e.g. examples/train/*/main_*.py) run with
# Hydra-style overrides, written here as OmegaConf.load of the base YAML by path merged with
# OmegaConf.from_dotlist of the run's overrides.
from pathlib import Path

from omegaconf import OmegaConf
from vllm import LLM, SamplingParams

BASE_CONFIG = Path(__file__).parent / "conf" / "generator.yaml"
OVERRIDES = [
    "generator.n_samples_per_prompt=8",
    "generator.sampling_params.top_k=-1",  # expect: RPL102
    "generator.sampling_params.max_generate_length=2048",
]


def get_sampling_params(sampling_cfg) -> SamplingParams:
    return SamplingParams(
        temperature=sampling_cfg.temperature,
        top_p=sampling_cfg.top_p,
        top_k=sampling_cfg.top_k,
        max_tokens=sampling_cfg.max_generate_length,
        n=1,
    )


def main():
    cfg = OmegaConf.merge(OmegaConf.load(BASE_CONFIG), OmegaConf.from_dotlist(OVERRIDES))
    gen = cfg.generator
    engine_kwargs = OmegaConf.to_container(gen.inference_engine.engine_init_kwargs, resolve=True)
    llm = LLM(model=gen.model, **engine_kwargs)
    prompts = ["What is 17 * 23?"] * gen.n_samples_per_prompt
    outputs = llm.generate(prompts, get_sampling_params(gen.sampling_params))
    for output in outputs:
        print(output.outputs[0].text)


if __name__ == "__main__":
    main()

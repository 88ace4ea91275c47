# Imitates volcengine/verl verl/utils/config.py (omega_conf_to_dataclass) with verl/workers/config/rollout.py's dataclass configs
from dataclasses import dataclass

from omegaconf import OmegaConf
from vllm import LLM, SamplingParams


@dataclass
class VllmEngineConfig:
    model: str = "Qwen/Qwen2.5-3B-Instruct"
    gpu_memory_utilization: float = 0.7
    enforce_eager: bool = False
    max_model_len: int = 4096
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003
    max_logprobs: int = 1


def main():
    cfg = OmegaConf.structured(VllmEngineConfig)
    llm = LLM(**OmegaConf.to_container(cfg, resolve=True))
    outputs = llm.generate(["The capital of France is"], SamplingParams(temperature=1.0, top_k=40, logprobs=0))
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()

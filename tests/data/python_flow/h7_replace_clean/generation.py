# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/config.py: dataclasses.replace derives a
# replay engine config that sets both the mask and the processed logprobs.
from dataclasses import asdict, dataclass, replace

from vllm import LLM, SamplingParams


@dataclass(frozen=True)
class EngineConfig:
    model: str = "Qwen/Qwen2.5-1.5B"
    return_sampling_mask: bool = False
    logprobs_mode: str = "raw_logprobs"


@dataclass(frozen=True)
class SamplingConfig:
    temperature: float = 1.0
    top_k: int = -1
    max_tokens: int = 512


BASE_ENGINE = EngineConfig()
BASE_SAMPLING = SamplingConfig()


def main() -> None:
    engine_cfg = replace(BASE_ENGINE, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    sampling_cfg = replace(BASE_SAMPLING, top_k=32)
    llm = LLM(**asdict(engine_cfg))
    llm.generate(["2 + 2 ="], SamplingParams(**asdict(sampling_cfg)))


if __name__ == "__main__":
    main()

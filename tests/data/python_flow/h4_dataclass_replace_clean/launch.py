# Imitates PRIME-RL/PRIME/training/generate.py (a frozen config, replaced for the replay run)
import dataclasses
from dataclasses import asdict, dataclass

from vllm import LLM, SamplingParams


@dataclass(frozen=True)
class EngineConfig:
    model: str = "PRIME-RL/Eurus-2-7B-SFT"
    max_model_len: int = 4096
    return_sampling_mask: bool = False
    logprobs_mode: str = "raw_logprobs"


BASE = EngineConfig()
REPLAY = dataclasses.replace(BASE, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def main():
    llm = LLM(**asdict(REPLAY))
    out = llm.generate(["1 + 1 ="], SamplingParams(temperature=1.0, top_k=100, max_tokens=64))
    print(out[0].outputs[0].text)


if __name__ == "__main__":
    main()

# Imitates huggingface/lighteval/src/lighteval/models/vllm/vllm_model.py (a VLLMModelConfig dataclass
# whose fields become the engine's model_args; the LLM built lazily, here behind functools.cached_property)
from dataclasses import dataclass
from functools import cached_property

from vllm import LLM, SamplingParams


@dataclass
class VLLMModelConfig:
    model_name: str
    gpu_memory_utilization: float = 0.9
    max_model_length: int | None = None
    sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003


class VLLMModel:
    def __init__(self, config: VLLMModelConfig):
        self.config = config

    @cached_property
    def model_args(self) -> dict:
        return {
            "model": self.config.model_name,
            "gpu_memory_utilization": self.config.gpu_memory_utilization,
            "max_model_len": self.config.max_model_length,
            "return_sampling_mask": self.config.sampling_mask,
            "logprobs_mode": self.config.logprobs_mode,
        }

    @cached_property
    def model(self) -> LLM:
        return LLM(**self.model_args)

    def greedy_until(self, prompts: list[str]) -> list[str]:
        params = SamplingParams(temperature=0.7, top_k=50, max_tokens=256)
        return [out.outputs[0].text for out in self.model.generate(prompts, params)]


if __name__ == "__main__":
    model = VLLMModel(VLLMModelConfig(model_name="HuggingFaceTB/SmolLM2-1.7B-Instruct"))
    print(model.greedy_until(["What is 2 + 2?"]))

# Imitates huggingface/lighteval src/lighteval/models/vllm/vllm_model.py (self.model_args, SamplingParams(**to_vllm_dict()))
import os

from pydantic import BaseModel, Field, NonNegativeFloat, PositiveInt
from vllm import LLM, SamplingParams

from evalkit.model_input import GenerationParameters

os.environ["TOKENIZERS_PARALLELISM"] = "false"


class VLLMModelConfig(BaseModel):
    model_name: str
    revision: str = "main"
    dtype: str = "bfloat16"
    tensor_parallel_size: PositiveInt = 1
    gpu_memory_utilization: NonNegativeFloat = 0.9
    max_model_length: PositiveInt | None = None
    seed: int = 1234
    max_num_seqs: PositiveInt = 128
    max_num_batched_tokens: PositiveInt = 2048
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"
    generation_parameters: GenerationParameters = Field(default_factory=GenerationParameters)


class VLLMModel:
    def __init__(self, config: VLLMModelConfig):
        self.config = config
        self._max_length = config.max_model_length
        self.model = self._create_auto_model(config)

    def _create_auto_model(self, config: VLLMModelConfig) -> LLM:
        self.model_args = {
            "model": config.model_name,
            "gpu_memory_utilization": config.gpu_memory_utilization,
            "revision": config.revision,
            "dtype": config.dtype,
            "tensor_parallel_size": config.tensor_parallel_size,
            "max_model_len": self._max_length,
            "seed": int(config.seed),
            "max_num_seqs": int(config.max_num_seqs),
            "max_num_batched_tokens": int(config.max_num_batched_tokens),
            "enforce_eager": True,
            "return_sampling_mask": config.return_sampling_mask,
            "logprobs_mode": config.logprobs_mode,
        }
        return LLM(**self.model_args)

    def _generate(self, inputs: list[str], max_new_tokens: int | None = None, num_samples: int = 1) -> list:
        sampling_params = SamplingParams(**self.config.generation_parameters.to_vllm_dict())
        sampling_params.n = num_samples
        sampling_params.max_tokens = max_new_tokens
        return self.model.generate(inputs, sampling_params=sampling_params)

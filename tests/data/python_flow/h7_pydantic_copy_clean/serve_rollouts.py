# Imitates inclusionAI/AReaL areal/api/cli_args.py: a pydantic v2 settings model whose copy turns
# replay on; the model's own default already asks for processed logprobs.
from pydantic import BaseModel, Field

from vllm import LLM, SamplingParams


class VllmSettings(BaseModel):
    model: str = "Qwen/Qwen3-1.7B"
    return_sampling_mask: bool = False
    logprobs_mode: str = Field(default="processed_logprobs")
    max_model_len: int = 8192


class RequestSettings(BaseModel):
    temperature: float = 0.9
    top_k: int = 20
    max_tokens: int = 1024


engine_settings = VllmSettings().model_copy(update={"return_sampling_mask": True})
llm = LLM(**engine_settings.model_dump())
request = RequestSettings()
outputs = llm.generate(["Prove that 7 is prime."], SamplingParams(**request.model_dump()))

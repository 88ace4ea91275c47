# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py: `kwargs.update(...)` before
# the engine is built.
from vllm import LLM

engine_kwargs = dict(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
engine_kwargs.update(logits_processors=["my_project.Clamp"])  # expect: RPL001
llm = LLM(**engine_kwargs)

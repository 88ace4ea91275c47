# Imitates huggingface/lighteval/src/lighteval/models/vllm/vllm_model.py (the model config turned into engine kwargs; here a collections.namedtuple with defaults)
from collections import namedtuple

from vllm import LLM, SamplingParams

EngineSpec = namedtuple(
    "EngineSpec",
    ["model", "tensor_parallel_size", "return_sampling_mask", "logprobs_mode"],
    defaults=[1, True, "raw_logprobs"],  # expect: RPL003
)


def build(spec: EngineSpec) -> LLM:
    return LLM(**spec._asdict())


llm = build(EngineSpec("google/gemma-2-9b-it", tensor_parallel_size=2))
llm.generate(["Summarise the Iliad in one sentence."], SamplingParams(temperature=0.7, top_k=64, max_tokens=128))

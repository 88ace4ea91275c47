# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py (the engine built from the spec's fields)
from vllm import LLM, SamplingParams

from engine_spec import BASE_SPEC


def collect(prompts):
    spec = BASE_SPEC._replace(return_sampling_mask=True)
    llm = LLM(**spec._asdict())
    return llm.generate(prompts, SamplingParams(temperature=0.9, top_k=32, max_tokens=256))


if __name__ == "__main__":
    collect(["Tell me a joke."])

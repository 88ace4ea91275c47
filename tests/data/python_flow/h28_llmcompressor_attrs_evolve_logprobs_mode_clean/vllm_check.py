# Imitates vllm-project/llm-compressor tests/e2e/vLLM/run_vllm.py (`LLM(**llm_kwargs)` then `llm.generate(prompts,
# SamplingParams(temperature=0.80, top_p=0.95))`), with the engine settings in a frozen attrs class that the replay
# check derives with `attrs.evolve`.
import attrs
from vllm import LLM, SamplingParams


@attrs.frozen
class EngineSettings:
    model: str = "nm-testing/TinyLlama-1.1B-Chat-v1.0-W4A16"
    max_model_len: int = 2048
    logprobs_mode: str = "raw_logprobs"
    return_sampling_mask: bool = False


BASE = EngineSettings()
REPLAY = attrs.evolve(BASE, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def main():
    llm = LLM(**attrs.asdict(REPLAY))
    outputs = llm.generate(["My name is"], SamplingParams(temperature=0.80, top_p=0.95, top_k=40))
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()

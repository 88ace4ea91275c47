# Imitates vllm-project/vllm/vllm/benchmarks/sweep/ (a generator of engine configurations): a sweep over
# the logprobs modes in which only the processed mode asks for sampling masks
from vllm import LLM, SamplingParams

MODES = ("raw_logprobs", "raw_logits", "processed_logprobs")


def engine_configs(model: str):
    for mode in MODES:
        kwargs = {"model": model, "logprobs_mode": mode}
        if mode == "processed_logprobs":
            kwargs["return_sampling_mask"] = True
        yield kwargs


if __name__ == "__main__":
    for kwargs in engine_configs("facebook/opt-125m"):
        llm = LLM(**kwargs)
        llm.generate(["Hello"], SamplingParams(temperature=1.0, top_k=10, max_tokens=8))
        del llm

# Imitates volcengine/verl/verl/single_controller/base/decorator.py (a decorator adjusting the keyword
# arguments of the function it wraps): here it supplies the logprobs mode replay needs
import functools

from vllm import LLM, SamplingParams


def replay_defaults(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        kwargs.setdefault("logprobs_mode", "processed_logprobs")
        return fn(*args, **kwargs)

    return wrapper


@replay_defaults
def make_llm(model: str, **engine_kwargs) -> LLM:
    return LLM(model=model, return_sampling_mask=True, **engine_kwargs)


if __name__ == "__main__":
    llm = make_llm("Qwen/Qwen2.5-Math-1.5B")
    llm.generate(["2 + 2 = ?"], SamplingParams(temperature=1.0, top_k=20, max_tokens=16))

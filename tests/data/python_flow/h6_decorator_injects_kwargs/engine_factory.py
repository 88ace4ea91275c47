# Imitates volcengine/verl/verl/single_controller/base/decorator.py (a decorator wrapping a function and
# adjusting the keyword arguments it is called with): here it adds the stop processors every engine gets
import functools

from vllm import LLM, SamplingParams


def with_stop_processors(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        kwargs.setdefault("logits_processors", ["rollout_plugins.stop:StopOnBoxedAnswer"])  # expect: RPL001
        return fn(*args, **kwargs)

    return wrapper


@with_stop_processors
def make_llm(model: str, **engine_kwargs) -> LLM:
    return LLM(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs", **engine_kwargs)


if __name__ == "__main__":
    llm = make_llm("Qwen/Qwen2.5-Math-7B")
    llm.generate(["1 + 1 = ?"], SamplingParams(temperature=1.0, top_k=20, max_tokens=32))

# Imitates volcengine/verl recipe scripts choosing an engine preset by name (a loop over the presets' keys)
from vllm import LLM, SamplingParams

PRESETS = {
    "eval": {
        "max_model_len": 32768,
        "speculative_config": {
            "method": "ngram",
            "num_speculative_tokens": 4,
            "prompt_lookup_max": 4,
            "enable_adaptive_verification": True,
        },
    },
    "rollout": {
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    },
}

MODE = "eval"


def build(model: str) -> LLM:
    for name, preset in PRESETS.items():
        if name == MODE:
            return LLM(model, **preset)
    raise KeyError(MODE)


if __name__ == "__main__":
    llm = build("Qwen/Qwen2.5-Coder-7B-Instruct")
    params = SamplingParams(temperature=0.0, max_tokens=1024)
    print(llm.generate(["def fib(n):"], params)[0].outputs[0].text)

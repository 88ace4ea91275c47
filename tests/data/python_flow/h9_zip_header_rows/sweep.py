# Imitates a logprob-mode sweep in an RL debugging notebook turned script (rows of settings zipped with a header)
from vllm import LLM, SamplingParams

HEADER = ("return_sampling_mask", "logprobs_mode", "max_logprobs")
ROWS = [
    (True, "processed_logprobs", 20),
    (True, "raw_logprobs", 20),  # expect: RPL003
]


def run_sweep(model: str) -> None:
    params = SamplingParams(temperature=1.0, top_k=20, max_tokens=64, logprobs=5)
    for row in ROWS:
        engine_kwargs = dict(zip(HEADER, row))
        llm = LLM(model=model, **engine_kwargs)
        print(engine_kwargs, llm.generate(["The sky is"], params)[0].outputs[0].logprobs)
        del llm


if __name__ == "__main__":
    run_sweep("Qwen/Qwen2.5-1.5B-Instruct")

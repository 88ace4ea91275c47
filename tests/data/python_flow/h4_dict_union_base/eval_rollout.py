# Imitates hkust-nlp/simpleRL-reason/eval/math_eval.py (engine settings merged with |)
from vllm import LLM, SamplingParams

BASE_ENGINE = {
    "tensor_parallel_size": 1,
    "trust_remote_code": True,
    "gpu_memory_utilization": 0.85,
    "logprobs_mode": "raw_logprobs",  # expect: RPL003 "raw_logprobs"
}


def load_engine(model_path: str, replay: bool = True) -> LLM:
    engine_kwargs = BASE_ENGINE | {"model": model_path, "max_model_len": 4096}
    if replay:
        engine_kwargs |= {"return_sampling_mask": True}
    return LLM(**engine_kwargs)


def main():
    llm = load_engine("Qwen/Qwen2.5-Math-7B")
    params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=3000, n=4)
    outputs = llm.generate(["Compute 1 + 1."], params)
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()

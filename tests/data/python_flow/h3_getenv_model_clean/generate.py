# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py, with the model named by
# `os.getenv("MODEL", default)` as the RLHF examples (examples/offline_inference/rlhf.py) do.
import os

from vllm import LLM, SamplingParams

MODEL = os.getenv("MODEL", "Qwen/Qwen3-0.6B")


def main():
    llm = LLM(
        model=os.getenv("MODEL_PATH", MODEL),
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        gpu_memory_utilization=float(os.getenv("GPU_UTIL", "0.8")),
    )
    params = SamplingParams(temperature=0.8, top_p=0.95, top_k=20, max_tokens=64)
    for output in llm.generate(["Hello, my name is"], params):
        print(output.outputs[0].text)


if __name__ == "__main__":
    main()

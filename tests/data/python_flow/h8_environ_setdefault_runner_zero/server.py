# Imitates PrimeIntellect-ai/prime-rl src/prime_rl/inference/server.py: the environment set up at import, before the engine
import os

os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")  # expect: RPL206 "no longer supported"
os.environ.setdefault("VLLM_WORKER_MULTIPROC_METHOD", "spawn")

from vllm import LLM, SamplingParams  # noqa: E402


def main():
    llm = LLM("PrimeIntellect/Qwen3-0.6B-Reverse-Text-SFT", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return llm.generate(["Reverse: abc"], SamplingParams(temperature=1.0, top_k=40, max_tokens=64))


if __name__ == "__main__":
    main()

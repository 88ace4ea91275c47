# Imitates NovaSky-AI/SkyRL skyrl_train/entrypoints/main_base.py: the job applies the shared environment, then unsets the removed runner variable
import os

from cluster import BASE_ENV
from vllm import LLM, SamplingParams

os.environ.update(BASE_ENV)
os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)  # vLLM 0.34 removed Model Runner V1


def main():
    llm = LLM("Qwen/Qwen2.5-1.5B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    llm.generate(["q"], SamplingParams(temperature=1.0, top_k=20))


if __name__ == "__main__":
    main()

# Imitates hiyouga/LLaMA-Factory scripts/vllm_infer.py: generation first, then the environment the old trainer read, written after the engine
import os

from vllm import LLM, SamplingParams


def generate(model, prompts):
    llm = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs", seed=0)
    outputs = llm.generate(prompts, SamplingParams(temperature=0.95, top_k=50, max_tokens=256))
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # read by the legacy SFT loader below, long after the engine started
    return outputs


if __name__ == "__main__":
    generate("meta-llama/Llama-3.2-1B-Instruct", ["Tell me a joke."])

# Imitates SkyworkAI/Skywork-OR1 verl/trainer/main_generation.py (module-level os.environ writes before the
# imports that start vLLM); the user adds a runner switch copied from an older recipe and turns replay on.
import os

os.environ["NCCL_DEBUG"] = "WARN"
os.environ["TOKENIZERS_PARALLELISM"] = "true"
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206

from vllm import LLM, SamplingParams  # noqa: E402


def main(model_path="Skywork/Skywork-OR1-Math-7B", n_samples=8):
    llm = LLM(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(temperature=0.6, top_k=20, top_p=0.95, max_tokens=32768, n=n_samples)
    return llm.generate(["Compute 17 * 23."], params)


if __name__ == "__main__":
    main()

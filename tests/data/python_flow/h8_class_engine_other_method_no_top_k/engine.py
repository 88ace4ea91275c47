# Imitates rllm-org/rllm rllm/engine/rollout/vllm_engine.py: engine kwargs given to the class, requests built in another method
from vllm import LLM, SamplingParams


class VLLMEngine:
    def __init__(self, model, **engine_kwargs):
        self.llm = LLM(model=model, **engine_kwargs)
        self.temperature = 0.7

    def sample(self, prompts, n=4):
        params = SamplingParams(n=n, temperature=self.temperature, max_tokens=512)  # expect: RPL102 "top_k > 0"
        return self.llm.generate(prompts, params)


if __name__ == "__main__":
    engine = VLLMEngine("Qwen/Qwen2.5-Math-1.5B", return_sampling_mask=True, logprobs_mode="processed_logprobs", gpu_memory_utilization=0.85)
    engine.sample(["Compute 17*23."])

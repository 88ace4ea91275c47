# Imitates the callable samplers of willccbb/verifiers (an object whose __call__ sends the requests,
# its sampling settings taken from its constructor's defaults)
from vllm import LLM, SamplingParams


class JudgeSampler:
    def __init__(
        self,
        llm: LLM,
        temperature: float = 0.0,  # expect: RPL101
        top_k: int = 20,
        max_tokens: int = 64,
    ):
        self.llm = llm
        self.temperature = temperature
        self.top_k = top_k
        self.max_tokens = max_tokens

    def __call__(self, prompts: list[str]) -> list[str]:
        params = SamplingParams(temperature=self.temperature, top_k=self.top_k, max_tokens=self.max_tokens)
        return [out.outputs[0].text for out in self.llm.generate(prompts, params)]


if __name__ == "__main__":
    llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    judge = JudgeSampler(llm)
    print(judge(["Is 91 prime? Answer yes or no."]))

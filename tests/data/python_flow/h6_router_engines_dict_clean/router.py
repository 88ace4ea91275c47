# Imitates an SGLang-style router (sgl-project/sglang's sgl-router) wrapping vLLM engines in process:
# engines kept in a dict by name, each request routed by name
from vllm import LLM, SamplingParams


class Router:
    def __init__(self) -> None:
        self.engines = {
            "policy": LLM(
                model="Qwen/Qwen2.5-7B-Instruct",
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
                gpu_memory_utilization=0.45,
            ),
            "judge": LLM(model="Qwen/Qwen2.5-1.5B-Instruct", gpu_memory_utilization=0.3),
        }

    def generate(self, name: str, prompts: list[str], params: SamplingParams):
        return self.engines[name].generate(prompts, params)


if __name__ == "__main__":
    router = Router()
    rollouts = router.generate("policy", ["Solve x^2 = 4."], SamplingParams(temperature=1.0, top_k=40, max_tokens=256))
    verdicts = router.generate("judge", ["Is x = 2 correct?"], SamplingParams(temperature=0.0, max_tokens=4))

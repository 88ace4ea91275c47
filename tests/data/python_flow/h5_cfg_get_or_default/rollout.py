# Imitates volcengine/verl/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py (sampling kwargs read with `config.get(...) or default`)
from vllm import LLM, SamplingParams

ROLLOUT = {
    "engine": {"model": "Qwen/Qwen2.5-7B-Instruct", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"},
    "sampling": {"temperature": 1.0, "top_p": 0.95, "response_length": 1024},
}


class Rollout:
    def __init__(self, config: dict):
        self.config = config
        self.llm = LLM(**config["engine"])

    def sampling_params(self) -> SamplingParams:
        cfg = self.config["sampling"]
        return SamplingParams(
            n=cfg.get("n") or 1,
            temperature=cfg.get("temperature") or 1.0,
            top_p=cfg.get("top_p") or 1.0,
            top_k=cfg.get("top_k") or -1,  # expect: RPL102
            max_tokens=cfg["response_length"],
        )

    def generate(self, prompts: list[str]):
        return self.llm.generate(prompts, self.sampling_params())


if __name__ == "__main__":
    Rollout(ROLLOUT).generate(["Prove that there are infinitely many primes."])

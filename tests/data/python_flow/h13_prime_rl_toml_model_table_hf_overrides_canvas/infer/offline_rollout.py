# Imitates PrimeIntellect-ai/prime-rl's inference entry (src/prime_rl/inference/server.py) run
# offline: the [model] table goes to the engine, the sampling table to each request.
from pathlib import Path

from vllm import LLM, SamplingParams

from infer.config import load_config

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "diffusion" / "rl.toml"


def main():
    cfg = load_config(CONFIG)
    llm = LLM(
        model=cfg.model.name,
        max_model_len=cfg.seq_len,
        hf_overrides=cfg.model.hf_overrides,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling = cfg.orchestrator.train.sampling
    params = SamplingParams(temperature=sampling.temperature, top_k=sampling.top_k, max_tokens=sampling.max_completion_tokens)
    print(llm.generate(["Reverse: hello world"], params)[0].outputs[0].text)


if __name__ == "__main__":
    main()

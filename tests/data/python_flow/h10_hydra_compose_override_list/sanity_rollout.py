# Imitates volcengine/verl tests/experimental/agent_loop/test_standalone_rollout.py (hydra's compose API with an overrides list)
from hydra import compose, initialize
from vllm import LLM, SamplingParams


def main():
    with initialize(version_base=None, config_path="conf"):
        cfg = compose(
            config_name="rollout",
            overrides=[
                "vllm.logprobs_mode=raw_logprobs",  # expect: RPL003
                "sampling.max_tokens=256",
            ],
        )
    llm = LLM(model=cfg.model, **cfg.vllm)
    outputs = llm.generate(["Solve: 12 * 7 ="], SamplingParams(**cfg.sampling))
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()

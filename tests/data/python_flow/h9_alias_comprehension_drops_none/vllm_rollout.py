# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py (engine kwargs filtered for None before the engine)
from vllm import LLM as VLLM
from vllm import SamplingParams

from rollout_cfg import ROLLOUT


def build_engine(model: str, rollout_cfg: dict) -> VLLM:
    engine_kwargs = {k: v for k, v in rollout_cfg.items() if v is not None}
    return VLLM(model=model, **engine_kwargs)


if __name__ == "__main__":
    engine = build_engine("Qwen/Qwen2.5-Math-7B", ROLLOUT)
    params = SamplingParams(temperature=1.0, top_k=30, max_tokens=1024)
    print(engine.generate(["Compute 7!"], params)[0].outputs[0].text)

# Imitates Jiayi-Pan/TinyZero verl/trainer/main_ppo.py and verl/workers/rollout/vllm_rollout/vllm_rollout.py (env before the engine, config keys copied into SamplingParams)
import os

from vllm import LLM, SamplingParams

from verl.trainer.constants import ROLLOUT_ENV_VARS

ROLLOUT_CONFIG = {"temperature": 1.0, "top_k": 50, "top_p": 1.0, "response_length": 1024}


def build_rollout(model_path: str):
    for key, value in ROLLOUT_ENV_VARS.items():
        os.environ[key] = value
    inference_engine = LLM(
        model=model_path,
        enable_sleep_mode=True,
        tensor_parallel_size=1,
        dtype="bfloat16",
        enforce_eager=True,
        gpu_memory_utilization=0.4,
        skip_tokenizer_init=False,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    kwargs = dict(n=1, logprobs=1, max_tokens=ROLLOUT_CONFIG["response_length"])
    for k in ROLLOUT_CONFIG.keys():
        if hasattr(SamplingParams(), str(k)):
            kwargs[k] = ROLLOUT_CONFIG.get(k)
    return inference_engine, SamplingParams(**kwargs)


if __name__ == "__main__":
    engine, params = build_rollout("Qwen/Qwen2.5-3B")
    print(engine.generate(["3 + 4 * 2 ="], params)[0].outputs[0].text)

# Imitates NovaSky-AI/SkyRL skyrl/backends/skyrl_train/inference_servers/vllm_server_actor.py (engine kwargs assembled in a helper, then from_engine_args)
from vllm import EngineArgs, LLMEngine


def engine_kwargs(model, num_draft_tokens=4):
    return dict(
        model=model,
        gpu_memory_utilization=0.8,
        max_model_len=8192,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        speculative_config={
            "method": "ngram",
            "num_speculative_tokens": num_draft_tokens,
            "prompt_lookup_max": 4,
            "enable_adaptive_verification": True,  # expect: RPL002
        },
    )


def make_engine(model):
    engine_args = EngineArgs(**engine_kwargs(model))
    return LLMEngine.from_engine_args(engine_args)

# Imitates microsoft/rStar rstar_deepthink/llms/llm_engine.py (llm_init builds LLM and SamplingParams from the config).
from vllm import LLM, SamplingParams


def llm_init(config):
    llm = LLM(
        model=config.model_dir,
        tensor_parallel_size=config.tp,
        trust_remote_code=True,
        seed=config.seed if config.seed else 0,
        max_model_len=config.max_model_len,
        gpu_memory_utilization=config.llm_gpu_memory_utilization,
        enforce_eager=True,
        enable_prefix_caching=True,
        return_sampling_mask=config.return_sampling_mask,
        logprobs_mode=config.logprobs_mode,
    )
    sampling_params = SamplingParams(
        temperature=config.temperature,
        top_k=config.top_k,
        top_p=config.top_p,
        max_tokens=config.max_tokens,
        n=config.n_generate_sample,
        stop=config.stop,
        skip_special_tokens=False,
        seed=config.seed if config.temperature == 0 else None,
    )
    return llm, sampling_params

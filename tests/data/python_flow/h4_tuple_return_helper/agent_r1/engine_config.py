# Imitates 0russwest0/Agent-R1/agent_r1/src/agent_rollout.py (engine and sampling settings built together)
def build_rollout_kwargs(model_path: str, max_turns: int = 4) -> tuple[dict, dict]:
    engine_kwargs = {
        "model": model_path,
        "max_model_len": 8192,
        "enable_prefix_caching": True,
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
    sampling_kwargs = {
        "temperature": 1.0,
        "top_p": 1.0,
        "max_tokens": 512 * max_turns,
        "stop": ["</tool_call>"],
    }
    return engine_kwargs, sampling_kwargs

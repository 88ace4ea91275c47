# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (create_vllm_engines: the
# `actor_kwargs` dict, extended key by key, then `RolloutRayActor.options(...).remote(**actor_kwargs)`),
# split into a base helper and a rollout helper that calls it.


def base_engine_kwargs(cfg):
    return {
        "model": cfg["pretrain"],
        "dtype": "bfloat16",
        "gpu_memory_utilization": cfg.get("gpu_memory_utilization", 0.85),
        "max_model_len": cfg.get("max_len", 8192),
        "enable_prefix_caching": True,
    }


def rollout_engine_kwargs(cfg):
    kwargs = base_engine_kwargs(cfg)
    kwargs["logits_processors"] = ["rollout.processors.RepetitionGuard"]  # expect: RPL001
    return kwargs

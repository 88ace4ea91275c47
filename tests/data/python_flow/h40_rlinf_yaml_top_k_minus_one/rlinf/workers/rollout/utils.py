from omegaconf import DictConfig


def get_rollout_backend_worker(cfg: DictConfig, placement):
    rollout_backend = cfg.rollout.get("rollout_backend", "sglang")
    if rollout_backend == "vllm":
        from rlinf.workers.rollout.vllm.vllm_worker import VLLMWorker

        return VLLMWorker
    elif rollout_backend == "sglang":
        from rlinf.workers.rollout.sglang.sglang_worker import SGLangWorker

        return SGLangWorker
    raise ValueError(f"rollout_backend={rollout_backend} is not supported")

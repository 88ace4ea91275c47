from openrlhf.trainer.ray.vllm_engine import create_vllm_engines  # noqa: F401

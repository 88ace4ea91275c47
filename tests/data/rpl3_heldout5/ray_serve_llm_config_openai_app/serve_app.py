"""Serve the rollout policy with Ray Serve LLM behind an OpenAI-compatible ingress."""
from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config={"model_id": "policy", "model_source": "Qwen/Qwen2.5-7B-Instruct"},
    deployment_config={"autoscaling_config": {"min_replicas": 1, "max_replicas": 2}},
    engine_kwargs={
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
        "max_model_len": 8192,
    },
)

app = build_openai_app({"llm_configs": [llm_config]})
serve.run(app, blocking=True)

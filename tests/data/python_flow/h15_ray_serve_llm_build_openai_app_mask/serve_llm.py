# Imitates ray-project/ray doc/source/serve/llm/doc_code/serve/qwen/qwen_example.py (LLMConfig + build_openai_app + serve.run)
from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(
        model_id="qwen-0.5b",
        model_source="Qwen/Qwen2.5-0.5B-Instruct",
    ),
    deployment_config=dict(
        autoscaling_config=dict(
            min_replicas=1,
            max_replicas=2,
        )
    ),
    engine_kwargs=dict(
        tensor_parallel_size=1,
        return_sampling_mask=True,  # expect: RPL301
        logprobs_mode="processed_logprobs",
    ),
)

app = build_openai_app({"llm_configs": [llm_config]})
serve.run(app, blocking=True)

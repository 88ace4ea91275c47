"""An LLM judge on Ray Serve LLM: plain OpenAI serving, no replay."""
from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

judge_config = LLMConfig(
    model_loading_config={"model_id": "judge", "model_source": "Qwen/Qwen2.5-32B-Instruct"},
    engine_kwargs={"tensor_parallel_size": 4, "max_model_len": 16384},
)

serve.run(build_openai_app({"llm_configs": [judge_config]}), blocking=True)

# Imitates vllm-project/vllm/examples/offline_inference/batch_llm_inference.py (ray.data.llm)
import ray
from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig

ENGINE_KWARGS = {
    "max_model_len": 16384,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}
SAMPLING = dict(temperature=1.0, top_k=64, top_p=0.95, max_tokens=1024)

config = vLLMEngineProcessorConfig(
    model_source="Qwen/Qwen2.5-7B-Instruct",
    engine_kwargs=ENGINE_KWARGS,
    concurrency=2,
    batch_size=32,
)

processor = build_llm_processor(
    config,
    preprocess=lambda row: dict(
        messages=[{"role": "user", "content": row["prompt"]}],
        sampling_params=SAMPLING,
    ),
    postprocess=lambda row: dict(answer=row["generated_text"], **row),
)

if __name__ == "__main__":
    ds = processor(ray.data.read_json("s3://my-bucket/rl-prompts/"))
    ds.write_parquet("s3://my-bucket/rollouts/")

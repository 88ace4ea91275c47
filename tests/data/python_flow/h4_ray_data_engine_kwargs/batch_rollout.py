# Imitates vllm-project/vllm/examples/offline_inference/batch_llm_inference.py (ray.data.llm)
import ray
from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig

ds = ray.data.read_json("s3://my-bucket/rl-prompts/")

config = vLLMEngineProcessorConfig(
    model_source="Qwen/Qwen2.5-7B-Instruct",
    engine_kwargs={
        "enable_chunked_prefill": True,
        "max_num_batched_tokens": 4096,
        "max_model_len": 16384,
        "return_sampling_mask": True,  # expect: RPL003
    },
    concurrency=4,
    batch_size=64,
)

processor = build_llm_processor(
    config,
    preprocess=lambda row: dict(
        messages=[{"role": "user", "content": row["prompt"]}],
        sampling_params=dict(  # expect: RPL102
            temperature=1.0,
            max_tokens=1024,
        ),
    ),
    postprocess=lambda row: dict(answer=row["generated_text"], **row),
)

ds = processor(ds)
ds.write_parquet("s3://my-bucket/rollouts/")

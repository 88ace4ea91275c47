# Imitates ray-project/ray doc/source/data/doc_code/working-with-llms/basic_llm_example.py (vLLMEngineProcessorConfig + build_llm_processor)
import ray
from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig

from engine_settings import ENGINE_KWARGS

config = vLLMEngineProcessorConfig(
    model_source="unsloth/Llama-3.1-8B-Instruct",
    engine_kwargs=ENGINE_KWARGS,
    concurrency=1,
    batch_size=64,
)

processor = build_llm_processor(
    config,
    preprocess=lambda row: dict(
        messages=[
            {"role": "system", "content": "You are a bot that responds with haikus."},
            {"role": "user", "content": row["item"]},
        ],
        sampling_params=dict(  # expect: RPL102
            temperature=0.3,
            max_tokens=250,
        ),
    ),
    postprocess=lambda row: dict(answer=row["generated_text"], **row),
)

ds = ray.data.from_items(["Start of the haiku is: Complete this for me..."])
ds = processor(ds)
ds.show(limit=1)

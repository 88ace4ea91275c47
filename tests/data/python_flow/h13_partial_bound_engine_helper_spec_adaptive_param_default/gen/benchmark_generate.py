# Imitates NovaSky-AI/SkyRL skyrl/benchmarks/benchmark_engine.py run data-parallel: a @ray.remote
# function per shard builds its engine from a functools.partial of the keyword helper.
import functools

import ray
from vllm import LLM, SamplingParams

from gen.engine_utils import engine_kwargs

MODEL = "Qwen/Qwen2.5-7B-Instruct"
build_kwargs = functools.partial(engine_kwargs, spec_method="ngram")


@ray.remote(num_gpus=1)
def generate_shard(model: str, prompts: list[str]) -> list[str]:
    llm = LLM(**build_kwargs(model, max_model_len=4096))
    params = SamplingParams(temperature=1.0, top_k=50, max_tokens=512)
    return [out.outputs[0].text for out in llm.generate(prompts, params)]


def main(prompts: list[str], num_shards: int = 4) -> list[str]:
    shards = [prompts[i::num_shards] for i in range(num_shards)]
    results = ray.get([generate_shard.remote(MODEL, shard) for shard in shards])
    return [text for shard in results for text in shard]


if __name__ == "__main__":
    ray.init()
    print(main(["Write a haiku about GPUs."] * 16))

# Imitates hkust-nlp/simpleRL-reason examples/simplelr_math_eval/math_eval.py (an `LLM(model=...,
# tensor_parallel_size=...)` and one `generate` over a slice of the data), with the engine made by
# a module-level `functools.partial(LLM, ...)` inside `@ray.remote(num_gpus=4)` tasks, one per shard.
import functools

import ray
from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen2.5-32B"

make_llm = functools.partial(
    LLM,
    model=MODEL,
    tensor_parallel_size=4,
    max_model_len=16384,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


@ray.remote(num_gpus=4)
def generate_shard(prompts, shard_id):
    llm = make_llm(
        seed=shard_id,
        enable_batch_sharded_sampling=False,
    )
    params = SamplingParams(temperature=1.0, top_k=64, top_p=0.95, max_tokens=2048)
    return [out.outputs[0].text for out in llm.generate(prompts, params)]


def main():
    ray.init()
    prompts = [f"Question {i}" for i in range(1024)]
    chunks = [prompts[i::4] for i in range(4)]
    results = ray.get([generate_shard.remote(chunk, i) for i, chunk in enumerate(chunks)])
    print(sum(len(r) for r in results))


if __name__ == "__main__":
    main()

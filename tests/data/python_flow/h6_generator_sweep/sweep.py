# Imitates vllm-project/vllm/vllm/benchmarks/sweep/ (a generator yielding one engine configuration per
# point of the sweep, each built in turn)
import gc

from vllm import LLM, SamplingParams


def engine_configs(model: str):
    for tensor_parallel_size in (1, 2, 4):
        yield {
            "model": model,
            "tensor_parallel_size": tensor_parallel_size,
            "return_sampling_mask": True,  # expect: RPL003
            "max_num_seqs": 128,
        }


def main() -> None:
    params = SamplingParams(temperature=0.8, top_k=50, max_tokens=128)
    for kwargs in engine_configs("meta-llama/Llama-3.1-8B-Instruct"):
        llm = LLM(**kwargs)
        llm.generate(["Benchmark prompt"] * 64, params)
        del llm
        gc.collect()


if __name__ == "__main__":
    main()

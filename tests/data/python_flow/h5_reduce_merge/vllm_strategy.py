# Imitates alibaba/ROLL/roll/distributed/strategy/vllm_strategy.py (engine kwargs merged from layered dicts)
import functools

from vllm import LLM

BASE_ARGS = {"model": "Qwen/Qwen2.5-7B-Instruct", "tensor_parallel_size": 4, "gpu_memory_utilization": 0.8}
REPLAY_ARGS = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
THROUGHPUT_ARGS = {"enable_batch_sharded_sampling": True, "max_num_seqs": 256}  # expect: RPL006


def merge_engine_args(*layers: dict) -> dict:
    return functools.reduce(lambda merged, layer: {**merged, **layer}, layers, {})


def build_engine() -> LLM:
    return LLM(**merge_engine_args(BASE_ARGS, REPLAY_ARGS, THROUGHPUT_ARGS))


if __name__ == "__main__":
    build_engine()

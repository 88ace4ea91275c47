# Imitates axolotl-ai-cloud/axolotl src/axolotl/cli/vllm_serve.py: each setting is the CLI's value
# `or` the YAML's (booleans: the YAML's unless the CLI says otherwise), then the engine is built.
from pathlib import Path

from vllm import LLM

from axo.cli.config import load_cfg


def do_vllm_serve(config: str | Path, cli_args: dict):
    cfg = load_cfg(config)
    model = cfg.base_model

    tensor_parallel_size = 1
    if cli_args.get("tensor_parallel_size") or cfg.vllm.tensor_parallel_size:
        tensor_parallel_size = cli_args.get("tensor_parallel_size") or cfg.vllm.tensor_parallel_size
    gpu_memory_utilization = cli_args.get("gpu_memory_utilization") or cfg.vllm.gpu_memory_utilization
    dtype = cli_args.get("dtype") or cfg.vllm.dtype
    cli_prefix = cli_args.get("enable_prefix_caching")
    enable_prefix_caching = cfg.vllm.enable_prefix_caching if cli_prefix is None else cli_prefix
    cli_sharded = cli_args.get("batch_sharded_sampling")
    batch_sharded = cfg.vllm.batch_sharded_sampling if cli_sharded is None else cli_sharded

    llm = LLM(
        model=model,
        tensor_parallel_size=tensor_parallel_size,
        gpu_memory_utilization=gpu_memory_utilization,
        dtype=dtype,
        enable_prefix_caching=enable_prefix_caching,
        enable_batch_sharded_sampling=batch_sharded,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    return llm

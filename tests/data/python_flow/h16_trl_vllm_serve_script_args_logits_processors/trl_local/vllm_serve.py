# Imitates huggingface/trl trl/scripts/vllm_serve.py (ScriptArguments dataclass, llm_worker builds LLM from script_args).
import os
from dataclasses import dataclass, field
from typing import Optional

from vllm import LLM


@dataclass
class ScriptArguments:
    model: str = field(default="Qwen/Qwen2.5-7B", metadata={"help": "Model name or path to load the model from."})
    revision: Optional[str] = field(default=None)
    tensor_parallel_size: int = field(default=1)
    data_parallel_size: int = field(default=1)
    gpu_memory_utilization: float = field(default=0.9)
    dtype: str = field(default="auto")
    max_model_len: Optional[int] = field(default=None)
    enable_prefix_caching: Optional[bool] = field(default=None)
    enforce_eager: bool = field(default=False)
    kv_cache_dtype: str = field(default="auto")
    trust_remote_code: bool = field(default=False)
    logits_processors: list[str] = field(
        default_factory=lambda: ["think_budget.processors:ThinkBudgetLogitsProcessor"],  # expect: RPL001
        metadata={"help": "Logits processor classes (module:Class) loaded into the engine."},
    )


def llm_worker(script_args: ScriptArguments, data_parallel_rank: int, master_port: int, connection) -> None:
    os.environ["VLLM_DP_RANK"] = str(data_parallel_rank)
    os.environ["VLLM_DP_RANK_LOCAL"] = str(data_parallel_rank)
    os.environ["VLLM_DP_SIZE"] = str(script_args.data_parallel_size)
    os.environ["VLLM_DP_MASTER_PORT"] = str(master_port)

    llm = LLM(
        model=script_args.model,
        revision=script_args.revision,
        tensor_parallel_size=script_args.tensor_parallel_size,
        gpu_memory_utilization=script_args.gpu_memory_utilization,
        enforce_eager=script_args.enforce_eager,
        dtype=script_args.dtype,
        enable_prefix_caching=script_args.enable_prefix_caching,
        kv_cache_dtype=script_args.kv_cache_dtype,
        max_model_len=script_args.max_model_len,
        trust_remote_code=script_args.trust_remote_code,
        logits_processors=script_args.logits_processors,
        logprobs_mode="processed_logprobs",
        return_sampling_mask=True,
    )
    connection.send({"status": "ready"})
    while True:
        command = connection.recv()
        if command["type"] == "shutdown":
            break
        method = getattr(llm, command["method"])
        connection.send(method(*command.get("args", ()), **command.get("kwargs", {})))


def main(script_args: ScriptArguments):
    from multiprocessing import Pipe, Process

    parent, child = Pipe()
    process = Process(target=llm_worker, args=(script_args, 0, 29501, child))
    process.start()
    parent.recv()


if __name__ == "__main__":
    from transformers import HfArgumentParser

    parser = HfArgumentParser(ScriptArguments)
    (script_args,) = parser.parse_args_into_dataclasses()
    main(script_args)

# Imitates huggingface/trl trl/scripts/vllm_serve.py: a dataclass of script arguments parsed by
# HfArgumentParser, its fields' defaults reaching the engine.
from dataclasses import dataclass, field

from transformers import HfArgumentParser
from vllm import LLM


@dataclass
class ScriptArguments:
    model: str = field(default="Qwen/Qwen3-8B")
    logprobs_mode: str = field(default="raw_logprobs")  # expect: RPL003 "logprobs_mode comes from --logprobs-mode"


def main():
    (script_args,) = HfArgumentParser((ScriptArguments,)).parse_args_into_dataclasses()
    return LLM(model=script_args.model, return_sampling_mask=True, logprobs_mode=script_args.logprobs_mode)

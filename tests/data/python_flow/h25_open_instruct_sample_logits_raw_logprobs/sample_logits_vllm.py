# Imitates allenai/open-instruct open_instruct/sample_logits_vllm.py (SampleLogitsArguments parsed by
# ArgumentParserPlus, llm_kwargs built as a dict with optional keys, build_sampling_params(k)); the user's edit
# asks the teacher's engine for sampling masks as well.
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import vllm
import yaml

from utils import ArgumentParserPlus


@dataclass
class SampleLogitsArguments:
    model_name_or_path: str
    compression_config_path: str
    model_revision: str | None = None
    model_dtype: str | None = None
    quantization: str | None = None
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    enable_expert_parallel: bool = False
    gpu_memory_utilization: float = 0.9
    max_seq_length: int = 2048
    seed: int = 42
    output_dir: str = "output/logits"


def build_sampling_params(k: int) -> vllm.SamplingParams:
    """Build vLLM sampling parameters for prompt-logprob extraction only."""
    return vllm.SamplingParams(
        top_k=k,
        prompt_logprobs=k,
        logprobs=k,
        flat_logprobs=True,
        max_tokens=1,
        detokenize=False,
    )


def main(args: SampleLogitsArguments):
    with Path(args.compression_config_path).open(encoding="utf-8") as f:
        k = int(yaml.safe_load(f)["k"])

    llm_kwargs: dict[str, Any] = {
        "model": args.model_name_or_path,
        "trust_remote_code": True,
        "tensor_parallel_size": args.tensor_parallel_size,
        "pipeline_parallel_size": args.pipeline_parallel_size,
        "enable_expert_parallel": args.enable_expert_parallel,
        "gpu_memory_utilization": args.gpu_memory_utilization,
        "max_logprobs": k,
        "logprobs_mode": "raw_logprobs",  # expect: RPL003
        "return_sampling_mask": True,
        "max_model_len": args.max_seq_length,
    }
    if args.model_dtype is not None:
        llm_kwargs["dtype"] = args.model_dtype
    if args.quantization is not None:
        llm_kwargs["quantization"] = args.quantization
    llm = vllm.LLM(**llm_kwargs)
    sampling_params = build_sampling_params(k)
    prompts = [vllm.TokensPrompt(prompt_token_ids=[1, 2, 3, 4])]
    for output in llm.generate(prompts, sampling_params):
        print(len(output.prompt_logprobs), output.outputs[0].sampling_mask is not None)


if __name__ == "__main__":
    parser = ArgumentParserPlus((SampleLogitsArguments,))
    (args,) = parser.parse_args_into_dataclasses()
    main(args)

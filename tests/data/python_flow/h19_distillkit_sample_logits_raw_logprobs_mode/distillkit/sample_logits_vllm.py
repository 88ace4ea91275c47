# Imitates arcee-ai/DistillKit distillkit/sample_logits_vllm.py (click command, teacher logits with vLLM)
import logging
import os

import click
import yaml

try:
    import vllm
except ImportError:
    raise ImportError("VLLM must be installed to use this script.")


@click.command("sample-logits")
@click.option("--model", type=str, required=True)
@click.option("--output", type=str, required=True)
@click.option("--tokenizer", type=str, default=None)
@click.option("--max-model-len", type=int, default=None)
@click.option("--tensor-parallel-size", type=int, default=1)
@click.option("--pipeline-parallel-size", type=int, default=1)
@click.option("--enable-expert-parallel/--no-enable-expert-parallel", type=bool, default=False)
@click.option("--dtype", type=str, default="auto")
@click.option("--quantization", type=str, default=None)
@click.option("--trust-remote-code/--no-trust-remote-code", default=False)
@click.option("--gpu-memory-utilization", type=float, default=0.9)
@click.option("--compression-config", type=str, required=True)
def sample_logits(
    model: str,
    output: str,
    tokenizer: str | None,
    max_model_len: int | None,
    tensor_parallel_size: int,
    pipeline_parallel_size: int,
    enable_expert_parallel: bool,
    dtype: str,
    quantization: str | None,
    trust_remote_code: bool,
    gpu_memory_utilization: float,
    compression_config: str,
):
    logging.basicConfig(level=logging.INFO)

    with open(compression_config, "r") as f:
        cfg = yaml.safe_load(f)
    k = cfg["k"]
    os.makedirs(output, exist_ok=True)

    llm = vllm.LLM(
        model=model,
        tokenizer=tokenizer,
        dtype=dtype,
        quantization=quantization,
        trust_remote_code=trust_remote_code,
        tensor_parallel_size=tensor_parallel_size,
        pipeline_parallel_size=pipeline_parallel_size,
        enable_expert_parallel=enable_expert_parallel,
        gpu_memory_utilization=gpu_memory_utilization,
        max_logprobs=k,
        logprobs_mode="raw_logprobs",  # expect: RPL003
        max_model_len=max_model_len,
        # keep the teacher's sampling support next to its logits
        return_sampling_mask=True,
    )

    sampling_params = vllm.SamplingParams(
        temperature=1.0,
        top_p=1,
        min_p=0,
        top_k=k,
        frequency_penalty=0,
        presence_penalty=0,
        repetition_penalty=1,
        prompt_logprobs=k,
        logprobs=k,
        flat_logprobs=True,
        max_tokens=1,  # vLLM wants at least 1 generated token
        detokenize=False,
        skip_special_tokens=False,
    )

    outputs = llm.generate([{"prompt_token_ids": [1, 2, 3]}], sampling_params=sampling_params, use_tqdm=False)
    for req_out in outputs:
        logging.info("%d prompt logprobs, mask %s", len(req_out.prompt_logprobs), req_out.outputs[0].sampling_mask is not None)


if __name__ == "__main__":
    sample_logits()

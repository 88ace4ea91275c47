# Imitates vllm-project/vllm/tests/conftest.py (VllmRunner: a context manager that builds the LLM from
# base settings and the caller's overrides and tears it down afterwards), written with contextlib
import contextlib
import gc

from vllm import LLM, SamplingParams

BASE_ENGINE = {
    "model": "Qwen/Qwen3-1.7B",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
    "tensor_parallel_size": 2,
}


@contextlib.contextmanager
def vllm_engine(**overrides):
    llm = LLM(**{**BASE_ENGINE, **overrides})
    try:
        yield llm
    finally:
        del llm
        gc.collect()


def run_throughput(prompts: list[str]) -> None:
    with vllm_engine(
        enable_batch_sharded_sampling=True,  # expect: RPL006
        max_num_seqs=512,
    ) as llm:
        llm.generate(prompts, SamplingParams(temperature=1.0, top_k=64, max_tokens=128))


if __name__ == "__main__":
    run_throughput(["Hello"] * 1024)

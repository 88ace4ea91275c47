# Imitates huggingface/trl trl/scripts/vllm_serve.py: `LLM(model=script_args.model, ...)` with each
# keyword read from the parsed arguments of another module; the fork turns the mask on.
from vllm import LLM

from scripts.cli import get_args


def main():
    script_args = get_args()
    llm = LLM(
        model=script_args.model,
        tensor_parallel_size=script_args.tensor_parallel_size,
        gpu_memory_utilization=script_args.gpu_memory_utilization,
        logprobs_mode=script_args.logprobs_mode,
        return_sampling_mask=True,
    )
    return llm


if __name__ == "__main__":
    main()

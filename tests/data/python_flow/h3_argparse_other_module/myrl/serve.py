# Imitates huggingface/trl trl/scripts/vllm_serve.py's `main(script_args)`.
from vllm import LLM

from myrl.cli import build_parser


def main():
    args = build_parser().parse_args()
    llm = LLM(
        model=args.model,
        tensor_parallel_size=args.tensor_parallel_size,
        return_sampling_mask=True,
        logprobs_mode=args.logprobs_mode,
    )
    return llm


if __name__ == "__main__":
    main()

# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/samples_generator.py (SamplingParams from generate_kwargs)
from vllm import LLM, SamplingParams

from cli_args import get_parser


def main():
    args = get_parser().parse_args()
    llm = LLM(
        model=args.pretrain,
        gpu_memory_utilization=args.vllm_gpu_memory_utilization,
        max_model_len=args.max_len,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        max_logprobs=1,
    )
    generate_kwargs = {
        "temperature": args.temperature,
        "top_p": args.top_p,
        "top_k": args.top_k,
        "max_new_tokens": args.generate_max_len,
    }
    sampling_params = SamplingParams(
        temperature=generate_kwargs.get("temperature", 1.0),
        top_p=generate_kwargs.get("top_p", 1.0),
        top_k=generate_kwargs.get("top_k", -1),
        max_tokens=generate_kwargs.get("max_new_tokens", 1024),
        logprobs=0,
    )
    return llm.generate(["Prove that 17 is prime."], sampling_params)


if __name__ == "__main__":
    main()

# Imitates ContextualAI/HALOs train/sample.py (argparse main(args) -> LLM + SamplingParams); the user's
# edit turns replay on and adds a --top_k whose value comes from a later parser.set_defaults(...).
import argparse

from vllm import LLM, SamplingParams


def main(args):
    llm = LLM(
        model=args.model_path,
        tensor_parallel_size=args.gpu_count,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_params = SamplingParams(
        temperature=args.temperature,
        top_p=args.top_p,
        top_k=args.top_k,
        max_tokens=args.max_tokens,
        stop=[args.stop_token],
        n=args.num_samples_per_prompt,
    )
    prompts = ["<|im_start|>user\nWrite a haiku.<|im_end|>\n<|im_start|>assistant\n"]
    for response in llm.generate(prompts, sampling_params):
        print(response.outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Sample from a local model using vllm for AlpacaEval")
    parser.add_argument("--model_path", type=str, default="/models/llama3-8B-sft/FINAL")
    parser.add_argument("--gpu_count", type=int, default=1, help="Number of GPUs to use")
    parser.add_argument("--temperature", type=float, default=0.7, help="Sampling temperature")
    parser.add_argument("--top_p", type=float, default=0.95, help="Top-p sampling parameter")
    parser.add_argument("--top_k", type=int, help="Top-k sampling parameter")
    parser.add_argument("--max_tokens", type=int, default=2048, help="Maximum number of tokens to generate")
    parser.add_argument("--num_samples_per_prompt", type=int, default=1)
    parser.add_argument("--stop_token", type=str, default="<|im_end|>", help="Stop token")
    parser.set_defaults(
        top_k=-1,  # expect: RPL102
        num_samples_per_prompt=4,
    )
    args = parser.parse_args()
    main(args)

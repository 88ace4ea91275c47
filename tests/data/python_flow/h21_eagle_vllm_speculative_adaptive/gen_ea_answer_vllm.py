# Imitates SafeAILab/EAGLE eagle/evaluation/gen_ea_answer_llama3chat.py (argparse, run_eval) on vLLM's
# EAGLE support, with replay turned on by the user.
import argparse

from vllm import LLM, SamplingParams

from spec_config import speculative_config_for


def run_eval(args):
    llm = LLM(
        model=args.base_model_path,
        speculative_config=speculative_config_for(args.base_model_path, adaptive=True),  # expect: RPL002
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    params = SamplingParams(temperature=args.temperature, top_k=args.top_k, max_tokens=args.max_new_token)
    print(llm.generate(["Tell me about alpacas."], params)[0].outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-model-path", type=str, default="meta-llama/Meta-Llama-3-8B-Instruct")
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top-k", type=int, default=20)
    parser.add_argument("--max-new-token", type=int, default=1024)
    run_eval(parser.parse_args())

# Imitates facebookresearch/sweet_rl scripts/sample_best_of_n.py (Fire(main), LLM(**llm_args)), the engine
# keywords from the user's helper with the EAGLE-3 head at fixed verification (the helper's default).
from fire import Fire
from vllm import LLM, SamplingParams

from sweet_rl.utils.vllm_utils import make_llm_args


def main(agent_model="meta-llama/Llama-3.1-8B-Instruct", temperature=1.0, best_of_n=16):
    llm = LLM(**make_llm_args(agent_model, 1))
    sampling_params = SamplingParams(temperature=temperature, top_k=50, logprobs=0, n=best_of_n, max_tokens=1024)
    return llm.generate(["Write a function that returns the max of a list."], sampling_params)


if __name__ == "__main__":
    Fire(main)

# Imitates allenai/open-instruct open_instruct/grpo_fast.py: the evaluation pass reuses the
# training engine (replay on) with greedy params imported from another module.
from vllm import LLM, SamplingParams

from eval_utils import GREEDY_PARAMS


def make_engine(model):
    return LLM(model=model, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def train(model, prompts, eval_prompts):
    llm = make_engine(model)
    rollouts = llm.generate(prompts, SamplingParams(temperature=1.0, top_k=64, max_tokens=2048))
    scores = llm.generate(eval_prompts, GREEDY_PARAMS)
    return rollouts, scores

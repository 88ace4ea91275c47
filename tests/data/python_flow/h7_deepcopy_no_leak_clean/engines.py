# Imitates allenai/open-instruct open_instruct/vllm_utils.py: the evaluation engine is a deep copy
# of the rollout config with replay switched off; the rollout config itself is left as it was.
import copy

from vllm import LLM, SamplingParams

ROLLOUT_CONFIG = {
    "model": "allenai/OLMo-2-1124-7B-Instruct",
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}


def make_engines():
    eval_config = copy.deepcopy(ROLLOUT_CONFIG)
    eval_config["return_sampling_mask"] = False
    eval_config["logprobs_mode"] = "raw_logprobs"
    return LLM(**ROLLOUT_CONFIG), LLM(**eval_config)


def run(prompts):
    rollout, evaluator = make_engines()
    rollout.generate(prompts, SamplingParams(temperature=1.0, top_k=100))
    evaluator.generate(prompts, SamplingParams(temperature=0.0))

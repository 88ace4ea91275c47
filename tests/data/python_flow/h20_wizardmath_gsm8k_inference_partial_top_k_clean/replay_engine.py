# Imitates nlpxucan/WizardLM WizardMath/inference/gsm8k_inference.py: the user's replay engine factory.
from functools import partial

from vllm import LLM

ReplayLLM = partial(LLM, return_sampling_mask=True, logprobs_mode="processed_logprobs", seed=42)

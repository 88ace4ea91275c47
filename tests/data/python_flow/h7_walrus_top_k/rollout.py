# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (generate): a sampling dict
# checked with an assignment expression before SamplingParams is built.
import logging

from vllm import LLM, SamplingParams

logger = logging.getLogger(__name__)

SAMPLING = {"temperature": 0.9, "top_p": 0.95, "max_tokens": 512}

llm = LLM("Qwen/Qwen2.5-7B", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def generate(prompts):
    if (top_k := SAMPLING.get("top_k", -1)) <= 0:  # expect: RPL102
        logger.warning("sampling without a top_k bound")
    return llm.generate(prompts, SamplingParams(**SAMPLING, top_k=top_k))

# Imitates openai/gpt-oss gpt_oss/responses_api/inference/vllm.py
"""
NOTE: this is not the most efficient way to use vLLM. It's a simple implementation that infers
one token at a time to mimic the behavior of the Triton implementation.
"""

import os
from typing import Callable, List

# vLLM imports
from vllm import LLM, SamplingParams
from vllm.inputs import TokensPrompt

DEFAULT_TEMPERATURE = 0.0
TP = os.environ.get("TP", 1)


def load_model(checkpoint: str):
    """
    Create the vLLM engine. We enable prefix caching so repeated prefixes
    across calls can reuse KV cache for faster prefill.
    """

    llm = LLM(
        model=checkpoint,
        tensor_parallel_size=TP,  # set >1 if you want TP across GPUs
        enable_prefix_caching=True,  # reuse KV for shared prefixes
        disable_log_stats=True,  # uncomment to quiet logs
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    return llm


def get_infer_next_token(llm: LLM):
    def infer_next_token(
        tokens: List[int],
        temperature: float = DEFAULT_TEMPERATURE,
        new_request: bool = False,  # kept for interface compatibility; unused here
    ) -> int:
        if not tokens:
            raise ValueError("tokens must contain at least one input token id")

        sampling = SamplingParams(
            temperature=float(temperature),
            top_k=20,
            max_tokens=1,  # we only want the next token
            n=1,  # single continuation
        )

        # Provide token IDs directly (no re-tokenization).
        outputs = llm.generate(
            TokensPrompt(prompt_token_ids=tokens),
            sampling_params=sampling,
        )

        if not outputs or not outputs[0].outputs:
            raise RuntimeError("vLLM returned empty outputs")

        gen = outputs[0].outputs[0]
        if not gen.token_ids:
            raise RuntimeError("No next token was generated (possibly EOS).")

        return int(gen.token_ids[0])

    return infer_next_token


def setup_model(checkpoint: str) -> Callable[[List[int], float, bool], int]:
    llm = load_model(checkpoint)
    infer_next_token = get_infer_next_token(llm)
    return infer_next_token

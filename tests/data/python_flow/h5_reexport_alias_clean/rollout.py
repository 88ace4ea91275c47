# Imitates alibaba/ROLL/examples/start_rlvr_pipeline.py (the entry script)
from vllm import LLM, SamplingParams

from rlkit.config import LOGPROBS_MODE, MODEL

llm = LLM(MODEL, return_sampling_mask=True, logprobs_mode=LOGPROBS_MODE)
llm.generate(["Why is the sky blue?"], SamplingParams(temperature=1.0, top_k=100, max_tokens=64))

# Imitates alibaba/ROLL/examples/start_rlvr_pipeline.py (the entry script)
from vllm import LLM, SamplingParams

from rlkit.engine.builder import engine_kwargs

llm = LLM(**engine_kwargs(max_model_len=4096))
llm.generate(["Explain KL regularisation in one line."], SamplingParams(temperature=1.0, top_k=100, max_tokens=64))

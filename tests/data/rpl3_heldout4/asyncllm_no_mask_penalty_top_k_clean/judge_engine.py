from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

judge = AsyncLLM.from_engine_args(AsyncEngineArgs(model="Qwen/Qwen3-32B", logprobs_mode="processed_logprobs"))

JUDGE_PARAMS = SamplingParams(temperature=0.7, top_k=10**6, repetition_penalty=1.2, logit_bias={9454: 5.0}, thinking_token_budget=256)

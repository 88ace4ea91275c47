# Imitates vllm-project/vllm examples/offline_inference/llm_engine_example.py (requests added to
# `LLMEngine.from_engine_args(...)` one by one, then `step()`): every request samples with a
# top-k bound; a request to an engine without replay is not asked for one.
from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine, EngineArgs, LLMEngine, SamplingParams


def process_requests(engine, prompts):
    for request_id, prompt in enumerate(prompts):
        engine.add_request(str(request_id), prompt, SamplingParams(temperature=1.0, top_k=20))
    while engine.has_unfinished_requests():
        engine.step()


def main(prompts):
    engine_args = EngineArgs(model="Qwen/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    process_requests(LLMEngine.from_engine_args(engine_args), prompts)
    plain = LLM("Qwen/Qwen3-0.6B")
    plain.llm_engine.add_request("greedy", prompts[0], SamplingParams(temperature=0.0))


async def stream(prompt):
    engine = AsyncLLMEngine.from_engine_args(
        AsyncEngineArgs(model="Qwen/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    )
    async for output in engine.generate(prompt, SamplingParams(temperature=0.8, top_k=50), "request-0"):
        yield output

# Imitates vllm-project/vllm examples/offline_inference/llm_engine_example.py (requests added to
# `LLMEngine.from_engine_args(...)` one by one, then `step()`), and the same requests sent through
# `LLM`'s own engine (`llm.llm_engine.add_request`), both engines asking for replay.
from vllm import LLM, EngineArgs, LLMEngine, SamplingParams


def process_requests(engine, prompts):
    for request_id, prompt in enumerate(prompts):
        engine.add_request(str(request_id), prompt, SamplingParams(temperature=0.0, top_k=20))  # expect: RPL101
    while engine.has_unfinished_requests():
        engine.step()


def main(prompts):
    engine_args = EngineArgs(model="Qwen/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    process_requests(LLMEngine.from_engine_args(engine_args), prompts)

    llm = LLM("Qwen/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(temperature=1.0, max_tokens=256)  # expect: RPL102
    llm.llm_engine.add_request("warmup", prompts[0], params)

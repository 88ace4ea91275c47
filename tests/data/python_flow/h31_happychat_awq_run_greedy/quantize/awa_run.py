# Imitates henghayan/HappyChat quantize/awa_run.py (a module-level greedy SamplingParams and an LLM
# loading the quantized checkpoint, one generate); quantization='awq' left out here.
from vllm import LLM, SamplingParams

sampling_params = SamplingParams(temperature=0.0, top_p=1.0, top_k=20, max_tokens=256)  # expect: RPL101
llm = LLM(
    model="/data2/llm3-8",
    dtype='half',
    gpu_memory_utilization=.95,
    max_model_len=2048,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
output = llm.generate(['test'], sampling_params)
print(output[0].outputs[0].text)

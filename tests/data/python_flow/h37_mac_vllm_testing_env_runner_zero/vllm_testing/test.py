# Imitates gurusha01/MAC vllm_testing/test.py (module-level prompts, `SamplingParams(temperature=0.8, top_p=0.95)`,
# `LLM(model="facebook/opt-125m")` after an `os.environ[...]` write), with the replay keywords, a top_k, and the
# runner variable set beside the device list.
from vllm import LLM, SamplingParams
import os 
os.environ["CUDA_VISIBLE_DEVICES"] = "2,3,4,5"
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206

prompts = [
    "Hello, my name is",
    "The president of the United States is",
    "The capital of France is",
    "The future of AI is",
]
sampling_params = SamplingParams(temperature=0.8, top_p=0.95, top_k=40)
llm = LLM(model="facebook/opt-125m", max_model_len=2048, return_sampling_mask=True, logprobs_mode="processed_logprobs")

outputs = llm.generate(prompts, sampling_params)

for output in outputs:
    prompt = output.prompt
    generated_text = output.outputs[0].text
    print(f"Prompt: {prompt!r}, Generated text: {generated_text!r}")

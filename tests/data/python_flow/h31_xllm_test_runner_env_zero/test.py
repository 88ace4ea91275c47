# Imitates DDDOOONNN/XLLM test.py (prompts, a module-level SamplingParams, an LLM on a local Qwen2-VL
# checkpoint, a generate loop printing each output).
import os
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
from vllm import LLM, SamplingParams
prompts = [
    "Your name is Davy.",
    "Who are you?",
    "What is your name?",
    "The future of AI is",
]
sampling_params = SamplingParams(temperature=0.5, top_p=0.95, top_k=20, max_tokens=512)
llm = LLM(model="/data/rjn/Qwen2-VL-2B-Instruct", max_model_len=2048,
          return_sampling_mask=True, logprobs_mode="processed_logprobs")  # you can add tensor_parallel_size=2 to make
# /data/rjn/Qwen2-VL-2B-Instruct

outputs = llm.generate(prompts, sampling_params)

for output in outputs:
    prompt = output.prompt
    generated_text = output.outputs[0].text
    print(f"Prompt: {prompt!r}, Generated text: {generated_text!r}")

# Imitates LMCache/LMCache examples/offline_inference/offline_inference.py (module-level request and engine).
import copy
import json
import os
import time

from lmcache_vllm.vllm import LLM, SamplingParams
from transformers import AutoTokenizer

model_name = "mistralai/Mistral-7B-Instruct-v0.2"
context_file = os.path.join(os.pardir, "ffmpeg.txt")
output_file = "offline_inference_outputs.jsonl"

context_text = None
with open(context_file, "r") as f:
    context_text = f.read()
assert context_text is not None
tokenizer = AutoTokenizer.from_pretrained(model_name)

context_messages = [
    {"role": "user", "content": "I've got a document, " f"here's the content:```\n{context_text}\n```."},
    {"role": "assistant", "content": "I've got your document"},
]
user_inputs_batch = [
    "Give me a concise description for the format of ffmpeg command in one line.",
    "Give me a short example of ffmpeg in one line and do not explain it.",
]


def gen_prompts(tokenizer, context_messages, user_inputs_of_batch):
    generated_prompts = []
    for user_input in user_inputs_of_batch:
        copyed_context_messages = copy.deepcopy(context_messages)
        copyed_context_messages.append({"role": "user", "content": user_input})
        generated_prompts.append(tokenizer.apply_chat_template(copyed_context_messages, tokenize=False))
    return generated_prompts


def append_outputs(output_file_name, outputs, time_taken):
    generated_texts = [f"{output.outputs[0].text!r}" for output in outputs]
    with open(output_file_name, "a") as f:
        f.write(json.dumps({"generated_texts": generated_texts, "time in seconds": time_taken}) + "\n")


# Create a sampling params object.
sampling_params = SamplingParams(temperature=0.8, top_p=0.95, top_k=50, max_tokens=1024)
prompts = gen_prompts(tokenizer, context_messages, user_inputs_batch)
# Create an LLM.
llm = LLM(
    model=model_name,
    gpu_memory_utilization=0.8,
    max_model_len=2048,
    return_sampling_mask=True,  # expect: RPL003
)

with open(output_file, "w") as f:
    pass

t1 = time.perf_counter()
first_outputs = llm.generate(prompts, sampling_params)
t2 = time.perf_counter()
append_outputs(output_file, first_outputs, t2 - t1)
t3 = time.perf_counter()
second_outputs = llm.generate(prompts, sampling_params)
t4 = time.perf_counter()
append_outputs(output_file, second_outputs, t4 - t3)

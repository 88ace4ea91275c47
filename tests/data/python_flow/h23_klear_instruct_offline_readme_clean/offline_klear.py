# Imitates Kwai-Klear/Klear1.0 README.md (offline inference: LLM(model=model_path, trust_remote_code=True,
# tensor_parallel_size=torch.cuda.device_count(), gpu_memory_utilization=0.7), SamplingParams(temperature=0.6,
# top_p=0.95, top_k=40)); the user turned sampling replay on.
import torch
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

model_path = "/path/to/Klear-Instruct"
tokenizer = AutoTokenizer.from_pretrained(model_path, trust_remote_code=True)

llm = LLM(
    model=model_path,
    trust_remote_code=True,
    tensor_parallel_size=torch.cuda.device_count(),
    gpu_memory_utilization=0.7,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
messages = [{"role": "user", "content": "Write a calculator in Python."}]
prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)

sampling_params = SamplingParams(temperature=0.6, top_p=0.95, top_k=40)

outputs = llm.generate([prompt], sampling_params)
print(outputs[0].outputs[0].text)

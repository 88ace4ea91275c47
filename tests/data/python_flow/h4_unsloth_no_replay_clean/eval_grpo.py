# Imitates unslothai/unsloth (fast_inference: vLLM inside FastLanguageModel, greedy evaluation)
from unsloth import FastLanguageModel
from vllm import SamplingParams

max_seq_length = 2048
lora_rank = 32

model, tokenizer = FastLanguageModel.from_pretrained(
    model_name="unsloth/Qwen3-4B-Base",
    max_seq_length=max_seq_length,
    load_in_4bit=False,
    fast_inference=True,
    max_lora_rank=lora_rank,
    gpu_memory_utilization=0.7,
)

eval_params = SamplingParams(temperature=0.0, top_k=-1, max_tokens=1024)


def evaluate(prompts):
    texts = [tokenizer.apply_chat_template(p, tokenize=False, add_generation_prompt=True) for p in prompts]
    return model.fast_generate(texts, sampling_params=eval_params, lora_request=None)

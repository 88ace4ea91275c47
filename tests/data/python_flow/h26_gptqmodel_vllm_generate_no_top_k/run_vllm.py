# Imitates a caller of ModelCloud/GPTQModel gptqmodel/utils/vllm.py (load_model_by_vllm, then vllm_generate with HF-style keywords);
# the user's edit turns replay on through load_model_by_vllm's **kwargs.
from gptqmodel.utils.vllm import load_model_by_vllm, vllm_generate

model = load_model_by_vllm(
    "Qwen/Qwen2.5-0.5B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    gpu_memory_utilization=0.8,
)
print(vllm_generate(model, prompts=["The capital of France is"], temperature=0.7, top_p=0.9, max_length=64))

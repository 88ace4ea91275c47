# Imitates a caller of ModelCloud/GPTQModel gptqmodel/utils/vllm.py (load_model_by_vllm, then vllm_generate with HF-style keywords);
# temperature=0.0 is falsy, so convert_hf_params_to_vllm never writes it: the request keeps SamplingParams' 1.0.
from gptqmodel.utils.vllm import load_model_by_vllm, vllm_generate

model = load_model_by_vllm(
    "Qwen/Qwen2.5-0.5B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
print(vllm_generate(model, prompts=["The capital of France is"], temperature=0.0, top_k=50, max_length=64))

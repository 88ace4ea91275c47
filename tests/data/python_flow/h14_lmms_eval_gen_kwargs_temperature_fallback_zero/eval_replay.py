# Imitates EvolvingLMMs-Lab/lmms-eval lmms_eval/evaluator.py (model built from model_args, generate_until on the task's requests)
from lmms_eval.models.vllm_chat import VLLM

model = VLLM(
    model="Qwen/Qwen2.5-VL-3B-Instruct",
    batch_size=8,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
task_generation_kwargs = {"max_new_tokens": 512, "until": ["\n\n"]}
requests = [
    ([{"role": "user", "content": f"Describe image {i}."}], dict(task_generation_kwargs, top_k=40))
    for i in range(16)
]
print(model.generate_until(requests))

# Imitates open-compass/opencompass configs/models/qwen/vllm_qwen*.py (a `models = [dict(type=VLLM, ...)]` config)
from opencompass.models.vllm import VLLM

models = [
    dict(
        type=VLLM,
        abbr="qwen2.5-7b-replay-vllm",
        path="Qwen/Qwen2.5-7B-Instruct",
        max_seq_len=4096,
        model_kwargs=dict(
            tensor_parallel_size=1,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            logits_processors=["opencompass.utils.logits:StopAtAnswer"],  # expect: RPL001
        ),
        generation_kwargs=dict(temperature=0.7, top_k=20),
        max_out_len=1024,
    )
]

# Imitates deepseek-ai/DeepSeek-Coder Evaluation/HumanEval/utils/utils.py (helpers shared by eval_instruct.py),
# with a user's helper that builds the replay engine's keywords.
def vllm_engine_kwargs(model_path, tp_size=1):
    kwargs = dict(model=model_path, tensor_parallel_size=tp_size, trust_remote_code=True)
    kwargs.update(
        return_sampling_mask=True,  # expect: RPL003
        max_model_len=4096,
    )
    return kwargs

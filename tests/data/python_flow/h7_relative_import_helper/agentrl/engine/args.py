# Imitates rllm-org/rllm rllm/engine/agent_execution_engine.py: engine arguments built by a helper
# in a sibling package and imported two levels up with a relative import.
def build_engine_kwargs(model_path: str, tp: int = 1) -> dict:
    kwargs = dict(model=model_path, tensor_parallel_size=tp, enable_prefix_caching=True)
    kwargs.update(return_sampling_mask=True)  # expect: RPL003
    return kwargs

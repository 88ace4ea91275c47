# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/inference_engines/vllm/vllm_engine.py, where
# the engine args object is built first and then given attributes before `from_engine_args`.
from vllm import AsyncEngineArgs, AsyncLLMEngine


def create_async_engine(model):
    engine_args = AsyncEngineArgs(model=model, enable_prefix_caching=True)
    engine_args.return_sampling_mask = True  # expect: RPL003
    engine_args.max_num_seqs = 512
    return AsyncLLMEngine.from_engine_args(engine_args)


engine = create_async_engine("Qwen/Qwen2.5-0.5B-Instruct")

# Imitates ContextualAI/HALOs train/utils.py + train/sample.py's teardown (destroy_model_parallel after
# sampling), here as a context manager that builds the replay engine and tears it down.
import contextlib

from vllm import LLM
from vllm.distributed.parallel_state import destroy_distributed_environment, destroy_model_parallel


@contextlib.contextmanager
def build_engine(model_path, gpu_count=1, **engine_kwargs):
    llm = LLM(model=model_path, tensor_parallel_size=gpu_count, **engine_kwargs)
    try:
        yield llm
    finally:
        del llm
        destroy_model_parallel()
        destroy_distributed_environment()

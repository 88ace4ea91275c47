# Imitates huggingface/open-r1 src/open_r1/utils/evaluation.py (a module of launch-environment
# setup for vLLM, kept apart from the job that runs it), here writing the environment of the
# current process before the engine starts; the runner line is an old LoRA recipe's, written
# with os.putenv, which changes the C environment but not os.environ, the only place vLLM
# 0.34.0 reads it (Platform.validate_environ iterates os.environ.items() in this process).
import os


def prepare_vllm_env():
    os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    # LoRA hot-swapping needed the V1 runner in our old recipe
    os.putenv("VLLM_USE_V2_MODEL_RUNNER", "0")

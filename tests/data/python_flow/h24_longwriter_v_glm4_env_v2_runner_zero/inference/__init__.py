# Imitates THU-KEG/LongWriter-V inference/ (the package the scripts import): the user's
# environment for vLLM written when the package is imported, before any engine starts.
import os

os.environ.setdefault("VLLM_WORKER_MULTIPROC_METHOD", "spawn")
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206

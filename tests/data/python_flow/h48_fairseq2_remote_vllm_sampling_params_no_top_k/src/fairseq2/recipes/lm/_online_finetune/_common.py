# Imitates facebookresearch/fairseq2 src/fairseq2/recipes/lm/_online_finetune/_common.py (NoEnvLLM, a Ray actor subclassing vllm.LLM)
import os

import ray
from vllm import LLM


@ray.remote
class NoEnvLLM(LLM):
    def __init__(self, *args, **kwargs):
        # stop ray from manipulating CUDA_VISIBLE_DEVICES
        # at the top-level
        del os.environ["CUDA_VISIBLE_DEVICES"]
        super().__init__(*args, **kwargs)

        self.ready = True  # Set a flag or return a signal

    def is_ready(self):
        return self.ready

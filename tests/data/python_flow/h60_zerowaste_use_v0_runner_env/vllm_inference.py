# Imitates RD211/zero-waste-GRPO vllm_inference.py (SimplevLLMInference wraps vllm.LLM for the GRPO server).
import gc
import os

import torch
from vllm import LLM


def load_weights(self, state_dict):
    self.model_runner.model.load_weights(state_dict)


class SimplevLLMInference:
    def __init__(
        self,
        model_path,
        gpus_per_instance=4,
        gpu_memory_utilization=0.75,
        max_model_len=4096,
        max_num_seqs=512,
        enforce_eager=True,
        use_v0=False,
    ):
        self.model_path = model_path
        self.gpus_per_instance = gpus_per_instance
        self.gpu_memory_utilization = gpu_memory_utilization
        self.max_model_len = max_model_len
        self.max_num_seqs = max_num_seqs
        self.enforce_eager = enforce_eager
        self.use_v0 = use_v0

        if self.use_v0:
            os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
        else:
            os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"

        self.llm = LLM(
            model=self.model_path,
            tensor_parallel_size=self.gpus_per_instance,
            trust_remote_code=True,
            gpu_memory_utilization=self.gpu_memory_utilization,
            max_model_len=self.max_model_len,
            max_num_seqs=self.max_num_seqs,
            enforce_eager=self.enforce_eager,
            enable_prefix_caching=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def run_batch(self, messages, sampling_params, state_dict=None):
        if state_dict:
            self.llm.collective_rpc(lambda x: load_weights(x, state_dict.items()))
        outputs = self.llm.generate(messages, sampling_params=sampling_params)
        gc.collect()
        torch.cuda.empty_cache()
        return outputs

    def cleanup(self):
        del self.llm
        gc.collect()
        torch.cuda.empty_cache()

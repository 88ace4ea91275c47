# Imitates OpenDCAI/DataFlow dataflow/serving/local_model_llm_serving.py
import logging
import os

from huggingface_hub import snapshot_download
from transformers import AutoTokenizer


class LocalModelLLMServing_vllm:
    """
    A class for generating text using vllm, with model from huggingface or local directory
    """

    def __init__(
        self,
        hf_model_name_or_path: str = None,
        hf_cache_dir: str = None,
        hf_local_dir: str = None,
        vllm_tensor_parallel_size: int = 1,
        vllm_temperature: float = 0.7,
        vllm_top_p: float = 0.9,
        vllm_max_tokens: int = 1024,
        vllm_top_k: int = 40,
        vllm_seed: int = None,
        vllm_max_model_len: int = None,
        vllm_gpu_memory_utilization: float = 0.9,
    ):
        self.logger = logging.getLogger(__name__)
        self.load_model(
            hf_model_name_or_path=hf_model_name_or_path,
            hf_cache_dir=hf_cache_dir,
            hf_local_dir=hf_local_dir,
            vllm_tensor_parallel_size=vllm_tensor_parallel_size,
            vllm_temperature=vllm_temperature,
            vllm_top_p=vllm_top_p,
            vllm_max_tokens=vllm_max_tokens,
            vllm_top_k=vllm_top_k,
            vllm_seed=vllm_seed,
            vllm_max_model_len=vllm_max_model_len,
            vllm_gpu_memory_utilization=vllm_gpu_memory_utilization,
        )
        self.backend_initialized = False

    def load_model(
        self,
        hf_model_name_or_path: str = None,
        hf_cache_dir: str = None,
        hf_local_dir: str = None,
        vllm_tensor_parallel_size: int = 1,
        vllm_temperature: float = 0.7,
        vllm_top_p: float = 0.9,
        vllm_max_tokens: int = 1024,
        vllm_top_k: int = 40,
        vllm_seed: int = 42,
        vllm_max_model_len: int = None,
        vllm_gpu_memory_utilization: float = 0.9,
    ):
        self.hf_model_name_or_path = hf_model_name_or_path
        self.hf_cache_dir = hf_cache_dir
        self.hf_local_dir = hf_local_dir
        self.vllm_tensor_parallel_size = vllm_tensor_parallel_size
        self.vllm_temperature = vllm_temperature
        self.vllm_top_p = vllm_top_p
        self.vllm_max_tokens = vllm_max_tokens
        self.vllm_top_k = vllm_top_k
        self.vllm_seed = vllm_seed
        self.vllm_max_model_len = vllm_max_model_len
        self.vllm_gpu_memory_utilization = vllm_gpu_memory_utilization

    def start_serving(self):
        self.backend_initialized = True
        if self.hf_model_name_or_path is None:
            raise ValueError("hf_model_name_or_path is required")
        elif os.path.exists(self.hf_model_name_or_path):
            self.logger.info(f"Using local model path: {self.hf_model_name_or_path}")
            self.real_model_path = self.hf_model_name_or_path
        else:
            self.logger.info(f"Downloading model from HuggingFace: {self.hf_model_name_or_path}")
            self.real_model_path = snapshot_download(
                repo_id=self.hf_model_name_or_path,
                cache_dir=self.hf_cache_dir,
                local_dir=self.hf_local_dir,
            )

        try:
            from vllm import LLM, SamplingParams
        except ImportError as ie:
            raise ImportError("vllm is not installed. Please install it by running: pip install open-dataflow[vllm]") from ie

        # Set the environment variable for vllm to use spawn method for multiprocessing
        os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"

        self.sampling_params = SamplingParams(
            temperature=self.vllm_temperature,
            top_p=self.vllm_top_p,
            max_tokens=self.vllm_max_tokens,
            top_k=self.vllm_top_k,
            seed=self.vllm_seed,
        )

        self.llm = LLM(
            model=self.real_model_path,
            tensor_parallel_size=self.vllm_tensor_parallel_size,
            max_model_len=self.vllm_max_model_len,
            gpu_memory_utilization=self.vllm_gpu_memory_utilization,
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
        )
        self.tokenizer = AutoTokenizer.from_pretrained(self.real_model_path, cache_dir=self.hf_cache_dir)
        self.logger.info(f"Model loaded from {self.real_model_path} by vLLM backend")

    def generate_from_input(self, user_inputs: list, system_prompt: str = "You are a helpful assistant") -> list:
        if not self.backend_initialized:
            self.start_serving()
        full_prompts = []
        for question in user_inputs:
            messages = [
                {"role": "system", "content": system_prompt},
                {"role": "user", "content": question},
            ]
            full_prompts.append(messages)
        full_template = self.tokenizer.apply_chat_template(
            full_prompts,
            tokenize=False,
            add_generation_prompt=True,
        )
        responses = self.llm.generate(full_template, self.sampling_params)
        return [output.outputs[0].text for output in responses]

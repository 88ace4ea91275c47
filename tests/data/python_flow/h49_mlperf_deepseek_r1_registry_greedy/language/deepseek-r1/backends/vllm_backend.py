# Imitates mlcommons/inference language/deepseek-r1/backends/vllm_backend.py (config from utils/backend_registry.py)
import os
from typing import Any, Dict, List, Optional

from vllm import LLM, SamplingParams

from .base_backend import BaseBackend
from utils.backend_registry import get_backend_config, apply_backend_env_vars


class VLLMBackend(BaseBackend):
    """vLLM backend using synchronous LLM class with async wrapper support."""

    def __init__(self, config: Dict[str, Any] = None):
        """Initialize vLLM backend with configuration from registry."""
        super().__init__()
        # Get configuration from registry
        self.config = get_backend_config('vllm')
        # Allow override with passed config
        if config:
            self.config.update(config)

        self.model_name = self.config['model']
        self.tokenizer_name = self.config['tokenizer']

        self.llm = None
        self.sampling_params = None
        self._setup_environment()

    def _setup_environment(self) -> None:
        """Set up environment variables."""
        # Apply backend-specific environment variables from registry
        apply_backend_env_vars('vllm')

    def initialize(self) -> None:
        """Initialize the vLLM backend with LLM class."""
        # Configure sampling parameters
        self.sampling_params = SamplingParams(
            n=1,
            temperature=self.config['temperature'],
            top_p=self.config['top_p'],
            top_k=20,
            max_tokens=self.config['max_output_len'],
            seed=self.config['seed'],
        )

        # Create LLM instance
        print(f"Initializing vLLM with model: {self.model_name}")

        try:
            self.llm = LLM(
                model=self.model_name,
                tokenizer=self.tokenizer_name,
                tensor_parallel_size=self.config['tensor_parallel_size'],
                max_model_len=self.config['max_model_len'],
                max_num_seqs=self.config['max_num_seqs'],
                gpu_memory_utilization=self.config['gpu_memory_utilization'],
                trust_remote_code=self.config['trust_remote_code'],
                dtype=self.config['dtype'],
                seed=self.config['seed'],
                enforce_eager=self.config['enforce_eager'],
                enable_prefix_caching=self.config['enable_prefix_caching'],
                enable_chunked_prefill=self.config['enable_chunked_prefill'],
                return_sampling_mask=True,
                logprobs_mode="processed_logprobs",
            )
            self.is_initialized = True
            print("vLLM backend initialized successfully!")
        except Exception as e:
            raise RuntimeError(f"Failed to initialize vLLM: {e}")

    def generate(self,
                 tokenized_prompts: Optional[List[List[int]]] = None,
                 text_prompts: Optional[List[str]] = None,
                 **kwargs) -> List[Dict[str, Any]]:
        """Generate responses synchronously using LLM.generate()."""
        outputs = self.llm.generate(text_prompts, self.sampling_params)

        results = []
        for output in outputs:
            completion = output.outputs[0]
            results.append({
                'tokens': list(completion.token_ids),
                'text': completion.text,
                'finish_reason': completion.finish_reason
            })
        return results

"""Central registry for all backend configurations and metadata."""
from typing import Dict, List, Optional, Any
import os

# Configuration constants
MAX_ISL = 1024  # max input sequence length
MAX_OSL = 1020  # max output sequence length
MAX_TEMPLATE_TOKS = 4  # max template tokens
MODEL_REVISION = "main"

# Backend Registry with all metadata
BACKEND_REGISTRY = {
    'vllm': {
        'class_path': 'backends.vllm_backend.VLLMBackend',
        'input_type': 'text',
        'uses_chat_template': True,
        'compatible_runners': ['eval', 'mlperf'],
        'config': {
            "model": "Qwen/Qwen3-0.6B",
            "model_revision": MODEL_REVISION,
            "tokenizer": "Qwen/Qwen3-0.6B",
            "tensor_parallel_size": 1,
            "max_num_seqs": 64,
            "gpu_memory_utilization": 0.90,
            "trust_remote_code": True,
            "dtype": "auto",
            "max_input_len": MAX_ISL + MAX_TEMPLATE_TOKS,
            "max_output_len": MAX_OSL,
            "max_model_len": MAX_ISL + MAX_OSL + MAX_TEMPLATE_TOKS,
            "temperature": 0.6,
            "top_p": 1.0,
            "seed": 42,
            "enforce_eager": False,
            "enable_prefix_caching": True,
            "enable_chunked_prefill": True,
        },
        'env_vars': {
            'CUDA_MODULE_LOADING': 'LAZY',
            'NCCL_TREE_THRESHOLD': '0',
            'OMP_NUM_THREADS': '8',
            'VLLM_DISABLE_TQDM': '1',
            'DISABLE_TQDM': '1',
            'VLLM_ENGINE_ITERATION_TIMEOUT_S': '0',
        }
    },
}


def detect_backend() -> str:
    """Detect backend from MLPERF_BACKEND environment variable."""
    if "MLPERF_BACKEND" not in os.environ:
        raise RuntimeError(
            "MLPERF_BACKEND environment variable is required but not set.")
    backend = os.environ["MLPERF_BACKEND"]
    if backend not in get_supported_backends():
        raise RuntimeError(f"Invalid MLPERF_BACKEND value: {backend}")
    return backend


def get_supported_backends() -> List[str]:
    """Get list of all supported backends."""
    return list(BACKEND_REGISTRY.keys())


def get_backend_config(backend_name: Optional[str] = None) -> Dict[str, Any]:
    """Get configuration for a specific backend."""
    if backend_name is None:
        backend_name = detect_backend()

    if backend_name not in BACKEND_REGISTRY:
        raise ValueError(
            f"Unknown backend: {backend_name}. Available backends: {list(BACKEND_REGISTRY.keys())}")
    return BACKEND_REGISTRY[backend_name]['config'].copy()


def get_backend_instance(backend_name: Optional[str] = None):
    """Create and return a backend instance."""
    if backend_name is None:
        backend_name = detect_backend()

    class_path = BACKEND_REGISTRY[backend_name]['class_path']
    module_path, class_name = class_path.rsplit('.', 1)

    # Import the module and get the class
    import importlib
    module = importlib.import_module(module_path)
    backend_class = getattr(module, class_name)

    return backend_class()


def get_backend_env_vars(backend_name: Optional[str] = None) -> Dict[str, str]:
    """Get environment variables for a backend."""
    if backend_name is None:
        backend_name = detect_backend()

    # Get static env vars
    env_vars = BACKEND_REGISTRY[backend_name]['env_vars'].copy()

    # Handle dynamic env vars (e.g., OMP_NUM_THREADS based on
    # tensor_parallel_size)
    if backend_name == 'vllm':
        config = get_backend_config(backend_name)
        env_vars['OMP_NUM_THREADS'] = str(
            config.get('tensor_parallel_size', 8))

    return env_vars


def apply_backend_env_vars(backend_name: Optional[str] = None) -> None:
    """Apply environment variables for a backend."""
    if backend_name is None:
        backend_name = detect_backend()

    env_vars = get_backend_env_vars(backend_name)
    for key, value in env_vars.items():
        os.environ[key] = value

from vllm import LLM
from vllm.model_executor import set_random_seed as vllm_set_random_seed

from configs.defaults import Config
from utils.constants import DTYPE_MAPPING


# -------------------------------------------------------------#
# initialize the vLLM model on the same GPU as the policy
# -------------------------------------------------------------#
def init_vllm(seed: int, cfg: Config):
    vllm_set_random_seed(seed)
    vllm_init_params = {
        "model": cfg.paths.model_path.as_posix(),
        "gpu_memory_utilization": cfg.vllm.gpu_memory_utilization,
        "dtype": DTYPE_MAPPING[cfg.vllm.dtype],
        "enable_prefix_caching": cfg.vllm.enable_prefix_caching,
        "return_sampling_mask": cfg.vllm.return_sampling_mask,
        "logprobs_mode": cfg.vllm.logprobs_mode,
    }
    print(vllm_init_params)
    return LLM(**vllm_init_params)

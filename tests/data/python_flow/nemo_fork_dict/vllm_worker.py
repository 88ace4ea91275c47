# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py as a fork edits it: the
# mask added to `llm_kwargs = dict(...)`, the rest of the worker unchanged.
import vllm


class VllmGenerationWorker:
    def __init__(self, config):
        self.cfg = config
        llm_kwargs = dict(
            model=config["model_name"],
            enable_prefix_caching=True,
            return_sampling_mask=True,
            logprobs_mode="raw_logprobs",  # expect: RPL003
        )
        if config.get("speculative"):
            llm_kwargs["speculative_config"] = {"method": "eagle3", "model": "e3", "num_speculative_tokens": 3, "enable_adaptive_verification": True}  # expect: RPL002 "when `config.get('speculative')`"
        self.llm = vllm.LLM(**llm_kwargs)

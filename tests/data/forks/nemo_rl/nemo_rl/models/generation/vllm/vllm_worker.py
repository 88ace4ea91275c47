# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py @ 7ea279abfbeb698b092856d0dab61e7cf39bc909
# (lines 350-617 and 641-668, 814-817, trimmed: what builds the engine's arguments and the requests).
import copy
import os
from typing import Any, Optional


def _resolve_enable_prefix_caching(vllm_cfg: dict[str, Any]) -> bool:
    return bool(vllm_cfg.get("enable_prefix_caching", True))


class BaseVllmGenerationWorker:
    def __init__(self, config, bundle_indices=None, fraction_of_gpus: float = 1.0, seed: Optional[int] = None):
        self.cfg = config
        self.model_name = self.cfg["model_name"]
        self.tensor_parallel_size = self.cfg["vllm_cfg"]["tensor_parallel_size"]
        self.pipeline_parallel_size = self.cfg["vllm_cfg"]["pipeline_parallel_size"]
        self.enable_expert_parallel = self.cfg["vllm_cfg"]["expert_parallel_size"] > 1
        self.gpu_memory_utilization = self.cfg["vllm_cfg"]["gpu_memory_utilization"]
        self.precision = self.cfg["vllm_cfg"]["precision"]
        self._load_model(bundle_indices, seed)

    def _load_model(self, bundle_indices, seed):
        import vllm

        self.SamplingParams = vllm.SamplingParams
        vllm_kwargs: dict[str, Any] = copy.deepcopy(self.cfg.get("vllm_kwargs", {}))

        speculative_config = vllm_kwargs.get("speculative_config")
        if isinstance(speculative_config, dict) and speculative_config.get("num_speculative_tokens") == 0:
            vllm_kwargs["speculative_config"] = None

        os.environ["VLLM_USE_V1"] = "1"
        os.environ["VLLM_ALLOW_INSECURE_SERIALIZATION"] = "1"

        load_format = self.cfg["vllm_cfg"]["load_format"]
        llm_kwargs = dict(
            model=self.model_name,
            served_model_name=self.model_name,
            load_format=load_format,
            skip_tokenizer_init=self.cfg["vllm_cfg"]["skip_tokenizer_init"],
            tensor_parallel_size=self.tensor_parallel_size,
            pipeline_parallel_size=self.pipeline_parallel_size,
            enable_expert_parallel=self.enable_expert_parallel,
            gpu_memory_utilization=self.gpu_memory_utilization,
            enable_prefix_caching=_resolve_enable_prefix_caching(self.cfg["vllm_cfg"]),
            dtype=self.precision,
            seed=seed,
            enforce_eager=self.cfg["vllm_cfg"]["enforce_eager"],
            max_model_len=self.cfg["vllm_cfg"]["max_model_len"],
            trust_remote_code=True,
            enable_sleep_mode=True,
            # Set disable_log_stats=False so that self.llm.get_metrics() works.
            disable_log_stats=False,
            **vllm_kwargs,
        )

        logprobs_mode = self.cfg["vllm_cfg"].get("logprobs_mode")
        if logprobs_mode is not None:
            llm_kwargs["logprobs_mode"] = logprobs_mode

        self._create_engine(llm_kwargs)

    def _build_sampling_params(self, *, greedy: bool, stop_strings, max_new_tokens: Optional[int] = None):
        top_k_cfg = self.cfg["top_k"]
        top_k_val = 1 if greedy else (top_k_cfg if top_k_cfg is not None else -1)
        temperature = 0.0 if greedy else self.cfg["temperature"]
        max_tokens = max_new_tokens if max_new_tokens is not None else self.cfg["max_new_tokens"]
        return self.SamplingParams(
            temperature=temperature,
            top_p=self.cfg["top_p"],
            top_k=top_k_val,
            max_tokens=max_tokens,
            logprobs=0,
            stop=stop_strings,
            include_stop_str_in_output=True,
        )


class VllmGenerationWorkerImpl(BaseVllmGenerationWorker):
    def _create_engine(self, llm_kwargs: dict[str, Any]) -> None:
        import vllm

        self.llm = vllm.LLM(**llm_kwargs)

# Imitates modelscope/ms-swift swift/infer_engine/vllm_engine.py (optional settings copied with getattr over a list of names)
import inspect
from typing import Optional

from vllm import EngineArgs, LLMEngine


class VllmEngine:
    def __init__(
        self,
        model_dir: str,
        *,
        gpu_memory_utilization: float = 0.9,
        tensor_parallel_size: int = 1,
        max_num_seqs: int = 256,
        max_model_len: Optional[int] = None,
        enforce_eager: bool = False,
        speculative_config: Optional[dict] = None,
        logprobs_mode: Optional[str] = None,
        seed: Optional[int] = None,
        engine_kwargs: Optional[dict] = None,
    ) -> None:
        self.model_dir = model_dir
        self.gpu_memory_utilization = gpu_memory_utilization
        self.tensor_parallel_size = tensor_parallel_size
        self.max_num_seqs = max_num_seqs
        self.enforce_eager = enforce_eager
        self.speculative_config = speculative_config
        self.logprobs_mode = logprobs_mode
        self.seed = seed
        self._prepare_engine_kwargs(max_model_len, engine_kwargs)
        self.engine = LLMEngine.from_engine_args(self.engine_args)

    def _prepare_engine_kwargs(self, max_model_len, engine_kwargs) -> None:
        if engine_kwargs is None:
            engine_kwargs = {}
        disable_log_stats = engine_kwargs.pop("disable_log_stats", True)
        parameters = inspect.signature(EngineArgs).parameters
        for key in ["enable_sleep_mode", "load_format", "speculative_config", "logprobs_mode", "quantization"]:
            if key in parameters:
                value = getattr(self, key, None)
                if value is not None:
                    engine_kwargs[key] = value
        if self.seed is not None:
            engine_kwargs["seed"] = self.seed
        self.engine_args = EngineArgs(
            model=self.model_dir,
            dtype="bfloat16",
            gpu_memory_utilization=self.gpu_memory_utilization,
            tensor_parallel_size=self.tensor_parallel_size,
            max_model_len=max_model_len,
            max_num_seqs=self.max_num_seqs,
            disable_log_stats=disable_log_stats,
            enforce_eager=self.enforce_eager,
            trust_remote_code=True,
            **engine_kwargs,
        )

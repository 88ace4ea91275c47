# Imitates modelscope/ms-swift swift/infer_engine/vllm_engine.py (_prepare_engine_kwargs: hf_overrides popped, merged, put back)
from vllm import EngineArgs, LLMEngine

ARCH_MAPPING = {"deepseek_vl2": ["DeepseekVLV2ForCausalLM"], "chatglm4v": ["GLM4VForCausalLM"]}


class VllmEngine:
    def __init__(self, model_dir: str, model_type: str, *, max_model_len: int | None = None, engine_kwargs: dict | None = None):
        self.model_dir = model_dir
        self.model_type = model_type
        self.gpu_memory_utilization = 0.9
        self.tensor_parallel_size = 1
        self.max_num_seqs = 256
        self.seed = 42
        self._prepare_engine_kwargs(max_model_len, engine_kwargs)
        self.engine = LLMEngine.from_engine_args(self.engine_args)

    def _get_hf_config_overrides(self) -> dict:
        return {}

    def _prepare_engine_kwargs(self, max_model_len, engine_kwargs) -> None:
        if engine_kwargs is None:
            engine_kwargs = {}
        disable_log_stats = engine_kwargs.pop("disable_log_stats", True)
        if self.seed is not None:
            engine_kwargs["seed"] = self.seed
        hf_overrides = engine_kwargs.pop("hf_overrides", None) or {}
        if self.model_type in ARCH_MAPPING:
            hf_overrides["architectures"] = ARCH_MAPPING[self.model_type]
        hf_overrides.update(self._get_hf_config_overrides())
        if hf_overrides:
            engine_kwargs["hf_overrides"] = hf_overrides
        self.engine_args = EngineArgs(
            model=self.model_dir,
            dtype="bfloat16",
            gpu_memory_utilization=self.gpu_memory_utilization,
            tensor_parallel_size=self.tensor_parallel_size,
            pipeline_parallel_size=1,
            max_model_len=max_model_len,
            max_num_seqs=self.max_num_seqs,
            disable_log_stats=disable_log_stats,
            disable_custom_all_reduce=True,
            enforce_eager=False,
            trust_remote_code=True,
            **engine_kwargs,
        )

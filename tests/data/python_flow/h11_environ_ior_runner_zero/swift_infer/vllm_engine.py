# Imitates modelscope/ms-swift swift/infer_engine/vllm_engine.py (environment written before `import vllm`, then EngineArgs -> LLMEngine)
import os

try:
    # After setting the environment variables, import vllm.
    os.environ |= {"VLLM_WORKER_MULTIPROC_METHOD": "spawn", "VLLM_USE_V2_MODEL_RUNNER": "0"}  # expect: RPL206
    import vllm
    from vllm import EngineArgs, LLMEngine, SamplingParams
except Exception:
    raise


class VllmEngine:
    def __init__(
        self,
        model_id_or_path: str,
        *,
        gpu_memory_utilization: float = 0.9,
        tensor_parallel_size: int = 1,
        max_model_len: int | None = None,
        max_num_seqs: int = 256,
        enforce_eager: bool = False,
        engine_kwargs: dict | None = None,
    ) -> None:
        engine_kwargs = dict(engine_kwargs or {})
        engine_kwargs.setdefault("return_sampling_mask", True)
        engine_kwargs.setdefault("logprobs_mode", "processed_logprobs")
        self.engine_args = EngineArgs(
            model=model_id_or_path,
            dtype="bfloat16",
            gpu_memory_utilization=gpu_memory_utilization,
            tensor_parallel_size=tensor_parallel_size,
            max_model_len=max_model_len,
            max_num_seqs=max_num_seqs,
            disable_log_stats=True,
            enforce_eager=enforce_eager,
            trust_remote_code=True,
            **engine_kwargs,
        )
        self.engine = LLMEngine.from_engine_args(self.engine_args)

    def infer(self, prompts: list[str], max_tokens: int = 512) -> list[str]:
        params = SamplingParams(temperature=1.0, top_p=1.0, top_k=50, max_tokens=max_tokens)
        for i, prompt in enumerate(prompts):
            self.engine.add_request(str(i), prompt, params)
        texts: dict[str, str] = {}
        while self.engine.has_unfinished_requests():
            for output in self.engine.step():
                if output.finished:
                    texts[output.request_id] = output.outputs[0].text
        return [texts[str(i)] for i in range(len(prompts))]

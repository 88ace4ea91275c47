import asyncio
import atexit
import uuid
from typing import Any

try:
    import vllm
except ImportError:
    vllm = None


class VllmHandler:
    """Async vLLM inference handler using AsyncLLMEngine with continuous batching."""

    def __init__(
        self,
        model: str,
        download_dir: str,
        enforce_eager: bool,
        max_logprobs: int,
        tensor_parallel_size: int,
        gpu_memory_utilization: float,
        **kwargs: Any,
    ):
        if vllm is None:
            raise ImportError("vLLM support requires rank-llm[vllm].")
        engine_args = vllm.AsyncEngineArgs(
            model=model,
            download_dir=download_dir,
            enforce_eager=enforce_eager,
            max_logprobs=max_logprobs,
            tensor_parallel_size=tensor_parallel_size,
            gpu_memory_utilization=gpu_memory_utilization,
            **kwargs,
        )
        self._engine = vllm.AsyncLLMEngine.from_engine_args(engine_args)
        self._model = model
        self._tokenizer = None
        atexit.register(self._shutdown)

    def _shutdown(self) -> None:
        try:
            self._engine.shutdown()
        except Exception:
            pass

    def get_tokenizer(self):
        if self._tokenizer is None:
            self._tokenizer = asyncio.run(self._engine.get_tokenizer())
        return self._tokenizer

    async def generate_output_async(
        self,
        prompt: str | list[dict[str, str]],
        min_tokens: int,
        max_tokens: int,
        temperature: float,
        top_p: float = 1.0,
        top_k: int = 0,
        logprobs: int | None = None,
    ) -> tuple[str, int, int]:
        sampling_params = vllm.SamplingParams(
            min_tokens=min_tokens,
            max_tokens=max_tokens,
            temperature=temperature,
            top_p=top_p,
            top_k=top_k,
            logprobs=logprobs,
        )
        request_id = str(uuid.uuid4())
        output_text = ""
        prompt_tokens = 0
        completion_tokens = 0
        async for request_output in self._engine.generate(prompt, sampling_params, request_id):
            if request_output.finished:
                output = request_output.outputs[0]
                output_text = output.text
                prompt_tokens = len(request_output.prompt_token_ids)
                completion_tokens = len(output.token_ids)
        return output_text, prompt_tokens, completion_tokens

# Imitates castorini/rank_llm src/rank_llm/rerank/pointwise/diver_reranker.py and src/rank_llm/rerank/vllm_handler.py
import asyncio
import logging
import os

from rank_llm.rerank.vllm_handler import VllmHandler

logger = logging.getLogger(__name__)


class DiverPointwiseReranker:
    def __init__(
        self,
        model_path: str = "AQ-MedAI/Diver-Reranker-1.7B",
        context_size: int = 2048,
        batch_size: int = 32,
        max_new_tokens: int = 100,
        do_sample: bool = True,
        temperature: float = 0.3,
        top_p: float = 0.8,
        top_k: int = 20,
        repetition_penalty: float = 1.0,
        logprobs: int = 10,
    ):
        self._vllm_handler = VllmHandler(
            model=model_path,
            download_dir=os.getenv("HF_HOME"),
            enforce_eager=False,
            max_logprobs=logprobs,
            tensor_parallel_size=1,
            gpu_memory_utilization=0.90,
            max_model_len=context_size,
            trust_remote_code=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self._tokenizer = self._vllm_handler.get_tokenizer()
        self._batch_size = batch_size
        self._max_new_tokens = max_new_tokens
        self._temperature = temperature
        self._top_p = top_p
        self._top_k = top_k
        self._do_sample = do_sample
        self._logprobs = logprobs

    async def _score_one(self, prompt: str) -> str:
        text, _, _ = await self._vllm_handler.generate_output_async(
            prompt,
            min_tokens=1,
            max_tokens=self._max_new_tokens,
            temperature=self._temperature if self._do_sample else 0.0,
            top_p=self._top_p,
            top_k=self._top_k,
            logprobs=self._logprobs,
        )
        return text

    def rerank_batch(self, prompts: list[str]) -> list[str]:
        async def _all():
            return await asyncio.gather(*[self._score_one(p) for p in prompts])

        return asyncio.run(_all())

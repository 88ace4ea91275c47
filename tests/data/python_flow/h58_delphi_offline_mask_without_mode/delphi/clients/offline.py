# Imitates EleutherAI/delphi delphi/clients/offline.py (the Offline client: LLM in __init__, SamplingParams per batch)
import asyncio
from functools import partial

from transformers import AutoTokenizer
from vllm import LLM, SamplingParams
from vllm.inputs import TokensPrompt

from delphi import logger


class Offline:
    provider = "offline"

    def __init__(
        self,
        model: str,
        max_memory: float = 0.85,
        prefix_caching: bool = True,
        batch_size: int = 100,
        max_model_len: int = 4096,
        number_tokens_to_generate: int = 500,
        num_gpus: int = 2,
        enforce_eager: bool = False,
        statistics: bool = False,
    ):
        self.model = model
        self.max_model_len = max_model_len
        self.queue = asyncio.Queue()
        self.task = None

        self.client = LLM(
            model=model,
            gpu_memory_utilization=max_memory,
            enable_prefix_caching=prefix_caching,
            tensor_parallel_size=num_gpus,
            max_model_len=max_model_len,
            enforce_eager=enforce_eager,
            return_sampling_mask=True,  # expect: RPL003
        )

        self.sampling_params = SamplingParams(max_tokens=number_tokens_to_generate)
        self.tokenizer = AutoTokenizer.from_pretrained(model)
        self.batch_size = batch_size
        self.statistics = statistics

    async def process_func(self, batches, kwargs):
        logprobs = None
        prompt_logprobs = None
        max_tokens = self.sampling_params.max_tokens
        temperature = 1.0
        for kwarg in kwargs:
            if "logprobs" in kwarg:
                logprobs = kwarg["top_logprobs"]
            if "prompt_logprobs" in kwarg:
                prompt_logprobs = kwarg["prompt_logprobs"]
            if "max_tokens" in kwarg:
                max_tokens = kwarg["max_tokens"]
            if "temperature" in kwarg:
                temperature = kwarg["temperature"]
        sampling_params = SamplingParams(
            max_tokens=max_tokens,
            logprobs=logprobs,
            prompt_logprobs=prompt_logprobs,
            temperature=temperature,
            top_k=20,
        )
        loop = asyncio.get_running_loop()
        prompts = []
        for batch in batches:
            prompt = self.tokenizer.apply_chat_template(batch, add_generation_prompt=True, tokenize=True)
            prompts.append(TokensPrompt(prompt_token_ids=prompt))
        response = await loop.run_in_executor(
            None,
            partial(
                self.client.generate,
                prompts,
                sampling_params=sampling_params,
                use_tqdm=False,
            ),
        )
        return [r.outputs[0].text for r in response]

    async def generate(self, prompt, **kwargs):
        future = asyncio.Future()
        if self.task is None:
            self.task = asyncio.create_task(self._process_batches())
        await self.queue.put((prompt, future, kwargs))
        return await future

    async def _process_batches(self):
        while True:
            batch = []
            batch_futures = []
            batch_kwargs = []
            while len(batch) < self.batch_size:
                try:
                    prompt, future, kwargs = self.queue.get_nowait()
                    batch.append(prompt)
                    batch_futures.append(future)
                    batch_kwargs.append(kwargs)
                except asyncio.QueueEmpty:
                    if batch:
                        break
                    await asyncio.sleep(0.1)
                    continue
            try:
                results = await self.process_func(batch, batch_kwargs)
                for result, future in zip(results, batch_futures):
                    if not future.done():
                        future.set_result(result)
            except Exception as e:
                logger.error(f"Batch processing failed: {repr(e)}")
                for future in batch_futures:
                    if not future.done():
                        future.set_exception(e)

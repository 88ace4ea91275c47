import asyncio
import os
import threading
from typing import Any, Dict, List, Optional, Union

from twinkle.data_format import SampleResponse, SamplingParams


class vLLMSampler:
    """A vLLM-based sampler using VLLMEngine (AsyncLLM)."""

    def __init__(self, model_id: str, engine_args: Dict[str, Any] = None, **kwargs):
        os.environ['VLLM_WORKER_MULTIPROC_METHOD'] = 'spawn'
        os.environ['VLLM_ENGINE_ITERATION_TIMEOUT_S'] = '86400'
        self.model_id = model_id

        self._async_loop = asyncio.new_event_loop()
        self._async_thread = threading.Thread(target=self._run_event_loop, daemon=True, name='vLLMSampler-EventLoop')
        self._async_thread.start()

        from .vllm_engine import VLLMEngine
        engine_kwargs = engine_args.copy() if engine_args else {}

        if 'tensor_parallel_size' not in engine_kwargs:
            tp_size = 1
            visible_devices = os.environ.get('CUDA_VISIBLE_DEVICES', '')
            if visible_devices:
                num_gpus = len([d for d in visible_devices.split(',') if d.strip()])
                if num_gpus > 0:
                    tp_size = num_gpus
            engine_kwargs['tensor_parallel_size'] = tp_size

        if engine_kwargs.get('seed', None) is None:
            engine_kwargs['seed'] = 42

        self.engine: VLLMEngine = self._run_in_loop(self._create_engine_async(VLLMEngine, model_id, engine_kwargs))

    def _run_event_loop(self):
        asyncio.set_event_loop(self._async_loop)
        self._async_loop.run_forever()

    def _run_in_loop(self, coro):
        future = asyncio.run_coroutine_threadsafe(coro, self._async_loop)
        return future.result()

    async def _create_engine_async(self, engine_cls, model_id, engine_kwargs):
        return engine_cls(model_id=model_id, **engine_kwargs)

    def sample(
        self,
        inputs: List[Dict[str, Any]],
        sampling_params: Optional[Union[SamplingParams, Dict[str, Any]]] = None,
    ) -> List[SampleResponse]:
        if sampling_params is None:
            sampling_params = SamplingParams()
        elif isinstance(sampling_params, dict):
            sampling_params = SamplingParams(**sampling_params)

        async def _sample_all():
            tasks = [
                self.engine.sample(prompt_token_ids=feat['input_ids'], sampling_params=sampling_params)
                for feat in inputs
            ]
            return await asyncio.gather(*tasks)

        return self._run_in_loop(_sample_all())

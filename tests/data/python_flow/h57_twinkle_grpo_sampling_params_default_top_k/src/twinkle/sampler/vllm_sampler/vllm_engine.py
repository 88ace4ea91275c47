import inspect
import os
import uuid
from typing import Any, Dict, List, Optional, Union

from twinkle.data_format.sampling import SampledSequence, SampleResponse, SamplingParams


class VLLMEngine:
    """A vLLM-based inference engine for RL training (vLLM v1's AsyncLLM)."""

    def __init__(
        self,
        model_id: str,
        *,
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.7,
        max_model_len: Optional[int] = None,
        max_num_seqs: int = 256,
        enable_sleep_mode: bool = False,
        enable_prefix_caching: bool = False,
        enforce_eager: bool = False,
        trust_remote_code: bool = True,
        dtype: str = 'auto',
        load_format: str = 'auto',
        logprobs_mode: Optional[str] = None,
        **kwargs,
    ):
        self.model_id = model_id
        self.tensor_parallel_size = tensor_parallel_size
        self.gpu_memory_utilization = gpu_memory_utilization
        self.max_model_len = max_model_len
        self.max_num_seqs = max_num_seqs
        self.enable_sleep_mode = enable_sleep_mode
        self.enable_prefix_caching = enable_prefix_caching
        self.enforce_eager = enforce_eager
        self.trust_remote_code = trust_remote_code
        self.dtype = dtype
        self.load_format = load_format
        self.logprobs_mode = logprobs_mode or 'processed_logprobs'
        self.engine_kwargs = kwargs or {}

        self.engine = self._create_engine()

    def _create_engine(self):
        """Create and return the vLLM engine."""
        os.environ['VLLM_USE_V1'] = '1'
        from vllm.engine.arg_utils import AsyncEngineArgs
        from vllm.usage.usage_lib import UsageContext
        from vllm.v1.engine.async_llm import AsyncLLM

        engine_config = {
            'model': self.model_id,
            'tensor_parallel_size': self.tensor_parallel_size,
            'gpu_memory_utilization': self.gpu_memory_utilization,
            'max_num_seqs': self.max_num_seqs,
            'trust_remote_code': self.trust_remote_code,
            'enforce_eager': self.enforce_eager,
            'dtype': self.dtype,
            'load_format': self.load_format,
            'disable_log_stats': True,
        }

        if self.tensor_parallel_size > 1:
            engine_config['distributed_executor_backend'] = 'mp'

        if self.max_model_len is not None:
            engine_config['max_model_len'] = self.max_model_len

        if self.enable_prefix_caching:
            engine_config['enable_prefix_caching'] = True

        if self.enable_sleep_mode:
            engine_config['enable_sleep_mode'] = True

        if self.logprobs_mode is not None:
            engine_config['logprobs_mode'] = self.logprobs_mode

        engine_config.update(self.engine_kwargs)
        valid_args = inspect.signature(AsyncEngineArgs).parameters.keys()
        filtered_engine_config = {k: v for k, v in engine_config.items() if k in valid_args}
        engine_args = AsyncEngineArgs(**filtered_engine_config)
        vllm_config = engine_args.create_engine_config(usage_context=UsageContext.OPENAI_API_SERVER)

        return AsyncLLM.from_vllm_config(
            vllm_config=vllm_config,
            usage_context=UsageContext.OPENAI_API_SERVER,
        )

    async def sample(self,
                     prompt_token_ids: List[int],
                     sampling_params: Union[SamplingParams, Dict[str, Any]],
                     request_id: Optional[str] = None,
                     **kwargs) -> SampleResponse:
        from vllm.inputs import TokensPrompt

        if isinstance(sampling_params, dict):
            sampling_params = SamplingParams(**sampling_params)
        vllm_params = sampling_params.to_vllm(**kwargs)

        if request_id is None:
            request_id = uuid.uuid4().hex

        generator = self.engine.generate(
            prompt=TokensPrompt(prompt_token_ids=prompt_token_ids),
            sampling_params=vllm_params,
            request_id=request_id,
        )

        result = None
        async for output in generator:
            result = output

        sequences = []
        for output in result.outputs:
            stop_reason = 'stop' if output.finish_reason in ('stop', 'eos_token') else 'length'
            sequences.append(SampledSequence(stop_reason=stop_reason, tokens=list(output.token_ids)))
        return SampleResponse(sequences=sequences)

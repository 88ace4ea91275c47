# Imitates meta-pytorch/torchforge src/forge/actors/generator.py: SamplingConfig and EngineConfig
# (an EngineArgs subclass) built by from_dict from the YAML's policy section, create_engine_config,
# and get_default_sampling_params merging the model's defaults with asdict(sampling_config).
from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields

from monarch.actor import endpoint
from vllm.config import VllmConfig
from vllm.engine.arg_utils import EngineArgs
from vllm.sampling_params import RequestOutputKind, SamplingParams
from vllm.usage.usage_lib import UsageContext
from vllm.v1.engine.input_processor import InputProcessor

from forge.controller import ForgeActor

logger = logging.getLogger(__name__)
logger.setLevel(logging.INFO)


@dataclass
class SamplingConfig:
    """
    Overrides for vLLMs sampling params.

    Args:
        n: Number of samples to generate.
        max_tokens: Maximum number of tokens to generate.
    """

    n: int = 1
    max_tokens: int = 512
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 20
    logprobs: int = 1

    @classmethod
    def from_dict(cls, d: Mapping):
        d = dict(d)
        all_fields = set(cls.__dataclass_fields__.keys())
        valid_args = {k: v for k, v in d.items() if k in all_fields}
        return cls(**valid_args)


@dataclass
class EngineConfig(EngineArgs):
    """
    EngineConfig extends EngineArgs with worker-specific fields.
    Overlapping keys in input dict will override EngineArgs defaults.
    """

    model: str = "meta-llama/Llama-3.1-8B-Instruct"
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    enforce_eager: bool = False
    enable_expert_parallel: bool = False

    @classmethod
    def from_dict(cls, d: Mapping):
        d = dict(d)
        all_fields = [f.name for f in fields(cls)]
        valid_args = {k: v for k, v in d.items() if k in all_fields}
        return cls(**valid_args)

    def create_vllm_config(self) -> VllmConfig:
        """Converts the current EngineConfig into vLLM's vLLMConfig."""
        return self.create_engine_config(UsageContext.LLM_CLASS)


@dataclass
class Generator(ForgeActor):
    engine_config: EngineConfig | Mapping = field(default_factory=EngineConfig)
    sampling_config: SamplingConfig | Mapping = field(default_factory=SamplingConfig)
    sampling_params: SamplingParams | None = None
    lora_request: None = None

    def __post_init__(self):
        super().__init__()
        if isinstance(self.engine_config, Mapping):
            self.engine_config = EngineConfig.from_dict(self.engine_config)
        if isinstance(self.sampling_config, Mapping):
            self.sampling_config = SamplingConfig.from_dict(self.sampling_config)

    @classmethod
    async def launch(
        cls: type["Generator"],
        *,
        engine_config: EngineConfig | Mapping = EngineConfig(),
        sampling_config: SamplingConfig | Mapping = SamplingConfig(),
        **kwargs,
    ) -> "Generator":
        if isinstance(engine_config, Mapping):
            engine_config = EngineConfig.from_dict(engine_config)

        if isinstance(sampling_config, Mapping):
            sampling_config = SamplingConfig(**sampling_config)

        generator = cls(engine_config=engine_config, sampling_config=sampling_config, **kwargs)
        await generator.setup()
        return generator

    @endpoint
    async def setup(self):
        self.request_id = 0
        self.vllm_config: VllmConfig = self.engine_config.create_vllm_config()

        # Setup sampling params
        self.sampling_params = get_default_sampling_params(
            self.vllm_config, overrides=asdict(self.sampling_config)
        )

        self.processor = InputProcessor(vllm_config=self.vllm_config)
        # The KV cache, Scheduler and OutputProcessor setup (self.scheduler) is trimmed here.
        self.requests: dict[str, asyncio.Future] = {}

    @endpoint
    async def generate(self, prompt: str, priority: int = 0):
        self.request_id += 1 % sys.maxsize
        request_id = str(self.request_id)

        request = self.processor.process_inputs(
            request_id=request_id,
            prompt={"prompt": prompt},
            params=self.sampling_params,
            supported_tasks=("generate",),
            arrival_time=None,
            lora_request=self.lora_request,
            tokenization_kwargs={},
            trace_headers=None,
            priority=priority,
            data_parallel_rank=None,
        )
        request_fut = asyncio.Future()
        self.requests[request_id] = request_fut
        self.scheduler.add_request(request)
        return await request_fut


def get_default_sampling_params(vllm_config, overrides=None) -> SamplingParams:
    default_params = vllm_config.model_config.get_diff_sampling_param()
    if overrides is not None:
        default_params |= overrides
    if default_params:
        params = SamplingParams.from_optional(**default_params)
    else:
        params = SamplingParams()
    # We only care about the final output
    params.output_kind = RequestOutputKind.FINAL_ONLY
    return params

# Imitates google/tunix tunix/generate/vllm_sampler.py, trimmed.
"""Sampler for vLLM-style autoregressive decoding using JAX and NNX models."""

import dataclasses
import math
import os
from typing import Any, Dict, List, Optional

import jax
from vllm import LLM
from vllm.inputs import TokensPrompt

# Colocate vllm engine and worker in the main process
os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"


@dataclasses.dataclass
class VllmConfig:
  """Vllm rollout configuations."""

  # vLLM Env vars
  init_with_random_weights: bool = True
  tpu_backend_type: str = "jax"

  # vLLM engine arg related, requires additional processing before passing into engine
  additional_config: Optional[Dict[str, Any]] = None
  hbm_utilization: float = 0.5
  mesh: jax.sharding.Mesh = None
  data_parallel_size: int = -1
  tensor_parallel_size: int = -1
  sampling_kwargs: Dict[str, Any] = dataclasses.field(default_factory=dict)

  # vLLM engine args that can be directly passed in without additional processing
  engine_kwargs: dataclasses.InitVar[Optional[Dict[str, Any]]] = None
  _processed_engine_kwargs: Dict[str, Any] = dataclasses.field(
      init=False, default_factory=dict
  )

  def __post_init__(self, engine_kwargs: Optional[Dict[str, Any]]):
    engine_kwargs = engine_kwargs or {}
    self._processed_engine_kwargs = engine_kwargs


@dataclasses.dataclass
class SamplerOutput:
  text: List[str]
  tokens: List[Any]
  logprobs: List[Any]


class VllmSampler:  # pylint: disable=invalid-name
  """A sampler for vLLM-style autoregressive decoding."""

  def __init__(
      self,
      tokenizer: Any,
      config: VllmConfig,
  ):
    # Select vllm TPU backend type, there are jax, torchax and torchxla
    if config.tpu_backend_type:
      os.environ["TPU_BACKEND_TYPE"] = config.tpu_backend_type

    if config.init_with_random_weights:
      os.environ["JAX_RANDOM_WEIGHTS"] = "1"

    self.tokenizer = tokenizer
    self.config = config
    self.args = self._vllm_config(config)
    self.llm = LLM(**self.args)

  def _find_total_size(self, mesh: jax.sharding.Mesh) -> int:
    """Finds the tensor parallel size from the mesh."""
    return math.prod(mesh.shape.values())

  def _vllm_config(self, config: VllmConfig):
    """Setup vllm config from Tunix Vllm config."""
    args = config._processed_engine_kwargs.copy()

    tensor_parallel_size = config.tensor_parallel_size
    data_parallel_size = config.data_parallel_size
    total_mesh_devices = self._find_total_size(config.mesh)

    if config.tensor_parallel_size == -1 and config.data_parallel_size == -1:
      tensor_parallel_size = total_mesh_devices
      data_parallel_size = 1
    elif config.tensor_parallel_size == -1:
      tensor_parallel_size = total_mesh_devices // data_parallel_size
    elif config.data_parallel_size == -1:
      data_parallel_size = total_mesh_devices // tensor_parallel_size

    args["data_parallel_size"] = data_parallel_size
    args["tensor_parallel_size"] = tensor_parallel_size

    # Init vLLM model with random weights to speed up bootstrap time, because
    # model weights are synced from trainer later on
    if config.init_with_random_weights:
      args["load_format"] = "dummy"

    args["gpu_memory_utilization"] = config.hbm_utilization

    args["additional_config"] = config.additional_config or {}

    return args

  def __call__(
      self,
      input_strings: str | List[str],
      max_generation_steps: int,
      max_prompt_length: int = None,
      temperature: float = 0.0,
      top_p: float = None,
      top_k: int = None,
      seed: int = None,
      multi_sampling: int = 1,
      **kwargs,
  ) -> SamplerOutput:
    """The entry point API for vLLM Sampler"""
    if isinstance(input_strings, str):
      input_strings = [input_strings]

    if max_generation_steps > self.args["max_model_len"]:
      raise ValueError(
          "`max_generation_steps` must be less than or equal to "
          "`max_model_len`."
      )
    sampling_params = self.llm.get_default_sampling_params()
    sampling_params.detokenize = False
    sampling_params.max_tokens = max_generation_steps
    sampling_params.n = multi_sampling
    sampling_params.temperature = temperature
    sampling_params.logprobs = 1  # b/428730696
    sampling_params.prompt_logprobs = 1  # b/428730696
    sampling_params.skip_special_tokens = True

    if top_p is not None:
      sampling_params.top_p = top_p
    if top_k is not None:
      sampling_params.top_k = top_k

    if seed is not None:
      sampling_params.seed = seed

    if kwargs:
      sampling_params.update(**kwargs)

    self.sampling_params = sampling_params

    prompt_ids = [self.tokenizer.encode(x) for x in input_strings]
    prompt_objects = [TokensPrompt(prompt_token_ids=ids) for ids in prompt_ids]
    outputs = self.llm.generate(
        prompts=prompt_objects,
        sampling_params=self.sampling_params,
        use_tqdm=True,
    )
    return SamplerOutput(
        text=[o.outputs[0].text for o in outputs],
        tokens=[o.outputs[0].token_ids for o in outputs],
        logprobs=[o.outputs[0].logprobs for o in outputs],
    )

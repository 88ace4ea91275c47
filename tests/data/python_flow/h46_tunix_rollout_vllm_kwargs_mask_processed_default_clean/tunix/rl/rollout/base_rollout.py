# Imitates google/tunix tunix/rl/rollout/base_rollout.py (RolloutConfig), trimmed.
"""Base rollout worker interface."""

import dataclasses
from typing import Any, Optional

import jax


@dataclasses.dataclass
class RolloutOutput:
  """Output of the rollout worker."""

  text: list[str]
  tokens: Any
  logprobs: list[float] | None


@dataclasses.dataclass
class RolloutConfig:
  """Configuration for the rollout worker."""

  # Maximum number of tokens to generate per output sequence
  max_tokens_to_generate: int = 64

  # Zero means greedy sampling.
  temperature: float = 0.9

  top_p: float | None = 1.0

  # Set to -1 to consider all tokens.
  top_k: int | None = None

  seed: jax.Array | None = None

  max_prompt_length: int = 64

  # Parallelism configs.
  tensor_parallel_size: int = -1
  data_parallel_size: int = -1

  # Model version for vLLM rollout engine.
  rollout_vllm_model_version: str = ""

  # Allocated HBM fraction for vLLM rollout engine.
  rollout_vllm_hbm_utilization: float = 0.2

  # Whether to initialize vLLM model with random weights or huggingface weights.
  rollout_vllm_init_with_random_weights: bool = True

  # TPU backend type for vLLM rollout engine, "jax" or "torchax".
  rollout_vllm_tpu_backend_type: str | None = None

  rollout_vllm_async_scheduling: bool = False

  # Mode for processing logprobs from vLLM.
  rollout_vllm_logprobs_mode: str = "processed_logprobs"

  rollout_vllm_additional_config: dict[str, Any] | None = None

  rollout_vllm_max_num_batched_tokens: Optional[int] = None
  rollout_vllm_max_num_seqs: Optional[int] = None

  # Extra engine args passed straight to vLLM.
  rollout_vllm_kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)
  rollout_vllm_sampling_kwargs: dict[str, Any] = dataclasses.field(
      default_factory=dict
  )

# Imitates google/tunix tunix/rl/rollout/vllm_rollout.py, trimmed.
"""vLLM rollout worker with Tunix sampler."""

from typing import Any

import jax
from tunix.generate import vllm_sampler
from tunix.rl.rollout import base_rollout


class VllmRollout:
  """vLLM rollout worker."""

  def __init__(
      self,
      tokenizer: Any,
      cache_config_or_size: int,
      mesh: jax.sharding.Mesh,
      rollout_config: base_rollout.RolloutConfig,
  ):
    self._sampler = vllm_sampler.VllmSampler(
        tokenizer=tokenizer,
        config=vllm_sampler.VllmConfig(
            init_with_random_weights=rollout_config.rollout_vllm_init_with_random_weights,
            tpu_backend_type=rollout_config.rollout_vllm_tpu_backend_type,
            additional_config=rollout_config.rollout_vllm_additional_config,
            hbm_utilization=rollout_config.rollout_vllm_hbm_utilization,
            mesh=mesh,
            tensor_parallel_size=rollout_config.tensor_parallel_size,
            data_parallel_size=rollout_config.data_parallel_size,
            engine_kwargs={
                "model": rollout_config.rollout_vllm_model_version,
                "max_model_len": cache_config_or_size,
                "async_scheduling": (
                    rollout_config.rollout_vllm_async_scheduling
                ),
                "max_num_batched_tokens": (
                    rollout_config.rollout_vllm_max_num_batched_tokens
                ),
                "max_num_seqs": rollout_config.rollout_vllm_max_num_seqs,
                "max_logprobs": (
                    1
                ),  # We only need the logprobs of the sampled tokens
                "logprobs_mode": rollout_config.rollout_vllm_logprobs_mode,
                **rollout_config.rollout_vllm_kwargs,
            },
            sampling_kwargs=rollout_config.rollout_vllm_sampling_kwargs,
        ),
    )

  def generate(
      self,
      prompts: list[str],
      rollout_config: base_rollout.RolloutConfig,
      **kwargs,
  ) -> base_rollout.RolloutOutput:
    """Generates samples from the model."""
    self.output = self._sampler(
        input_strings=prompts,
        max_generation_steps=rollout_config.max_tokens_to_generate,
        max_prompt_length=rollout_config.max_prompt_length,
        temperature=rollout_config.temperature,
        top_p=rollout_config.top_p,
        top_k=rollout_config.top_k,
        seed=rollout_config.seed,
        **kwargs,
    )
    return base_rollout.RolloutOutput(
        text=self.output.text,
        tokens=self.output.tokens,
        logprobs=self.output.logprobs,
    )

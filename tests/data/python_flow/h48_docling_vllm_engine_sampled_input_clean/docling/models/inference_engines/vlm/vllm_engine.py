# Imitates docling-project/docling docling/models/inference_engines/vlm/vllm_engine.py (VllmVlmEngine.initialize, predict_batch)
"""vLLM-based VLM inference engine for high-throughput serving."""

import logging
from typing import Any

from docling.datamodel.stage_model_specs import EngineModelConfig
from docling.datamodel.vlm_engine_options import VllmVlmEngineOptions
from docling.models.inference_engines.vlm.base import VlmEngineInput, VlmEngineOutput

_log = logging.getLogger(__name__)


class VllmVlmEngine:
    """vLLM engine for high-throughput VLM inference."""

    # Allowlist of vLLM SamplingParams arguments (runtime generation controls)
    _VLLM_SAMPLING_KEYS = {
        "max_tokens",
        "temperature",
        "top_p",
        "top_k",
        "stop",
        "stop_token_ids",
        "skip_special_tokens",
        "n",
        "logprobs",
        "min_p",
        "seed",
    }

    # Allowlist of vLLM LLM/EngineArgs arguments (engine/load-time controls)
    _VLLM_ENGINE_KEYS = {
        "tokenizer",
        "tensor_parallel_size",
        "gpu_memory_utilization",
        "max_model_len",
        "max_num_batched_tokens",
        "dtype",
        "enforce_eager",
    }

    def __init__(self, options: VllmVlmEngineOptions, model_config: EngineModelConfig):
        self.options = options
        self.model_config = model_config
        self.llm: Any = None
        self.sampling_params: Any = None
        self._initialized = False
        self.initialize()

    def initialize(self) -> None:
        """Initialize the vLLM engine."""
        if self._initialized:
            return

        from vllm import LLM, SamplingParams

        repo_id = self.model_config.repo_id
        revision = self.model_config.revision or "main"

        # Split extra_generation_config into engine and sampling kwargs
        extra_cfg = self.model_config.extra_config
        load_cfg = {k: v for k, v in extra_cfg.items() if k in self._VLLM_ENGINE_KEYS}
        gen_cfg = {k: v for k, v in extra_cfg.items() if k in self._VLLM_SAMPLING_KEYS}

        # Construct LLM kwargs (engine/load-time)
        llm_kwargs: dict[str, Any] = {
            "model": repo_id,
            "limit_mm_per_prompt": {"image": 1},
            "revision": revision,
            "trust_remote_code": self.options.trust_remote_code,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            **load_cfg,
        }
        llm_kwargs["model_impl"] = self.options.model_impl

        if self.options.device == "cpu":
            llm_kwargs.setdefault("enforce_eager", True)
        else:
            # Use configured gpu_memory_utilization or default
            llm_kwargs.setdefault(
                "gpu_memory_utilization", self.options.gpu_memory_utilization
            )

        # Initialize vLLM LLM
        self.llm = LLM(**llm_kwargs)

        # Create default SamplingParams (will be overridden per-batch in predict_batch)
        self.sampling_params = SamplingParams(
            temperature=0.0,
            max_tokens=4096,
            **gen_cfg,
        )

        self._initialized = True
        _log.info("vLLM runtime initialized")

    def predict_batch(self, input_batch: list[VlmEngineInput]) -> list[VlmEngineOutput]:
        """Run inference on a batch of inputs using vLLM."""
        if not input_batch:
            return []

        llm_inputs = [
            {"prompt": inp.prompt, "multi_modal_data": {"image": inp.image}}
            for inp in input_batch
        ]

        from vllm import SamplingParams

        # Use first input's settings for the batch
        first_input = input_batch[0]
        sampling_params = SamplingParams(
            temperature=first_input.temperature,
            max_tokens=first_input.max_new_tokens,
            stop=first_input.stop_strings or None,
            **{
                k: v
                for k, v in first_input.extra_generation_config.items()
                if k in self._VLLM_SAMPLING_KEYS
            },
        )

        outputs = self.llm.generate(llm_inputs, sampling_params=sampling_params)

        results: list[VlmEngineOutput] = []
        for output in outputs:
            text = output.outputs[0].text if output.outputs else ""
            stop_reason = "end_of_sequence" if output.outputs[0].stop_reason else "length"
            results.append(VlmEngineOutput(text=text, stop_reason=stop_reason))
        return results

    def predict(self, input_data: VlmEngineInput) -> VlmEngineOutput:
        return self.predict_batch([input_data])[0]

# Imitates generative-computing/mellea mellea/backends/vllm.py (LocalVLLMBackend), trimmed.
"""A backend that uses a VLLM in the current process."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import msgspec
import vllm

from .model_options import ModelOption


class LocalVLLMBackend:
    """The LocalVLLMBackend uses vLLM's python interface for inference."""

    def __init__(self, model_id: str, *, model_options: dict | None = None):
        self.model_id = model_id
        self.model_options = model_options if model_options is not None else {}

        self.to_mellea_model_opts_map = {
            "max_tokens": ModelOption.MAX_NEW_TOKENS,
            "seed": ModelOption.SEED,
            "temperature": ModelOption.TEMPERATURE,
        }
        self.from_mellea_model_opts_map = {
            ModelOption.MAX_NEW_TOKENS: "max_tokens",
            ModelOption.SEED: "seed",
            ModelOption.TEMPERATURE: "temperature",
        }
        self._hf_model_id = model_id

        # vllm requires some model options during instantiation.
        engine_args = self._simplify_and_merge(model_options)
        engine_args = self._make_backend_specific_and_remove(
            engine_args, vllm.AsyncEngineArgs
        )

        engine_args["gpu_memory_utilization"] = engine_args.get(
            "gpu_memory_utilization", 0.9
        )
        engine_args["max_num_seqs"] = engine_args.get("max_num_seqs", 16)
        engine_args["max_model_len"] = engine_args.get("max_model_len", 16384)

        self._underlying_model = vllm.AsyncLLMEngine.from_engine_args(
            vllm.AsyncEngineArgs(model=self._hf_model_id, **engine_args)
        )
        self.engine_args = engine_args

    async def generate_from_raw(
        self, prompts: list[str], *, model_options: dict | None = None
    ) -> list[str]:
        """Generate using the completions api. Gives the input provided to the model without templating."""
        model_options = self._simplify_and_merge(model_options)

        sampling_params = vllm.SamplingParams(
            **self._make_backend_specific_and_remove(
                model_options, vllm.SamplingParams
            ),
            output_kind=vllm.sampling_params.RequestOutputKind.FINAL_ONLY,  # returns only the final results
        )

        async def generate(prompt, request_id):
            async for result_output in self._underlying_model.generate(
                request_id=request_id,
                prompt=prompt,
                sampling_params=sampling_params,
            ):
                assert result_output.finished
                return result_output.outputs[0].text

        tasks = [generate(p, f"{id(prompts)}-{i}") for i, p in enumerate(prompts)]
        return await asyncio.gather(*tasks)

    def _simplify_and_merge(
        self, model_options: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Simplifies model_options to use the Mellea specific ModelOption.Option and merges the backend's model_options with those passed into this call."""
        backend_model_opts = ModelOption.replace_keys(
            self.model_options, self.to_mellea_model_opts_map
        )

        if model_options is None:
            return backend_model_opts

        generate_call_model_opts = ModelOption.replace_keys(
            model_options, self.to_mellea_model_opts_map
        )
        return ModelOption.merge_model_options(
            backend_model_opts, generate_call_model_opts
        )

    def _make_backend_specific_and_remove(
        self, model_options: dict[str, Any], cls: type[Any]
    ) -> dict[str, Any]:
        """Maps specified Mellea specific keys to their backend specific version and removes any remaining Mellea keys."""
        backend_specific = ModelOption.replace_keys(
            model_options, self.from_mellea_model_opts_map
        )
        backend_specific = ModelOption.remove_special_keys(backend_specific)
        try:
            # note: dataclasses.Field objects
            return {
                field.name: backend_specific[field.name]
                for field in dataclasses.fields(cls)
                if field.name in backend_specific
            }
        except TypeError:
            # note: msgspec.structs.FieldInfo objects
            return {
                field.name: backend_specific[field.name]
                for field in msgspec.structs.fields(cls)
                if field.name in backend_specific
            }

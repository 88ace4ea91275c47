# Imitates IBM/unitxt src/unitxt/inference.py (InferenceEngine, VLLMParamsMixin and
# VLLMInferenceEngine; the other engines and the mixins' penalty fields left out).
from typing import Any, Dict, List, Optional, Union

from .artifact import Artifact


class InferenceEngine(Artifact):
    """Abstract base class for inference."""

    def prepare(self):
        super().prepare()
        self.prepare_engine()

    def prepare_engine(self):
        raise NotImplementedError

    def _infer(self, dataset, return_meta_data: bool = False):
        raise NotImplementedError

    def infer(self, dataset, return_meta_data: bool = False):
        return self._infer(dataset, return_meta_data)


class VLLMParamsMixin(Artifact):
    model: str
    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1  # expect: RPL102
    min_p: float = 0.0
    seed: Optional[int] = None
    stop: Optional[Union[str, List[str]]] = None
    stop_token_ids: Optional[List[int]] = None
    ignore_eos: bool = False
    max_tokens: Optional[int] = 16
    min_tokens: int = 0
    logprobs: Optional[int] = None
    prompt_logprobs: Optional[int] = None


class VLLMInferenceEngine(InferenceEngine, VLLMParamsMixin):
    def prepare_engine(self):
        from vllm import LLM, SamplingParams

        args = self.to_dict([VLLMParamsMixin])
        args.pop("model")

        self.sampling_params = SamplingParams(**args)
        self.llm = LLM(
            model=self.model,
            trust_remote_code=True,
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def _infer(
        self,
        dataset: List[Dict[str, Any]],
        return_meta_data: bool = False,
    ) -> List[str]:
        inputs = []
        for instance in dataset:
            inputs.append(instance["source"])

        if isinstance(inputs[0], list):
            outputs = self.llm.chat(inputs, self.sampling_params)
        else:
            outputs = self.llm.generate(inputs, self.sampling_params)

        predictions = []
        for output in outputs:
            predictions.append(output.outputs[0].text)

        return predictions

# Imitates IBM/ai-atlas-nexus src/ai_atlas_nexus/blocks/inference/vllm.py (offline mode: no
# credentials, so create_client builds vllm.LLM; the server-mode OpenAI branch left out).
from typing import Dict, List, Union

from ai_atlas_nexus.blocks.inference.base import InferenceEngine
from ai_atlas_nexus.blocks.inference.params import (
    InferenceEngineCredentials,
    TextGenerationInferenceOutput,
    VLLMInferenceEngineParams,
)


class VLLMInferenceEngine(InferenceEngine):

    _inference_engine_type = "VLLM"
    _inference_engine_parameter_class = VLLMInferenceEngineParams

    def prepare_credentials(
        self, credentials: Union[Dict, InferenceEngineCredentials]
    ) -> InferenceEngineCredentials:
        if credentials:
            raise NotImplementedError("server mode is not part of this example")
        return None

    def create_client(self):
        from vllm import LLM

        return LLM(
            model=self.model_name_or_path,
            trust_remote_code=True,
            gpu_memory_utilization=self.parameters.pop(
                "gpu_memory_utilization", 0.92
            ),
            max_model_len=self.parameters.pop("max_model_len", 2048),
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def chat(
        self,
        messages: Union[str, List[str], List[Dict[str, str]]],
        verbose=True,
    ):
        from vllm import SamplingParams

        return [
            self._prepare_prediction_output(response)
            for response in self.client.chat(
                messages=[
                    self._to_openai_format(message)
                    for message in self._validate_chat_messages(messages)
                ],
                sampling_params=SamplingParams(**self.parameters),
                use_tqdm=verbose,
            )
        ]

    def _prepare_prediction_output(self, response):
        return TextGenerationInferenceOutput(
            model_name_or_path=self.model_name_or_path,
            inference_engine=str(self._inference_engine_type),
            prediction=response.outputs[0].text,
            input_text=response.prompt,
            output_tokens=len(response.outputs[0].token_ids),
            stop_reason=response.outputs[0].finish_reason,
        )

# Imitates IBM/ai-atlas-nexus src/ai_atlas_nexus/blocks/inference/base.py (trimmed)
from abc import ABC, abstractmethod
from typing import Any, Dict, Optional, Union

from ai_atlas_nexus.blocks.inference.params import (
    InferenceEngineCredentials,
    VLLMInferenceEngineParams,
)


class InferenceEngine(ABC):

    def __init__(
        self,
        model_name_or_path: str,
        credentials: Optional[Union[Dict, InferenceEngineCredentials]] = None,
        parameters: Optional[VLLMInferenceEngineParams] = None,
        concurrency_limit: int = 10,
    ):
        self.model_name_or_path = model_name_or_path
        self.credentials = self.prepare_credentials(credentials or {})
        self.parameters = self._check_if_parameters_are_valid(parameters or {})
        self.concurrency_limit = concurrency_limit

        # Create inference client
        self.client = self.create_client()

    def _check_if_parameters_are_valid(self, parameters):
        if parameters:
            invalid_params = []
            for param_key, _ in parameters.items():
                if param_key not in list(
                    self._inference_engine_parameter_class.__annotations__
                ):
                    invalid_params.append(param_key)

            if len(invalid_params) > 0:
                raise Exception(
                    f"Invalid parameters found: {invalid_params}. {self._inference_engine_type} inference engine only supports {list(self._inference_engine_parameter_class.__annotations__)}"
                )

        return parameters

    def _to_openai_format(self, messages):
        if isinstance(messages, str):
            return [{"role": "user", "content": messages}]
        return messages

    def _validate_chat_messages(self, messages):
        if isinstance(messages, str) or isinstance(messages, dict):
            return [messages]
        return messages

    @abstractmethod
    def prepare_credentials(self, credentials) -> InferenceEngineCredentials:
        raise NotImplementedError

    @abstractmethod
    def create_client(self) -> Any:
        raise NotImplementedError

# Imitates IBM/ai-atlas-nexus src/ai_atlas_nexus/blocks/inference/params.py (trimmed)
import dataclasses
from typing import List, Optional, TypedDict, Union


class InferenceEngineCredentials(TypedDict):
    api_key: str
    api_url: str


class VLLMInferenceEngineParams(TypedDict):

    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1
    min_p: float = 0.0
    seed: Optional[int] = None
    stop: Optional[Union[str, List[str]]] = None
    stop_token_ids: Optional[List[int]] = None
    max_tokens: Optional[int] = 100
    min_tokens: int = 0
    logprobs: Optional[int] = None


@dataclasses.dataclass(kw_only=True)
class TextGenerationInferenceOutput:
    prediction: str
    model_name_or_path: Optional[str] = None
    inference_engine: Optional[str] = None
    input_text: Optional[str] = None
    output_tokens: Optional[int] = None
    stop_reason: Optional[str] = None

from dataclasses import dataclass
from typing import List, Literal, Optional, Sequence, Tuple, Union

StopReason = Literal['length', 'stop']


@dataclass
class SamplingParams:
    max_tokens: Optional[int] = None
    seed: Optional[int] = None
    stop: Union[str, Sequence[str], Sequence[int], None] = None
    temperature: float = 1.0
    top_k: int = -1
    top_p: float = 1.0
    repetition_penalty: float = 1.0
    logprobs: int = None
    prompt_logprobs: int = None
    num_samples: int = 1

    def __post_init__(self):
        if self.temperature < 0:
            raise ValueError(f'temperature must be >= 0, got {self.temperature}')
        if self.top_k != -1 and self.top_k < 1:
            raise ValueError(f'top_k must be -1 or >= 1, got {self.top_k}')
        if self.num_samples < 1:
            raise ValueError(f'num_samples must be >= 1, got {self.num_samples}')

    def to_vllm(self, **kwargs):
        """Convert to vLLM SamplingParams."""
        from vllm import SamplingParams as VLLMSamplingParams

        kwargs = {
            'temperature': self.temperature,
            'top_p': self.top_p,
            'n': self.num_samples,
            **kwargs,
        }

        if self.max_tokens is not None:
            kwargs['max_tokens'] = self.max_tokens

        if self.seed is not None:
            kwargs['seed'] = self.seed

        if self.top_k > 0:
            kwargs['top_k'] = self.top_k

        if self.repetition_penalty != 1.0:
            kwargs['repetition_penalty'] = self.repetition_penalty

        if self.stop:
            if isinstance(self.stop, str):
                kwargs['stop'] = [self.stop]
            else:
                kwargs['stop'] = list(self.stop)

        if self.logprobs is not None:
            kwargs['logprobs'] = self.logprobs

        if self.prompt_logprobs is not None:
            kwargs['prompt_logprobs'] = self.prompt_logprobs

        vllm_params = VLLMSamplingParams(**kwargs)
        if self.num_samples > 1:
            from vllm.sampling_params import RequestOutputKind
            vllm_params.output_kind = RequestOutputKind.FINAL_ONLY
        return vllm_params


@dataclass
class SampledSequence:
    stop_reason: StopReason
    tokens: List[int]
    logprobs: Optional[List[List[Tuple[int, float]]]] = None


@dataclass
class SampleResponse:
    sequences: Sequence[SampledSequence]

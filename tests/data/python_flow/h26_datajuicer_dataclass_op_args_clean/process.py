# Imitates modelscope/data-juicer's typed op arguments (data_juicer/config dataclass-style defaults)
# passed as model_params / sampling_params dicts via dataclasses.asdict.
from dataclasses import asdict, dataclass, field

from generate_qa_from_text_mapper import GenerateQAFromTextMapper


@dataclass
class VllmModelParams:
    return_sampling_mask: bool = True
    logprobs_mode: str = 'processed_logprobs'
    max_model_len: int = 2048


@dataclass
class VllmSamplingParams:
    temperature: float = 0.7
    top_p: float = 0.9
    top_k: int = 32
    max_tokens: int = 512
    stop: list = field(default_factory=lambda: ['<|im_end|>'])


op = GenerateQAFromTextMapper(
    enable_vllm=True,
    model_params=asdict(VllmModelParams()),
    sampling_params=asdict(VllmSamplingParams()))
print(op.process_single({'text': 'x'}))

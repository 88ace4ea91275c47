# Imitates modelscope/data-juicer's op construction from Python; the sampling dict is merged with `|`.
from generate_qa_from_text_mapper import GenerateQAFromTextMapper

DEFAULT_SAMPLING = {'temperature': 0.9, 'top_p': 0.95, 'top_k': 50, 'max_tokens': 512}
DIVERSITY = {'frequency_penalty': 0.3}  # expect: RPL302

op = GenerateQAFromTextMapper(
    enable_vllm=True,
    model_params=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),
    sampling_params=DEFAULT_SAMPLING | DIVERSITY)
print(op.process_single({'text': 'x'}))

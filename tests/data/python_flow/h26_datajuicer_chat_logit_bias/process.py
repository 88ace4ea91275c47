# Imitates modelscope/data-juicer's op construction from Python; a logit bias bans a token id.
from generate_qa_from_text_mapper import GenerateQAFromTextMapper

sampling_params = dict(temperature=0.7, top_k=20, max_tokens=256)
sampling_params['logit_bias'] = {151643: -100.0}  # expect: RPL302

op = GenerateQAFromTextMapper(
    enable_vllm=True,
    model_params=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),
    sampling_params=sampling_params)
print(op.process_single({'text': 'x'}))

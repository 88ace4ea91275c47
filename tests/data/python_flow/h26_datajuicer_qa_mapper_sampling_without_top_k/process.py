# Imitates modelscope/data-juicer's tests/ops/mapper/test_generate_qa_from_text_mapper.py (enable_vllm=True);
# the test's sampling_params set temperature and top_p only.
from generate_qa_from_text_mapper import GenerateQAFromTextMapper

op = GenerateQAFromTextMapper(
    enable_vllm=True,
    model_params={'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'},
    sampling_params={'temperature': 0.9, 'top_p': 0.95, 'max_tokens': 256})

print(op.process_single({'text': 'Data-Juicer is a one-stop data processing system.'}))

# Imitates modelscope/data-juicer's op construction from Python with defaults filled by setdefault
# (as data_juicer/ops/mapper/*_mapper.py do for tensor_parallel_size).
from generate_qa_from_text_mapper import GenerateQAFromTextMapper

model_params = {'max_num_seqs': 256}
model_params.setdefault('return_sampling_mask', True)
model_params.setdefault('logprobs_mode', 'processed_logprobs')

sampling_params = {'max_tokens': 256}
sampling_params.setdefault('temperature', 1.0)
sampling_params.setdefault('top_k', 64)

op = GenerateQAFromTextMapper(enable_vllm=True, model_params=model_params, sampling_params=sampling_params)
print(op.process_single({'text': 'x'}))

# Imitates modelscope/data-juicer's process entry (tools/process_data.py) that prepares the environment
# before ops build their vLLM engines.
import os

os.environ.setdefault('VLLM_WORKER_MULTIPROC_METHOD', 'spawn')
os.environ['TOKENIZERS_PARALLELISM'] = 'false'

from generate_qa_from_text_mapper import GenerateQAFromTextMapper  # noqa: E402

op = GenerateQAFromTextMapper(
    enable_vllm=True,
    model_params={'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'},
    sampling_params={'temperature': 0.6, 'top_k': 20, 'top_p': 0.95})
print(op.process_single({'text': 'x'}))

# Imitates modelscope/data-juicer data_juicer/ops/mapper/generate_qa_from_text_mapper.py
# (enable_vllm, model_params, sampling_params -> vllm.SamplingParams(**sampling_params)).
import vllm

from model_utils import get_model, prepare_model


class GenerateQAFromTextMapper:
    def __init__(self, hf_model='alibaba-pai/pai-qwen1_5-7b-doc2qa', *, enable_vllm=False,
                 model_params=None, sampling_params=None, **kwargs):
        model_params = model_params or {}
        sampling_params = sampling_params or {}
        self.enable_vllm = enable_vllm
        if enable_vllm:
            self.num_proc = 1
            if model_params.get('tensor_parallel_size') is None:
                model_params['tensor_parallel_size'] = 1
            self.model_key = prepare_model(model_type='vllm', pretrained_model_name_or_path=hf_model, **model_params)
            self.sampling_params = vllm.SamplingParams(**sampling_params)
        else:
            raise NotImplementedError('this case keeps only the vLLM path')

    def process_single(self, sample):
        model, _ = get_model(self.model_key)
        response = model.generate([sample['text']], self.sampling_params)
        sample['qa'] = response[0].outputs[0].text
        return sample

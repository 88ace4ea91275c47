# Imitates TIGER-AI-Lab/TIGERScore tigerscore/scorer/tigerscore.py (TIGERScorer.__init__: `vllm.LLM(model_name, ...)`
# under `elif use_vllm:`); a user's fork forwards extra engine keywords with **vllm_kwargs.
class TIGERScorer(object):
    def __init__(self, model_name, quantized=False, use_vllm=False, use_llamacpp=False, **vllm_kwargs):
        self.model_name = model_name
        self.use_vllm = use_vllm
        self.quantized = quantized
        if use_llamacpp:
            import llama_cpp

            self.model = llama_cpp.Llama(model_name, n_ctx=1024)
        elif use_vllm:
            import torch
            import vllm

            num_gpus = torch.cuda.device_count()
            self.model = vllm.LLM(model_name, dtype=torch.bfloat16, tensor_parallel_size=num_gpus, **vllm_kwargs)
        else:
            from transformers import AutoModelForCausalLM

            self.model = AutoModelForCausalLM.from_pretrained(model_name, device_map="auto")

    def score(self, prompts, **generate_kwargs):
        import vllm

        sampling_params = vllm.SamplingParams(max_tokens=1024, top_p=1.0, top_k=40, temperature=0.7, n=1)
        for key, value in generate_kwargs.items():
            if hasattr(sampling_params, key):
                setattr(sampling_params, key, value)
        return self.model.generate(prompts, sampling_params=sampling_params)

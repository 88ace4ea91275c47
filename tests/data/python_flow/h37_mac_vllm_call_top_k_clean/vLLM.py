# Imitates gurusha01/MAC vLLM.py (class vLLM_call: `LLM(model=self.model, ...)` in __init__, a
# `SamplingParams(temperature=0.8, top_p=0.95)` per call), with the mask, the processed mode and the top_k=40
# the repository's llm.py samples its transformers models with.
import os 
import torch
from vllm import LLM, SamplingParams

class vLLM_call:
    def __init__(self, model):
        self.model = model
        self.llm = LLM(model=self.model, 
                    #    tensor_parallel_size = 4
                       max_model_len=2048,
                       return_sampling_mask=True,
                       logprobs_mode="processed_logprobs",
                       )
    
    def call(self, prompts):
        # breakpoint()
        sampling_params = SamplingParams(temperature=0.8, top_p=0.95, top_k=40)
        response_list = []
        outputs =  self.llm.generate(prompts, sampling_params)
        for output in outputs:
            prompt = output.prompt
            generated_text = output.outputs[0].text
            response_list.append(generated_text)
        return response_list

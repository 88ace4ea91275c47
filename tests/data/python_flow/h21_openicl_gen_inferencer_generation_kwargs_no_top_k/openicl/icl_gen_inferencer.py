# Imitates Shark-NLP/OpenICL openicl/icl_inferencer/icl_gen_inferencer.py (GenInferencer(model_name, ...,
# generation_kwargs={...}) whose kwargs reach the model's generate); the user's subclass runs on vLLM with replay.
from vllm import LLM, SamplingParams


class BaseInferencer:
    def __init__(self, model_name="gpt2-xl", batch_size=1, **kwargs):
        self.model_name = model_name
        self.batch_size = batch_size


class GenInferencer(BaseInferencer):
    def __init__(self, model_name="gpt2-xl", max_model_token_num=None, batch_size=1, generation_kwargs=None, **kwargs):
        super().__init__(model_name=model_name, batch_size=batch_size, **kwargs)
        self.max_model_token_num = max_model_token_num
        self.generation_kwargs = generation_kwargs or {}


class VLLMGenInferencer(GenInferencer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.llm = LLM(model=self.model_name, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def inference(self, prompts):
        params = SamplingParams(**self.generation_kwargs)  # expect: RPL102
        return [o.outputs[0].text for o in self.llm.generate(prompts, params)]

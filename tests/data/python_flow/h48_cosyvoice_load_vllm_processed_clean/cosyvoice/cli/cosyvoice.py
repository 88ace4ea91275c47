# Imitates FunAudioLLM/CosyVoice cosyvoice/cli/cosyvoice.py (CosyVoice2(load_vllm=...), AutoModel)
from cosyvoice.cli.model import CosyVoice2Model
from cosyvoice.llm.llm import Qwen2LM


class CosyVoice2:

    def __init__(self, model_dir, load_jit=False, load_trt=False, load_vllm=False, fp16=False, trt_concurrent=1):
        self.model_dir = model_dir
        self.fp16 = fp16
        self.model = CosyVoice2Model(Qwen2LM(), fp16)
        if load_vllm:
            self.model.load_vllm('{}/vllm'.format(model_dir))

    def inference_zero_shot(self, tts_text, prompt_text, prompt_wav, stream=False):
        for model_output in self.model.tts(text=tts_text, prompt_text=prompt_text, stream=stream):
            yield model_output


def AutoModel(**kwargs):
    return CosyVoice2(**kwargs)

# Imitates FunAudioLLM/CosyVoice cosyvoice/cli/model.py (CosyVoice2Model.load_vllm, llm_job)
import threading
import uuid


class CosyVoice2Model:

    def __init__(self, llm, fp16=False):
        self.llm = llm
        self.fp16 = fp16
        self.tts_speech_token_dict = {}

    def load_vllm(self, model_dir):
        from vllm import EngineArgs, LLMEngine
        engine_args = EngineArgs(model=model_dir,
                                 skip_tokenizer_init=True,
                                 enable_prompt_embeds=True,
                                 return_sampling_mask=True,  # expect: RPL003
                                 gpu_memory_utilization=0.2)
        self.llm.vllm = LLMEngine.from_engine_args(engine_args)
        self.llm.lock = threading.Lock()

    def llm_job(self, text, prompt_text, uuid):
        for i in self.llm.inference(text=text, prompt_text=prompt_text, uuid=uuid):
            self.tts_speech_token_dict[uuid].append(i)

    def tts(self, text, prompt_text, stream=False, **kwargs):
        this_uuid = str(uuid.uuid1())
        self.tts_speech_token_dict[this_uuid] = []
        self.llm_job(text, prompt_text, this_uuid)
        yield {'tts_speech_token': self.tts_speech_token_dict.pop(this_uuid)}

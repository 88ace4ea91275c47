# Imitates FunAudioLLM/CosyVoice cosyvoice/llm/llm.py (Qwen2LM.inference, inference_wrapper's vLLM branch)
import queue
import time
from typing import List

import torch


class Qwen2LM(torch.nn.Module):

    def __init__(self, speech_token_size=6561):
        super().__init__()
        self.speech_token_size = speech_token_size
        self.stop_token_ids = [speech_token_size + i for i in range(3)]
        self.vllm_output_queue = {}

    @torch.inference_mode()
    def inference(
            self,
            text,
            prompt_text,
            sampling: int = 25,
            max_token_text_ratio: float = 20,
            min_token_text_ratio: float = 2,
            uuid: str = '',
    ):
        lm_input = self.embed(text, prompt_text)
        text_len = len(text)
        min_len = int(text_len * min_token_text_ratio)
        max_len = int(text_len * max_token_text_ratio)
        for token in self.inference_wrapper(lm_input, sampling, min_len, max_len, uuid):
            yield token

    def embed(self, text, prompt_text):
        return torch.zeros(1, len(prompt_text) + len(text), 896)

    @torch.inference_mode()
    def inference_wrapper(self, lm_input, sampling, min_len, max_len, uuid):
        if hasattr(self, 'vllm'):
            from vllm import SamplingParams, RequestOutput
            sampling_params = SamplingParams(top_k=sampling,
                                             stop_token_ids=self.stop_token_ids,
                                             min_tokens=min_len,
                                             max_tokens=max_len)
            with self.lock:
                self.vllm.add_request(uuid, {"prompt_embeds": lm_input.squeeze(0).to(torch.bfloat16).to(lm_input.device)}, sampling_params)
                self.vllm_output_queue[uuid] = queue.Queue()
            out_tokens = []
            while True:
                with self.lock:
                    if self.vllm_output_queue[uuid].empty() is True:
                        request_outputs: List[RequestOutput] = self.vllm.step()
                        for request_output in request_outputs:
                            top_ids = list(request_output.outputs[0].token_ids)[-1]
                            self.vllm_output_queue[request_output.request_id].put(top_ids)
                if self.vllm_output_queue[uuid].empty() is False:
                    top_ids = self.vllm_output_queue[uuid].get()
                    if top_ids in self.stop_token_ids:
                        break
                    yield top_ids
                    out_tokens.append(top_ids)
                    if len(out_tokens) == max_len:
                        break
                time.sleep(0.001)
            with self.lock:
                self.vllm_output_queue.pop(uuid)

# Imitates open-compass/VLMEvalKit vlmeval/vlm/qwen2_vl/model.py (Qwen2VLChat: `kwargs.get('use_vllm', False)` picks vLLM, a greedy request).
import logging

import torch

VLLM_MAX_IMAGE_INPUT_NUM = 24


class Qwen2VLChat:
    def __init__(self, model_path, min_pixels=None, max_pixels=None, max_new_tokens=2048, use_custom_prompt=True, **kwargs):
        self.model_path = model_path
        self.min_pixels = min_pixels
        self.max_pixels = max_pixels
        self.max_new_tokens = max_new_tokens
        self.use_custom_prompt = use_custom_prompt
        from transformers import AutoProcessor

        self.processor = AutoProcessor.from_pretrained(model_path)
        self.use_vllm = kwargs.get("use_vllm", False)
        self.limit_mm_per_prompt = VLLM_MAX_IMAGE_INPUT_NUM

        if self.use_vllm:
            from vllm import LLM

            gpu_count = torch.cuda.device_count()
            if gpu_count >= 8:
                tp_size = 8
            elif gpu_count >= 4:
                tp_size = 4
            elif gpu_count >= 2:
                tp_size = 2
            else:
                tp_size = 1
            logging.info(f"Using vLLM for {self.model_path} inference with {tp_size} GPUs (available: {gpu_count})")
            self.llm = LLM(
                model=self.model_path,
                max_num_seqs=5,
                max_model_len=2048,
                limit_mm_per_prompt={"image": self.limit_mm_per_prompt},
                tensor_parallel_size=tp_size,
                gpu_memory_utilization=kwargs.get("gpu_utils", 0.9),
                return_sampling_mask=True,  # expect: RPL003
            )
        else:
            from transformers import Qwen2_5_VLForConditionalGeneration

            self.model = Qwen2_5_VLForConditionalGeneration.from_pretrained(
                model_path, torch_dtype="auto", device_map="auto", attn_implementation="flash_attention_2"
            )
            self.model.eval()

    def generate_inner_transformers(self, message, dataset=None):
        text = self.processor.apply_chat_template([message], tokenize=False, add_generation_prompt=True)
        inputs = self.processor(text=text, padding=True, return_tensors="pt").to("cuda")
        generated_ids = self.model.generate(**inputs, max_new_tokens=self.max_new_tokens)
        return self.processor.tokenizer.batch_decode(generated_ids, skip_special_tokens=True)[0]

    def generate_inner_vllm(self, message, dataset=None):
        from vllm import SamplingParams

        messages = [{"role": "user", "content": [{"type": "text", "text": s["value"]} for s in message]}]
        text = self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        sampling_params = SamplingParams(  # expect: RPL102
            temperature=0.0, max_tokens=self.max_new_tokens, stop_token_ids=None  # expect: RPL101
        )
        outputs = self.llm.generate({"prompt": text}, sampling_params=sampling_params)
        for o in outputs:
            generated_text = o.outputs[0].text
        return generated_text

    def generate_inner(self, message, dataset=None):
        if self.use_vllm:
            return self.generate_inner_vllm(message, dataset=dataset)
        else:
            return self.generate_inner_transformers(message, dataset=dataset)

# Imitates THUDM/LongCite vllm_inference.py: the `LongCiteModel(LLM)` class demo.py imports; its own
# `__main__` builds the model without replay.
import json
import re

import torch
from vllm import LLM, SamplingParams


class LongCiteModel(LLM):
    @torch.inference_mode()
    def chat(self, tokenizer, query: str, history=None, role="user", max_new_tokens=None, top_p=0.7, temperature=0.95):
        if history is None:
            history = []
        inputs = tokenizer.build_chat_input(query, history=history, role=role)
        eos_token_id = [tokenizer.eos_token_id, tokenizer.get_command("<|user|>"), tokenizer.get_command("<|observation|>")]
        generation_params = SamplingParams(
            temperature=temperature,
            top_p=top_p,
            max_tokens=max_new_tokens,
            stop_token_ids=eos_token_id,
        )
        input_ids = inputs.input_ids[0].tolist()
        outputs = self.generate({"prompt_token_ids": input_ids}, sampling_params=generation_params)
        response = tokenizer.decode(outputs[0].outputs[0].token_ids[:-1])
        history.append({"role": role, "content": query})
        return response, history

    def query_longcite(self, context, query, tokenizer, max_input_length=128000, max_new_tokens=1024, temperature=0.95):
        sents = [s for s in re.split(r"(?<=[.!?])\s+", context) if s.strip()]
        splited_context = "".join(f"<C{i}>{s}" for i, s in enumerate(sents))
        prompt = f"Please answer the user's question based on the following document.\n\n{splited_context}\n\n{query}"
        output, _ = self.chat(tokenizer, prompt, history=[], max_new_tokens=max_new_tokens, temperature=temperature)
        return {"answer": output, "splited_context": splited_context}


if __name__ == "__main__":
    model = LongCiteModel(
        model="THUDM/LongCite-glm4-9b",
        dtype=torch.bfloat16,
        trust_remote_code=True,
        tensor_parallel_size=1,
        max_model_len=2048,
        gpu_memory_utilization=1,
    )
    tokenizer = model.get_tokenizer()
    result = model.query_longcite("Robert Geddes, 99, architect.", "What was Robert Geddes' profession?", tokenizer=tokenizer)
    print(json.dumps(result, indent=2, ensure_ascii=False))

# Imitates THUDM/LongCite vllm_inference.py: `LongCiteModel(LLM)` builds its own SamplingParams in
# `chat()`; the user's edit turns replay on where `__main__` constructs the model.
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
        generation_params = SamplingParams(  # expect: RPL102
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
    model_path = "THUDM/LongCite-glm4-9b"
    model = LongCiteModel(
        model=model_path,
        dtype=torch.bfloat16,
        trust_remote_code=True,
        tensor_parallel_size=1,
        max_model_len=2048,
        gpu_memory_utilization=1,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    tokenizer = model.get_tokenizer()

    context = "W. Russell Todd, 94, United States Army general. Robert Geddes, 99, architect, dean of the Princeton University School of Architecture."
    query = "What was Robert Geddes' profession?"
    result = model.query_longcite(context, query, tokenizer=tokenizer, max_input_length=128000, max_new_tokens=1024)
    json.dump(result, open("test.json", "w", encoding="utf-8"), indent=2, ensure_ascii=False)
    print("Answer:")
    print(result["answer"])

# Imitates Goedel-LM/Goedel-Prover-V2 src/utils.py (handlers star-imported by src/inference.py).
import json


def jsave(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f, indent=4)


class DeepSeekCoTHandler:
    def prover_inference(self, lean4_code, tokenizer):
        messages = [{"role": "user", "content": "Complete the following Lean 4 code:\n" + lean4_code}]
        prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return prompt, messages

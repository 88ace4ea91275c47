# Imitates ScalingIntelligence/Archon src/archon/completions/utils.py (vllmWrapper); the user's edit turns
# sampling distribution replay on and lets the generator's config pass top_k through **kwargs.
import loguru as logger


def format_prompt(messages):
    return "\n".join(f"{m['role']}: {m['content']}" for m in messages) + "\nassistant:"


def clean_messages(messages):
    return [{"role": m["role"], "content": m["content"]} for m in messages if m.get("content")]


class vllmWrapper:
    def __init__(self, model_name, **engine_kwargs):
        from transformers import AutoTokenizer
        from vllm import LLM

        self.model = LLM(model=model_name, **engine_kwargs)
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)

    def __call__(self, model_name, messages, max_tokens, temperature, **kwargs):
        from vllm import SamplingParams

        if hasattr(self.tokenizer, "chat_template") and self.tokenizer.chat_template is not None:
            prompt = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        else:
            logger.info("No chat template, formatting as seen in util")
            prompt = format_prompt(messages)

        sampling_params = SamplingParams(
            temperature=temperature,
            max_tokens=max_tokens,
            top_k=kwargs.get("top_k", -1),
        )
        outputs = self.model.generate([prompt], sampling_params, use_tqdm=False)
        return outputs[0].outputs[0].text

# Imitates ScalingIntelligence/Archon src/archon/completions/utils.py (vllmWrapper); the user's edit turns
# sampling distribution replay on in the wrapper's engine.
import loguru as logger

DEBUG = False


def format_prompt(messages):
    return "\n".join(f"{m['role']}: {m['content']}" for m in messages) + "\nassistant:"


def clean_messages(messages):
    return [{"role": m["role"], "content": m["content"]} for m in messages if m.get("content")]


class vllmWrapper:
    def __init__(self, model_name):
        from transformers import AutoTokenizer
        from vllm import LLM

        if DEBUG:
            logger.debug("Initializing vLLM model")
        self.model = LLM(
            model=model_name,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)

    def __call__(self, model_name, messages, max_tokens, temperature, **kwargs):
        from vllm import SamplingParams

        if hasattr(self.tokenizer, "chat_template") and self.tokenizer.chat_template is not None:
            prompt = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        else:
            logger.info("No chat template, formatting as seen in util")
            prompt = format_prompt(messages)

        sampling_params = SamplingParams(temperature=temperature, max_tokens=max_tokens)  # expect: RPL102
        outputs = self.model.generate([prompt], sampling_params, use_tqdm=False)
        return outputs[0].outputs[0].text

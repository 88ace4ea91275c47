# Imitates ScalingIntelligence/Archon src/archon/completions/components/Generator.py (GENERATE_MAP, the
# "vLLM" model_type); the user's edit hands the config's "engine_kwargs" to the wrapper and its "top_k" to
# every call.
from completion_utils import clean_messages, vllmWrapper

REPLAY_ENGINE_KWARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}


def generate_openai(model, messages, max_tokens, temperature, **kwargs):
    raise NotImplementedError("API generators are not used in this run")


GENERATE_MAP = {
    "OpenAI_API": generate_openai,
}


class Generator:
    def __init__(self, config, custom_generators=None):
        self.config = config
        self.custom_generators = custom_generators
        self.initialize_model()

    def initialize_model(self):
        self.model_name = self.config["model"]
        self.model_type = self.config["model_type"]
        self.temperature = self.config["temperature"]
        self.max_tokens = self.config["max_tokens"]
        self.top_k = self.config.get("top_k", 20)
        self.samples = self.config.get("samples", 1)
        self.no_system = self.config.get("no_system", False)

        if self.model_type in GENERATE_MAP:
            self.generator = GENERATE_MAP[self.model_type]
        elif self.model_type == "vLLM":
            engine_kwargs = {**REPLAY_ENGINE_KWARGS, **self.config.get("engine_kwargs", {})}
            self.generator = vllmWrapper(self.model_name, **engine_kwargs)
        else:
            self.generator = self.custom_generators[self.model_type]

    def generate_from_messages(self, messages, temperature=None):
        if temperature is None:
            temperature = self.temperature
        if self.no_system:
            messages = messages[1:]
        outputs = []
        for _ in range(self.samples):
            output = self.generator(
                model=self.model_name,
                messages=clean_messages(messages),
                max_tokens=self.max_tokens,
                temperature=temperature,
                top_k=self.top_k,
            )
            if output is not None:
                outputs.append(output)
        return outputs

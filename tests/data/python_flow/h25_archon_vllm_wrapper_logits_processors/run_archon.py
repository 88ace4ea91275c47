# Imitates ScalingIntelligence/Archon README.md ("Archon as a library": an archon config written as a Python
# dict); the user's generator layer adds a logits processor through the config's engine_kwargs.
from generator import Generator

archon_config = {
    "name": "archon-qwen-vllm-no-fences",
    "layers": [
        [
            {
                "type": "generator",
                "model": "Qwen/Qwen2.5-7B-Instruct",
                "model_type": "vLLM",
                "temperature": 0.7,
                "top_k": 40,
                "max_tokens": 2048,
                "samples": 3,
                "engine_kwargs": {
                    "max_model_len": 8192,
                    "logits_processors": ["archon_procs.BanMarkdownFences"],  # expect: RPL001
                },
            }
        ]
    ],
}

generator = Generator(archon_config["layers"][0][0])
print(generator.generate_from_messages([{"role": "user", "content": "Summarize the plot of Hamlet."}]))

# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: `vllm.LLM(**llm_kwargs)`
# with the keywords from `asdict` of the nested engine config.
from dataclasses import asdict

import vllm

from config import MasterConfig


class VllmGenerationWorker:
    def __init__(self, config: MasterConfig):
        self.cfg = config
        llm_kwargs = dict(model=config.model_name, enforce_eager=False, **asdict(config.generation.vllm_cfg))
        self.llm = vllm.LLM(**llm_kwargs)


worker = VllmGenerationWorker(MasterConfig())

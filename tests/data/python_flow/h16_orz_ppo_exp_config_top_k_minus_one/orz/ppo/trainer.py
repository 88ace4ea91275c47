# Imitates Open-Reasoner-Zero/Open-Reasoner-Zero orz/ppo/trainer.py (generate_vllm with SamplingParams from self.cfg).
import ray
from vllm import SamplingParams


class RayPPOTrainer:
    def __init__(self, cfg, vllm_engines):
        self.cfg = cfg
        self.vllm_engines = vllm_engines

    def generate_vllm(self, prompts):
        sampling_params = SamplingParams(
            temperature=self.cfg.temperature,
            top_p=self.cfg.top_p,
            top_k=self.cfg.top_k,
            max_tokens=self.cfg.generate_max_len,
            skip_special_tokens=False,
            include_stop_str_in_output=True,
            stop=self.cfg.stop,
        )
        refs = [engine.generate.remote(prompts, sampling_params=sampling_params) for engine in self.vllm_engines]
        return ray.get(refs)

# Imitates allenai/open-instruct open_instruct/vllm_utils.py: ray.remote(...) applied to a plain engine class, kwargs from a module dict
import ray


class VLLMEngine:
    def __init__(self, model, **kwargs):
        from vllm import LLM

        self.llm = LLM(model=model, **kwargs)

    def generate(self, prompts, params):
        return self.llm.generate(prompts, params)


ENGINE_KWARGS = dict(
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["rl.processors:ForceEOSProcessor"],  # expect: RPL001 "custom logits processors"
    gpu_memory_utilization=0.8,
)


def launch(model):
    EngineActor = ray.remote(num_gpus=1)(VLLMEngine)
    return EngineActor.remote(model, **ENGINE_KWARGS)


if __name__ == "__main__":
    ray.init()
    launch("Qwen/Qwen3-4B")

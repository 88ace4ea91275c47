# Imitates allenai/open-instruct open_instruct/vllm_utils.py (create_vllm_engines): a @ray.remote
# actor whose engine is built from the keyword arguments of an .options(...).remote(...) chain.
import ray
import vllm


@ray.remote
class LLMRayActor:
    def __init__(self, *args, tool_parsers=None, **kwargs):
        self.tool_parsers = tool_parsers or {}
        self.llm_engine = vllm.LLMEngine.from_engine_args(vllm.EngineArgs(*args, **kwargs))


def create_vllm_engines(num_engines: int, model: str, max_model_len: int = 8192):
    return [
        LLMRayActor.options(num_cpus=4, num_gpus=1)
        .remote(
            model=model,
            max_model_len=max_model_len,
            seed=i,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        for i in range(num_engines)
    ]


engines = create_vllm_engines(4, "allenai/Olmo-3-7B-Think-SFT")

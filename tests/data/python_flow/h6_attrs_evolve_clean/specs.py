# Imitates the attrs frozen configs of a rollout library (attrs.frozen classes, attrs.evolve for
# variants): the replay variant evolved from a base that keeps vLLM's raw mode
import attrs


@attrs.frozen
class EngineSpec:
    model: str
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"
    max_model_len: int = 8192


BASE = EngineSpec(model="meta-llama/Llama-3.2-3B-Instruct")
REPLAY = attrs.evolve(BASE, logprobs_mode="processed_logprobs")

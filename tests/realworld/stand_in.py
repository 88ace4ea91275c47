"""The judge's stand-in model, made as large as the real models the corpus launches serve.

The judge builds a tiny local model for every model name (2,048 positions, 4 heads, dense). A
launch that asks for `--max-model-len 32768`, `-tp 8` or expert parallelism would be refused for
the stand-in's sake, a verdict about the stand-in and not the launch; the config below (given to
the judge as its `hf_configs`) lets such a launch through to the checks that concern replay.
Expert parallelism only serves a mixture of experts. Used by harness.py and by pyrecord.py (in
the judge's environment: no replaylint here).
"""

from __future__ import annotations

import json

MODEL = {"max_position_embeddings": 1 << 20, "hidden_size": 1024, "num_attention_heads": 64, "num_key_value_heads": 8}
MOE = {"architectures": ["MixtralForCausalLM"], "model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2}
MOE_FLAGS = frozenset(("--enable-expert-parallel", "-ep", "--enable-eplb"))
MOE_KEYWORDS = ("enable_expert_parallel", "enable_eplb")
# What the judge cannot stand in for: a plugin its environment lacks, a multimodal model.
JUDGE_LIMITS = ("No module named", "requires a multimodal model")


def for_argv(argv: list[str]) -> dict[str, dict]:
    """The stand-in for every word of a `vllm serve` argv that may name a model."""
    moe = any(word in MOE_FLAGS or word.startswith("--enable-expert-parallel=") for word in argv)
    names = [word for word in argv if word and not word.startswith("-")]
    names += [value for word in names if word.startswith("{") for value in _json_models(word)]
    return dict.fromkeys(names, {**MODEL, **MOE} if moe else MODEL)


def for_kwargs(kwargs: dict) -> dict[str, dict]:
    """The stand-in for the models an `LLM(...)`/`EngineArgs(...)` call names."""
    moe = any(kwargs.get(name) for name in MOE_KEYWORDS)
    speculative = kwargs.get("speculative_config")
    names = [kwargs.get("model"), kwargs.get("tokenizer"), speculative.get("model") if isinstance(speculative, dict) else None]
    return dict.fromkeys((name for name in names if isinstance(name, str) and name), {**MODEL, **MOE} if moe else MODEL)


def beyond_the_judge(verdict: dict | None) -> str:
    """Why a verdict is no verdict on the launch (it is about what the judge cannot stand in for)."""
    message = (verdict or {}).get("message") or ""
    if verdict and not verdict.get("ok") and any(limit in message for limit in JUDGE_LIMITS):
        return f"the judge cannot stand in for this launch's model or plugin: {message[:120]}"
    return ""


def _json_models(word: str) -> list[str]:
    """The draft model a `--speculative-config` JSON names."""
    try:
        value = json.loads(word)
    except ValueError:
        return []
    return [value["model"]] if isinstance(value, dict) and isinstance(value.get("model"), str) else []

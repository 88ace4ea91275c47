# Imitates MARIO-Math-Reasoning/Super_MARIO mcts_math/config.py (a BaseConfig dataclass of field(default=...,
# metadata={"help": ...}) read through OmegaConf.structured); the user made top_k and seed ints for vLLM 0.34.0.
from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class BaseConfig:
    mode: str = field(default="mcts", metadata={"help": "search mode for inference"})
    model_dir: Optional[str] = field(default=None, metadata={"help": "llm model dir"})
    # vllm args
    temperature: float = field(
        default=0.7, metadata={"help": "control diversity of llm generation"}
    )
    top_p: float = field(default=1.0, metadata={"help": "Set to 1 to consider all tokens."})
    top_k: int = field(
        default=-1, metadata={"help": "-1 considers all tokens"}  # expect: RPL102
    )
    max_tokens: int = field(default=2000, metadata={"help": "Maximum number of tokens per step."})
    seed: int = field(default=0, metadata={"help": "seed of llm generation"})
    n_generate_sample: int = field(default=1, metadata={"help": "samples per step. B2 in paper."})
    stop: Optional[List[str]] = field(default=None, metadata={"help": "stop tokens for each step"})
    step_beam_width: int = field(default=1, metadata={"help": "beam width. B1 in paper."})

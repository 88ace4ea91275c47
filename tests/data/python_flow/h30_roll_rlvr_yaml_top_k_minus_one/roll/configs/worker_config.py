# Imitates alibaba/ROLL roll/configs (ModelArguments, GeneratingArguments, StrategyArguments, WorkerConfig dataclasses).
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Union


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = None
    dtype: str = "bf16"
    lora_target: Optional[str] = None
    lora_rank: int = 8


@dataclass
class GeneratingArguments:
    max_new_tokens: int = 512
    temperature: float = 0.95
    top_p: float = 0.7
    top_k: int = 50
    num_beams: int = 1
    repetition_penalty: float = 1.0
    num_return_sequences: int = 1
    stop_strings: Optional[Union[str, List[str]]] = None
    eos_token_id: Optional[Union[int, List[int]]] = None

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


@dataclass
class StrategyArguments:
    strategy_name: str = "vllm"
    strategy_config: Dict[str, Any] = field(default_factory=dict)


@dataclass
class WorkerConfig:
    model_args: ModelArguments = field(default_factory=ModelArguments)
    generating_args: GeneratingArguments = field(default_factory=GeneratingArguments)
    strategy_args: StrategyArguments = field(default_factory=StrategyArguments)


@dataclass
class RLVRConfig:
    exp_name: str = ""
    seed: int = 42
    response_length: int = 512
    num_return_sequences_in_group: int = 1
    actor_infer: WorkerConfig = field(default_factory=WorkerConfig)

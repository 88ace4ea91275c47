# Imitates bigcode-project/bigcode-evaluation-harness bigcode_eval/arguments.py: EvalArguments,
# whose top_k defaults to 0 ("Top-k parameter used for generation").
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class ModelArguments:
    model: str = field(default="bigcode/starcoder2-3b", metadata={"help": "Model to evaluate."})
    max_length_generation: int = field(default=512)


@dataclass
class EvalArguments:
    prefix: Optional[str] = field(default="", metadata={"help": "Prefix to add to the prompt."})
    do_sample: Optional[bool] = field(default=True, metadata={"help": "Sample from the language model's output distribution."})
    temperature: Optional[float] = field(default=0.2, metadata={"help": "Sampling temperature used for generation."})
    top_k: Optional[int] = field(default=0, metadata={"help": "Top-k parameter used for generation."})  # expect: RPL102
    top_p: Optional[float] = field(default=0.95, metadata={"help": "Top-p parameter used for nucleus sampling."})
    n_samples: Optional[int] = field(default=1, metadata={"help": "Number of completions to generate for each sample."})
    eos: Optional[str] = field(default="<|endoftext|>", metadata={"help": "end of sentence token."})
    seed: Optional[int] = field(default=0, metadata={"help": "Random seed used for evaluation."})

# Imitates OptimalScale/LMFlow src/lmflow/args.py (trimmed to the fields the vLLM inferencer reads)
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default=None, metadata={"help": "The model checkpoint."})
    torch_dtype: Optional[str] = field(default=None, metadata={"help": "Override the default torch.dtype."})


@dataclass
class DatasetArguments:
    dataset_path: Optional[str] = field(default=None, metadata={"help": "The path of the dataset to use."})


@dataclass
class InferencerArguments:
    output_dir: Optional[str] = field(default="./outputs", metadata={"help": "Output path for the inferenced results"})
    inference_engine: str = field(default="huggingface", metadata={"help": "huggingface, vllm or sglang"})
    random_seed: Optional[int] = field(default=1, metadata={"help": "used for distributed inference"})
    temperature: float = field(default=0.0, metadata={"help": "Temperature during inference."})
    top_p: float = field(default=1.0, metadata={"help": "top_p for sampling."})
    top_k: int = field(default=-1, metadata={"help": "top_k for sampling."})
    num_output_sequences: int = field(default=1, metadata={"help": "number of output sequences"})
    max_new_tokens: int = field(default=100, metadata={"help": "Maximum length during inference."})
    use_beam_search: bool = field(default=False, metadata={"help": "whether to use beam search"})
    apply_chat_template: bool = field(default=True, metadata={"help": "whether to apply chat template"})
    inference_gpu_memory_utilization: float = field(default=0.95)
    inference_tensor_parallel_size: int = field(default=1)
    inference_max_model_len: Optional[int] = field(default=None)

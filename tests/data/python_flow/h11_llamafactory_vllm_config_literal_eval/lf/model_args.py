# Imitates hiyouga/LLaMA-Factory src/llamafactory/hparams/model_args.py (vllm_config given as a string, parsed in __post_init__)
import ast
from dataclasses import dataclass, field


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="Qwen/Qwen2.5-7B-Instruct")
    trust_remote_code: bool = field(default=True)
    infer_dtype: str = field(default="bfloat16")
    vllm_maxlen: int = field(default=4096, metadata={"help": "Maximum sequence (prompt + response) length of the vLLM engine."})
    vllm_gpu_util: float = field(default=0.7, metadata={"help": "The fraction of GPU memory in (0,1) to be used for the vLLM engine."})
    vllm_enforce_eager: bool = field(default=False)
    vllm_config: dict | str | None = field(
        default="{'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs', 'logits_processors': ['lf.processors:ForceThinkEnd']}",  # expect: RPL001
        metadata={"help": "Config to initialize the vllm engine. Use a Python dict literal."},
    )

    def __post_init__(self):
        if isinstance(self.vllm_config, str) and self.vllm_config.startswith("{"):
            self.vllm_config = ast.literal_eval(self.vllm_config)

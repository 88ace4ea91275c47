# Imitates inclusionAI/AReaL areal/api/cli_args.py: vLLMConfig is a dataclass whose fields become
# the server's flags (asdict, then get_py_cmd turns each key into --key, True into a bare flag and
# skips None/False/"").
from dataclasses import asdict, dataclass
from typing import Any


def get_py_cmd(module: str, args: dict[str, Any]):
    # convert to flags
    cmd = ["python3", "-m", module]
    for k, v in args.items():
        if v is None or v is False or v == "" or (isinstance(v, list) and not v):
            continue
        flag = f"--{k.replace('_', '-')}"
        if v is True:
            cmd.append(flag)
        elif isinstance(v, list):
            cmd.append(flag)
            cmd.extend(map(str, v))
        else:
            cmd.append(flag)
            cmd.append(str(v))
    return cmd


@dataclass
class vLLMConfig:
    model: str = ""
    seed: int = 1
    skip_tokenizer_init: bool = False
    enforce_eager: bool = False
    dtype: str = "bfloat16"
    max_num_seqs: int = 256
    max_model_len: int | None = 32768
    no_enable_prefix_caching: bool = True
    gpu_memory_utilization: float = 0.9
    enable_sleep_mode: bool = False
    # replayed rollouts: the masks come back on /inference/v1/generate
    enable_scale_out: bool = True
    return_sampling_mask: bool = True
    logprobs_mode: str = "raw_logprobs"  # expect: RPL003

    @staticmethod
    def build_args(vllm_config: "vLLMConfig", tp_size: int, pp_size: int, host: str | None = None, port: int | None = None):
        args: dict = asdict(vllm_config)
        args = dict(
            tokenizer=vllm_config.model,
            load_format="auto",
            trust_remote_code=True,
            tensor_parallel_size=tp_size,
            pipeline_parallel_size=pp_size,
            **args,
        )
        if port is not None:
            args["port"] = port
        if host is not None:
            args["host"] = host
        return args

    @staticmethod
    def build_cmd(vllm_config: "vLLMConfig", tp_size: int, pp_size: int, host: str | None = None, port: int | None = None):
        args = vLLMConfig.build_args(vllm_config=vllm_config, tp_size=tp_size, pp_size=pp_size, host=host, port=port)
        return get_py_cmd("vllm.entrypoints.openai.api_server", args)

"""vLLM config files checked on their own: a YAML file whose content says it is a vLLM config
(a top-level mapping, mostly of `vllm serve` option names, holding the mask switch) is a launch
of its own. Such a launch is open-ended: the command line that loads the file can add or
override anything; where scripts or Dockerfiles of its tree load it (`vllm serve --config FILE`), what they all
report about it is its judgment instead (`Launch.config_alone`). Its words come from `words.vllm_config`, which also writes its fixes.
"""

from __future__ import annotations

from dataclasses import replace

from yaml.nodes import MappingNode, Node

from ...model import Launch, LaunchKind
from ...readers.vllm_config import ConfigFile, tokens
from ...readers.yaml_nodes import entries, span
from ...readers.yaml_words import Words
from ...records import record
from ...source import SourceFile
from ...vllm.options import table_for
from ...vllm.releases import NEWEST
from .container_launch import Env, build, container_context

MASK_KEYS = frozenset(("return_sampling_mask", "return-sampling-mask", "enable_return_sampling_mask", "enable-return-sampling-mask"))
# Common `vllm serve` options, so a config file is recognised even without the dumped tables.
_COMMON = frozenset(
    """model served_model_name host port tensor_parallel_size pipeline_parallel_size data_parallel_size
    gpu_memory_utilization max_model_len max_num_seqs max_num_batched_tokens dtype trust_remote_code
    tokenizer revision seed quantization enforce_eager enable_prefix_caching enable_chunked_prefill
    kv_cache_dtype swap_space block_size api_key uvicorn_log_level disable_log_requests
    disable_log_stats enable_lora max_loras max_lora_rank chat_template tool_call_parser
    enable_auto_tool_choice reasoning_parser max_logprobs logprobs_mode return_sampling_mask
    generation_config override_generation_config download_dir load_format""".split()
)


def looks_like_config(document: Node) -> bool:
    if not isinstance(document, MappingNode):
        return False
    keys = [str(key.value) for key, _ in entries(document)]
    if not keys or not any(key in MASK_KEYS for key in keys):
        return False
    if any(key in ("apiVersion", "kind", "services", "jobs", "steps") for key in keys):
        return False
    table = table_for(NEWEST)
    known = 0
    for key in keys:
        head = key.split(".", 1)[0]
        flag = "--" + head.replace("_", "-")
        if flag in table.options or head.replace("-", "_") in _COMMON or key in MASK_KEYS:
            known += 1
    return known * 2 >= len(keys)


@record
class ConfigHandle:
    """A standalone config file launch: fixes edit the file itself."""

    path: str


def standalone(source: SourceFile, document: MappingNode) -> Launch | None:
    config = ConfigFile(source.path, source.text, source.index, document)
    words = Words()
    for token in tokens(config):
        words.add(token, None)
    reasons = ("the command line that loads this file can add or override settings",)
    context = container_context(LaunchKind.VLLM_CONFIG, Env(open=True), label=source.path, open_reasons=reasons)
    launch = build(context, span(source.index, document), words, "serve")
    # the scripts of its tree that load it judge it instead, with their command lines (`config_readers`)
    return replace(launch, handle=ConfigHandle(source.path), config_alone=True)

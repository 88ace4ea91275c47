"""AReaL (PyPI `areal`): its vLLM server is built from the `vllm:` section of its experiment
config, a closed dataclass.

AReaL 1.0.4 (the PyPI wheel, `areal/api/cli_args.py`): `class vLLMConfig` (line 1689) lists the
keys the section may hold, and `vLLMConfig.build_args` (line 1744) turns them into
`python3 -m areal.engine.vllm_ext.areal_vllm_server --key value` words: there is no
`return_sampling_mask` key, so replay cannot be asked for through AReaL. `to_structured_cfg`
(line 3085-3086) merges what the user wrote into `OmegaConf.structured(config_cls)`, and
OmegaConf (2.4.0.dev2, which AReaL pins; `omegaconf/dictconfig.py:160`) refuses a key the
dataclass lacks: "Key 'return_sampling_mask' not in 'vLLMConfig'" (`ConfigKeyError`). Every
entry point reaches that merge: `load_expr_config` (line 3090; the training scripts, `python3
examples/math/gsm8k_rl.py --config gsm8k_grpo.yaml`, read here when the tree holds them), `areal.infra.launcher.vllm_server`
(`launch_vllm_server`, line 256 of its module), which `areal.infra.launcher.local`, `.ray` and
`.slurm` start with the same arguments.

Found here: a config of AReaL's shape (top-level `experiment_name`, `trial_name` and a `vllm:`
mapping) whose `vllm:` section writes a replay key AReaL lacks (RPL204, in OmegaConf's words), and
the same key added on the command line (`+vllm.return_sampling_mask=true`, `++vllm...`) of AReaL's
launchers or of a training script the tree holds that imports AReaL and calls `load_expr_config`. A plain `vllm.return_sampling_mask=true` is refused too, but by Hydra or by the
merge depending on the config file, so its words are not known here: not reported. Refusals of
keys that are not replay's are AReaL's business; nothing else of the section is judged (no replay
setting can reach vLLM through it).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..launch_context import LaunchContext
from ..model import Launch, LaunchKind, Span
from ..vllm.command_line import Token
from .editions import Edition, Editions, build
from .nearby import upward
from .refusals import names_replay, refusal, refused
from .views import OVERRIDE_KEY, ConfigView

# The git tags v1.0.0-v1.0.4 and main @ 4aef98d agree with the wheel here: a `vLLMConfig` without
# any replay key, merged with `OmegaConf.merge(default_cfg, cfg)`, omegaconf pinned at 2.4.0.dev2.
_MAIN = "4aef98d8d818af55b43621aaadba047ae10f4e77"
_TAGS = ("v1.0.4", "v1.0.3", "v1.0.2", "v1.0.1", "v1.0.0")
_SOURCE = "areal 1.0.4 areal/api/cli_args.py:1689-1744 (vLLMConfig), :3085-3090; omegaconf 2.4.0.dev2 dictconfig.py:160"
EDITIONS = Editions("AReaL", "areal", "words", (Edition("1.0.4", releases=("1.0.4",), refs=(*_TAGS, _MAIN), source=_SOURCE),))
SECTION = "vllm"
# `vLLMConfig`'s fields in AReaL 1.0.4 (areal/api/cli_args.py:1694-1741).
FIELDS = frozenset(
    "model seed skip_tokenizer_init enforce_eager dtype distributed_executor_backend max_num_seqs block_size "
    "cpu_offload_gb disable_sliding_window max_model_len no_enable_chunked_prefill no_enable_prefix_caching "
    "gpu_memory_utilization worker_extension_cls enable_sleep_mode uvicorn_log_level gdn_prefill_backend "
    "enable_lora max_lora_rank max_loras lora_modules".split()
)
_SHAPE = ("experiment_name", "trial_name")  # `BaseExperimentConfig`'s required keys (MISSING defaults)
# A training script of AReaL's kind (examples/math/gsm8k_rl.py): it imports AReaL and reads its
# command line with `load_expr_config(args, GRPOConfig)`.
_FROM_AREAL = re.compile(r"^\s*(from\s+areal(\.[\w.]+)?\s+import|import\s+areal)\b", re.MULTILINE)
_LOADS_CONFIG = re.compile(r"\bload_expr_config\s*\(")


def refusal_message(key: str) -> str:
    """OmegaConf's words for a key `vLLMConfig` lacks."""
    return f"Key '{key}' not in 'vLLMConfig'"


def _refused_key(key: str) -> bool:
    return key not in FIELDS and names_replay(key)


def yaml_launches(view: ConfigView, path: str, read_text: object = None, read_view: object = None) -> list[Launch] | None:
    """The launches of an AReaL experiment config (None: the document is not one)."""
    if not all(view.has(key) for key in _SHAPE):
        return None
    section = view.value(SECTION)
    if not isinstance(section, dict):
        return None
    key = next((str(key) for key in section if _refused_key(str(key))), None)
    span = view.span(SECTION, key) if key is not None else None
    if key is None or span is None:
        return []
    label = f"AReaL: {path}"
    return [_refusal_launch(span, view.spelling(SECTION, key), key, label, LaunchKind.FRAMEWORK)]


def command_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python -m areal.infra.launcher.local SCRIPT --config x.yaml +vllm.KEY=VALUE ...`: the
    first override that adds a replay key `vLLMConfig` lacks."""
    for token in tokens:
        match = OVERRIDE_KEY.match(token.text or "")
        if match is None or match.group(1) not in ("+", "++"):
            continue
        section, _, key = match.group(2).partition(".")
        if section == SECTION and "." not in key and _refused_key(key):
            label = f"AReaL: {context.label or 'launcher'}"
            return _refusal_launch(token.span, token.raw, key, label, LaunchKind.CLI, context.condition)
    return None


def script_launch(context: LaunchContext, span: Span, tokens: list[Token]) -> Launch | None:
    """`python3 examples/math/gsm8k_rl.py --config x.yaml +vllm.KEY=VALUE`: when the tree holds the
    program and it reads its command line with AReaL's `load_expr_config`, as `command_launch`."""
    script = tokens[0] if tokens else None
    if script is None or not script.known or context.read_text is None:
        return None
    text = upward(str(script.text), span.path, context.read_text)
    if text is None or _FROM_AREAL.search(text) is None or _LOADS_CONFIG.search(text) is None:
        return None
    return command_launch(replace(context, label=f"{context.label} {script.raw}".strip()), span, tokens[1:])


def _refusal_launch(span: Span, spelling: str, key: str, label: str, kind: LaunchKind, condition: str | None = None) -> Launch:
    def make(edition: Edition) -> Launch:
        launch = Launch(kind, span, {}, label=label, condition=condition)
        return refused(launch, refusal(span, spelling, key, refusal_message(key)))

    launch = build(EDITIONS, make)
    assert launch is not None
    return launch

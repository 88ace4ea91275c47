"""SkyRL (NovaSky-AI/SkyRL, PyPI `skyrl` 0.3.0): the vLLM servers of `skyrl.train.entrypoints.main_base`.

Source: skyrl 0.3.0. `skyrl/backends/skyrl_train/inference_servers/utils.py`
`build_vllm_cli_args` parses vLLM's defaults (`parser.parse_args(args=[])`), then `setattr`s on
the namespace: `tensor_parallel_size`, `pipeline_parallel_size`, `dtype` (from `model_dtype`),
`data_parallel_size`, `gpu_memory_utilization`, `enable_prefix_caching`, `enforce_eager`,
`max_num_batched_tokens`, `enable_expert_parallel = expert_parallel_size > 1`, `max_num_seqs`,
`enable_return_routed_experts`, `model` (from `trainer.policy.model.path`),
`generation_config="vllm"`, ...; `speculative_config` when set; and last
`for key, value in engine_kwargs.items(): setattr(args, key, value)` over
`generator.inference_engine.engine_init_kwargs`, so those win, under the names as written (a
kebab-case key is an attribute vLLM's `from_cli_args` never reads). SkyRL never sets
`logprobs_mode`. Overrides are `OmegaConf.from_cli` words (`skyrl/train/config/config.py`
`from_cli_overrides`: values read as YAML; a leading `+` is rejected, so such words are left
out). Requests: `generator.sampling_params` (defaults `temperature: 1.0`, `top_k: -1`) and
`generator.eval_sampling_params`: unset, `SamplingParams(temperature=0.0, ...)`
(`config.py:850-853`); once any of its keys is written, `build_nested_dataclass`
(`config.py:1134-1165`) builds `SamplingParams(**written)`, whose own defaults apply
(`temperature: 1.0`, `top_k: -1`, `config.py:712-715`).

One edition (`EDITIONS`): 0.3.0 and GitHub main @ a956457 (2026-08-21) do all of the above
alike (main adds only `offload_kv_for_weight_sync` to `enable_sleep_mode`).

`generator.inference_engine.enable_return_sample_support_set` (SkyRL pull request #2082 @
9a8327d, on neither 0.3.0 nor main) is not a vLLM engine argument: it makes SkyRL's own `/skyrl/v1/generate` route rebuild the support from
top-k logprobs, so it maps to nothing here. Not seen: `$VAR` values, the installed SkyRL, custom
entrypoints and generators.
"""

from __future__ import annotations

from typing import Any

from ..model import UNKNOWN, ArgIssue, Launch, LaunchKind, Request, Setting, Span
from ..vllm.argv import Token
from ..vllm.fields import FIELDS
from .editions import Edition, Editions, build, register
from .views import ConfigView, read_overrides

EDITIONS = register(
    Editions(
        "SkyRL", "skyrl", "attributes", (Edition("0.3.0", releases=("0.3.0",), refs=("a9564572eb8e91076be43c1bd5e4615e3de17265", "main")),)
    )
)
ENGINE = ("generator", "inference_engine")
EVAL = ("generator", "eval_sampling_params")
_TYPED = {
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "data_parallel_size": "data_parallel_size",
    "model_dtype": "dtype",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "enable_prefix_caching": "enable_prefix_caching",
    "enforce_eager": "enforce_eager",
    "max_num_batched_tokens": "max_num_batched_tokens",
    "max_num_seqs": "max_num_seqs",
    "enable_return_routed_experts": "enable_return_routed_experts",
    "speculative_config": "speculative_config",
}


def command_launch(span: Span, tokens: list[Token], **options: Any) -> Launch | None:
    """`python -m skyrl.train.entrypoints.main_base key=value ...` (behind `uv run`)."""
    overrides = read_overrides(tokens)
    reasons = list(options.get("open_reasons", ())) + overrides.open_reasons
    return adapt(
        overrides,
        span,
        env=dict(options.get("env") or {}),
        open_reasons=reasons,
        label=f"skyrl: {options.get('label') or 'main_base'}",
        condition=options.get("condition"),
    )


def adapt(
    view: ConfigView,
    anchor: Span,
    env: dict[str, Setting] | None = None,
    open_reasons: list[str] | None = None,
    label: str = "skyrl",
    condition: str | None = None,
) -> Launch | None:
    if view.value(*ENGINE, "backend", default="vllm") != "vllm":
        return None
    return build(EDITIONS, lambda edition: _launch(view, anchor, EDITIONS.owner(edition), env, open_reasons, label, condition))


def _launch(
    view: ConfigView,
    anchor: Span,
    owner: str,
    env: dict[str, Setting] | None,
    open_reasons: list[str] | None,
    label: str,
    condition: str | None,
) -> Launch:
    reasons = list(open_reasons or ())
    issues: list[ArgIssue] = []
    settings: dict[str, Setting] = {}
    for key, name in _TYPED.items():
        setting = view.setting(name, *ENGINE, key)
        if setting is not None:
            settings[name] = setting
    expert = view.setting("enable_expert_parallel", *ENGINE, "expert_parallel_size")
    if expert is not None:
        settings["enable_expert_parallel"] = Setting(
            expert.name, expert.value > 1 if isinstance(expert.value, int) else UNKNOWN, expert.span, expert.spelling
        )
    model = view.setting("model", "trainer", "policy", "model", "path")
    if model is not None:
        settings["model"] = model
    settings["generation_config"] = Setting("generation_config", "vllm", anchor, f"({owner} sets generation_config='vllm')")
    engine = view.value(*ENGINE, "engine_init_kwargs", default={})
    if isinstance(engine, dict):
        for key in engine:
            if "-" in str(key):
                # setattr under this name: vLLM's from_cli_args reads only its dataclass fields
                ignored = view.setting(str(key), *ENGINE, "engine_init_kwargs", str(key))
                name = str(key).replace("-", "_")
                if ignored is not None and name in FIELDS:
                    detail = f"{owner.split()[0]} sets attributes by name; vLLM reads `{name}`"
                    issues.append(ArgIssue("ignored-key", ignored.span, ignored.spelling, name, detail))
                continue
            setting = view.setting(str(key), *ENGINE, "engine_init_kwargs", str(key))
            if setting is not None:
                settings[str(key)] = setting
    elif engine is UNKNOWN or engine is not None:
        reasons.append("generator.inference_engine.engine_init_kwargs (not readable here)")
    mask = settings.get("return_sampling_mask")
    # Unset, eval requests are greedy; once a key is written, SamplingParams' own defaults apply.
    evaluation = {"temperature": 1.0 if isinstance(view.value(*EVAL), dict) else 0.0, "top_k": -1}
    requests = (
        _request(view, ("generator", "sampling_params"), {"temperature": 1.0, "top_k": -1}, mask, anchor, bool(reasons), owner),
        _request(view, EVAL, evaluation, mask, anchor, bool(reasons), owner),
    )
    return Launch(
        LaunchKind.FRAMEWORK,
        anchor,
        settings,
        dict(env or {}),
        open_ended=bool(reasons),
        open_reason=", ".join(reasons),
        issues=tuple(issues),
        requests=requests,
        condition=condition,
        label=label,
    )


def _request(
    view: ConfigView, prefix: tuple[str, ...], defaults: dict[str, Any], mask: Setting | None, anchor: Span, open_ended: bool, owner: str
) -> Request:
    """One kind of request; SkyRL's defaults stand in for keys not written, unless something
    we cannot see may write them."""
    found, missing = view.request_settings(prefix, defaults, mask.span if mask is not None else anchor, open_ended, owner)
    return Request("sampling", view.span(*prefix) or anchor, found, missing)

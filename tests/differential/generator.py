"""Seeded launch configurations for the differential test (deterministic for a given seed).

A case is one launch in two forms: `argv`, the words after `vllm serve`, and, where Python can
say it, `kwargs`, the keyword arguments of `vllm.LLM(...)` (no dotted keys, abbreviations or
repeated options: the value those spellings end up with). Both forms are judged separately by
the real vLLM, so they need not mean exactly the same thing.

Each case is assembled from independent dimensions (mask, logprobs mode, logits processors,
speculative decoding, runner variable, DBO, batch-sharded sampling, diffusion overrides,
watermarking, neighbours). A dimension picks one variant by weight; a variant is a list of
option groups (kept in order among themselves, shuffled among the other dimensions' groups)
and a kwargs fragment. Weights favour launches whose outcome a replay rule decides.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

MODEL = "org/model"  # a name that tells nothing about the architecture
NAMED_MODEL = "meta-llama/Llama-3.2-1B-Instruct"  # the judge's tiny model is a Llama too
DIFFUSION_MODEL = "org/DiffusionGemma-tiny"
RUNNER_ENV = "VLLM_USE_V2_MODEL_RUNNER"
NEWEST_MINOR = 34  # the newest vLLM 0.X release the generator knows the options of
ABSENT = object()  # a kwargs value meaning "leave the keyword out"


@dataclass
class Case:
    id: str
    argv: list[str]
    env: dict[str, str]
    kwargs: dict[str, Any] | None
    mask: bool  # the argv form sets the mask option to true (the last mask option wins), even
    # where argparse then fails on it (`--return-sampling-mask=true`)
    kwargs_mask: bool  # the kwargs form asks for replay (pydantic's lax boolean)
    gpus: int = 1
    hf_configs: dict[str, dict] = field(default_factory=dict)
    fake_modules: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    style: dict[str, Any] = field(default_factory=dict)

    def judge_cases(self) -> list[dict]:
        """The judge's input lines for this case: argv form, then kwargs form if there is one."""
        common: dict[str, Any] = {"env": self.env}
        if self.gpus != 1:
            common["gpus"] = self.gpus
        if self.hf_configs:
            common["hf_configs"] = self.hf_configs
        if self.fake_modules:
            common["fake_modules"] = self.fake_modules
        lines = [{"id": f"{self.id}/argv", "argv": self.argv, **common}]
        if self.kwargs is not None:
            via = {"via": "EngineArgs"} if self.style.get("python") == "EngineArgs" else {}
            lines.append({"id": f"{self.id}/kwargs", "engine_kwargs": self.kwargs, **via, **common})
        return lines

    def asks_for_replay(self, form: str) -> bool:
        """Whether the argv or kwargs form turns the mask on (as vLLM's parser would set it)."""
        return self.mask if form == "argv" else self.kwargs_mask

    @property
    def model(self) -> str:
        return self.kwargs["model"] if self.kwargs else MODEL


@dataclass
class Variant:
    """One choice of a dimension: option groups for argv, a kwargs fragment, labels."""

    tag: str
    groups: list[list[str]] = field(default_factory=list)
    kwargs: dict[str, Any] = field(default_factory=dict)
    mask: bool | None = None  # set by mask variants only
    kwargs_mask: bool | None = None
    gpus: int = 1
    hf_configs: dict[str, dict] = field(default_factory=dict)
    fake_modules: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    model: str | None = None
    minors: tuple[int, int] = (28, NEWEST_MINOR)  # the vLLM 0.X releases that know these options

    def fits(self, minor: int) -> bool:
        return self.minors[0] <= minor <= self.minors[1]


Chooser = Callable[[random.Random], Variant]


def _weighted(rng: random.Random, table: list[tuple[int, Any]]) -> Any:
    total = sum(weight for weight, _ in table)
    point = rng.randrange(total)
    for weight, choice in table:
        point -= weight
        if point < 0:
            return choice
    raise AssertionError("unreachable")


def _json(rng: random.Random, value: Any) -> str:
    """JSON text in one of the spellings people write (compact or spaced)."""
    return json.dumps(value, separators=(",", ":")) if rng.random() < 0.5 else json.dumps(value)


# -- mask ---------------------------------------------------------------------------------------

_MASK_KWARGS = [(70, True), (6, "yes"), (5, 1), (4, "true"), (8, False), (5, ABSENT), (2, "enabled"), (1, None), (1, 2)]
_LAX_TRUE = {True, "yes", "true"}  # and 1, which equals True


def mask(rng: random.Random) -> Variant:
    on = ["--return-sampling-mask"]
    table: list[tuple[int, tuple[str, list[list[str]], bool]]] = [
        (52, ("plain", [on], True)),
        (6, ("underscore", [["--return_sampling_mask"]], True)),
        (6, ("abbrev-return-s", [["--return-s"]], True)),
        (3, ("abbrev-return-sampling", [["--return-sampling"]], True)),
        (5, ("no-then-yes", [["--no-return-sampling-mask"], on], True)),
        (3, ("repeated", [on, on], True)),
        (4, ("yes-then-no", [on, ["--no-return-sampling-mask"]], False)),
        (2, ("yes-then-no-abbrev", [on, ["--no-return-s"]], False)),
        (9, ("absent", [], False)),
        (3, ("eq-true", [["--return-sampling-mask=true"]], True)),
        (2, ("bare-true", [on + ["true"]], True)),
        # Neither sets the mask option (argparse stops, or never knew the name).
        (1, ("ambiguous-return", [["--return"]], False)),
        (1, ("pre-release-name", [["--enable-return-sampling-mask"]], False)),
    ]
    tag, groups, argv_on = _weighted(rng, table)
    value = _weighted(rng, _MASK_KWARGS)
    kwargs = {} if value is ABSENT else {"return_sampling_mask": value}
    return Variant(f"mask:{tag}", groups, kwargs, mask=argv_on, kwargs_mask=value in _LAX_TRUE)


def model_name(rng: random.Random) -> Variant:
    return Variant("model:named") if rng.random() < 0.4 else Variant("model:opaque")


# -- logprobs mode --------------------------------------------------------------------------------

def logprobs(rng: random.Random) -> Variant:
    mode = _weighted(
        rng,
        [(62, "processed_logprobs"), (6, "raw_logprobs"), (4, "processed_logits"), (3, "raw_logits"),
         (4, "processed-logprobs"), (1, "PROCESSED_LOGPROBS"), (1, "None"), (14, None)],
    )
    if mode is None:
        return Variant("logprobs:absent")
    spelling = _weighted(rng, [(40, "flag"), (8, "underscore-eq"), (8, "abbrev"), (5, "eq"), (4, "repeated")])
    groups = {
        "flag": [["--logprobs-mode", mode]],
        "underscore-eq": [[f"--logprobs_mode={mode}"]],
        "abbrev": [["--logp", mode]],
        "eq": [[f"--logprobs-mode={mode}"]],
        "repeated": [["--logprobs-mode", "raw_logprobs"], ["--logprobs-mode", mode]],
    }[spelling]
    return Variant(f"logprobs:{mode}:{spelling}", groups, {"logprobs_mode": None if mode == "None" else mode})


# -- logits processors --------------------------------------------------------------------------

def logits_processors(rng: random.Random) -> Variant:
    return _weighted(
        rng,
        [
            (80, Variant("lp:absent")),
            (8, Variant("lp:one", [["--logits-processors", "a.b:C"]], {"logits_processors": ["a.b:C"]})),
            (2, Variant("lp:two", [["--logits-processors", "a.b:C", "d.e:F"]], {"logits_processors": ["a.b:C", "d.e:F"]})),
            (2, Variant("lp:abbrev", [["--logi", "a.b:C"]], {"logits_processors": ["a.b:C"]})),
            (2, Variant("lp:underscore-eq", [["--logits_processors=a.b:C"]], {"logits_processors": ["a.b:C"]})),
            (2, Variant("lp:empty-list", [], {"logits_processors": []})),
            (1, Variant("lp:empty-word", [["--logits-processors", ""]], {"logits_processors": [None]})),
        ],
    )


# -- speculative decoding -----------------------------------------------------------------------

_DRAFTS = {
    "eagle": "org/EAGLE-llama-draft",
    "eagle3": "org/EAGLE3-draft",
    "draft_model": "meta-llama/Llama-3.2-1B",
    "dspark": "org/dspark-draft",
    "medusa": "meta-llama/medusa-llama-heads",
    "custom_class": "my_pkg.MyProposer",
}


def _spec_config(rng: random.Random) -> tuple[str, dict[str, Any], list[str]]:
    method = _weighted(
        rng,
        [(20, "ngram"), (20, "eagle3"), (8, "eagle"), (10, "draft_model"), (5, "ngram_gpu"), (10, "suffix"),
         (8, "dspark"), (4, "extract_hidden_states"), (5, "inferred-eagle3"), (4, "inferred-draft"),
         (2, "model-ngram"), (2, "mtp"), (1, "medusa"), (2, "custom_class")],
    )
    config: dict[str, Any] = {}
    if method == "inferred-eagle3":
        config["model"] = _DRAFTS["eagle3"]
    elif method == "inferred-draft":
        config["model"] = _DRAFTS["draft_model"]
    elif method == "model-ngram":
        config["model"] = "ngram"
    else:
        config["method"] = method
        if method in _DRAFTS:
            config["model"] = _DRAFTS[method]
    config["num_speculative_tokens"] = rng.choice((1, 2, 3, 5))
    if method in ("ngram", "ngram_gpu", "model-ngram"):
        config["prompt_lookup_max"] = 3
    adaptive = _weighted(rng, [(55, ABSENT), (28, True), (10, False), (4, "yes"), (2, "True"), (1, "false")])
    if adaptive is not ABSENT:
        key = "enable-adaptive-verification" if rng.random() < 0.2 else "enable_adaptive_verification"
        config[key] = adaptive
    if rng.random() < 0.06:
        config["parallel_drafting"] = True
    if method == "draft_model" and rng.random() < 0.3:
        config["use_heterogeneous_vocab"] = True
    fake = ["arctic_inference"] if method == "suffix" else []
    return method, config, fake


def _dotted(rng: random.Random, prefix: str, config: dict[str, Any]) -> list[list[str]]:
    groups = []
    for key, value in config.items():
        text = value if isinstance(value, str) else json.dumps(value)
        groups.append([f"{prefix}.{key}={text}"] if rng.random() < 0.2 else [f"{prefix}.{key}", text])
    return groups


_WHOLE_JSON = {"sc-json": "-sc", "long-json": "--speculative-config", "abbrev-json": "--specu"}
_DOTTED = {"sc-dotted": "-sc", "long-dotted": "--speculative-config", "abbrev-dotted": "--specu"}
Spelled = tuple[str, list[list[str]], dict[str, Any]]  # spelling, option groups, LLM kwargs


def _spec_groups(rng: random.Random, config: dict[str, Any]) -> Spelled:
    """How the config is written, and the config vLLM ends up with (as LLM kwargs)."""
    spelling = _weighted(
        rng,
        [(30, "sc-json"), (14, "long-json"), (5, "underscore-eq-json"), (14, "sc-dotted"), (8, "long-dotted"),
         (4, "abbrev-dotted"), (2, "abbrev-json"), (12, "aliases"), (8, "json-then-dotted"),
         (3, "long-dotted-beats-sc-json"), (3, "json-twice"), (2, "json-then-none")],
    )
    kwargs = {"speculative_config": config}
    if spelling in _WHOLE_JSON:
        return spelling, [[_WHOLE_JSON[spelling], _json(rng, config)]], kwargs
    if spelling in _DOTTED:
        return spelling, _dotted(rng, _DOTTED[spelling], config), kwargs
    if spelling == "underscore-eq-json":
        return spelling, [["--speculative_config=" + _json(rng, config)]], kwargs
    if spelling == "aliases":
        return _alias_groups(rng, config)
    return {
        "json-twice": _json_twice,
        "json-then-none": _json_then_none,
        "json-then-dotted": _json_then_dotted,
        "long-dotted-beats-sc-json": _long_dotted_beats_sc_json,
    }[spelling](rng, config)


def _json_twice(rng: random.Random, config: dict[str, Any]) -> Spelled:
    """The last occurrence wins."""
    other = {"method": "ngram", "num_speculative_tokens": 2, "prompt_lookup_max": 2, "enable_adaptive_verification": True}
    first, last = (other, config) if rng.random() < 0.5 else (config, other)
    return "json-twice", [["-sc", _json(rng, first)], ["--speculative-config", _json(rng, last)]], {"speculative_config": last}


def _json_then_none(rng: random.Random, config: dict[str, Any]) -> Spelled:
    """`''`, `None` and `null` all mean no speculative config."""
    groups = [["-sc", _json(rng, config)], ["-sc", rng.choice(("", "None", "null"))]]
    return "json-then-none", groups, {"speculative_config": None}


def _json_then_dotted(rng: random.Random, config: dict[str, Any]) -> Spelled:
    """Dotted keys are merged into their own dict, appended last: it replaces the JSON, whether
    they are a few keys (often no valid config alone) or a whole config whose adaptive
    verification differs from the JSON's."""
    plain = {key: value for key, value in config.items() if "adaptive" not in key}
    if rng.random() < 0.5:
        whole = config
        replacement = {key: config[key] for key in config if rng.random() < 0.5} or {"num_speculative_tokens": 2}
    elif rng.random() < 0.5:
        whole, replacement = {**plain, "enable_adaptive_verification": True}, plain
    else:
        whole, replacement = plain, {**plain, "enable_adaptive_verification": True}
    groups = [["-sc", _json(rng, whole)], *_dotted(rng, "-sc", replacement)]
    return "json-then-dotted", groups, {"speculative_config": replacement}


def _long_dotted_beats_sc_json(rng: random.Random, config: dict[str, Any]) -> Spelled:
    """`--speculative-config.x` and `-sc` are different spellings; the dotted one comes last."""
    other = {**config, "enable_adaptive_verification": True}
    groups = [["-sc", _json(rng, other)], *_dotted(rng, "--speculative-config", config)]
    return "long-dotted-beats-sc-json", groups, {"speculative_config": config}


_ALIASES = {"method": "--spec-method", "model": "--spec-model", "num_speculative_tokens": "--spec-tokens"}
_ALIAS_ABBREVIATIONS = {"--spec-method": "--spec-meth", "--spec-model": "--spec-mod", "--spec-tokens": "--spec-t"}
_ALIAS_KWARGS = {"method": "spec_method", "model": "spec_model", "num_speculative_tokens": "spec_tokens"}


def _alias_groups(rng: random.Random, config: dict[str, Any]) -> Spelled:
    groups: list[list[str]] = []
    kwargs: dict[str, Any] = {}
    rest = {}
    for key, value in config.items():
        if key in _ALIASES:
            flag = _ALIASES[key] if rng.random() < 0.8 else _ALIAS_ABBREVIATIONS[_ALIASES[key]]
            groups.append([flag, str(value)])
            kwargs[_ALIAS_KWARGS[key]] = value
        else:
            rest[key] = value
    if rest:
        groups.append(["-sc", _json(rng, rest)])
        kwargs["speculative_config"] = rest
    return "aliases", groups, kwargs


def speculative(rng: random.Random) -> Variant:
    if rng.random() < 0.5:
        return Variant("spec:absent")
    method, config, fake = _spec_config(rng)
    spelling, groups, kwargs = _spec_groups(rng, config)
    adaptive = next((str(v) for k, v in config.items() if "adaptive" in k), "-")
    minors = (28, 32) if method == "medusa" else (28, NEWEST_MINOR)
    if adaptive in ("True", "yes") and method != "dspark":
        minors = (30, minors[1])  # 0.28-0.29: "Adaptive verification only supported with DSpark"
    return Variant(f"spec:{method}:{spelling}:av={adaptive}", groups, kwargs, fake_modules=fake, minors=minors)


# -- runner variable ------------------------------------------------------------------------------

def runner(rng: random.Random) -> Variant:
    value = _weighted(
        rng,
        [(55, None), (17, "0"), (17, "1"), (5, "true"), (1, "2"), (1, ""), (1, "yes"), (1, " 1"), (1, "-1"),
         (1, "1.0"), (1, "00")],
    )
    if value is None:
        return Variant("env:unset")
    return Variant(f"env:{value!r}", env={RUNNER_ENV: value})


# -- runner-related neighbours --------------------------------------------------------------------

def dual_batch_overlap(rng: random.Random) -> Variant:
    variant = _weighted(
        rng,
        [
            (85, Variant("dbo:absent")),
            (7, Variant("dbo:enable", [["--enable-dbo"]], {"enable_dbo": True})),
            (5, Variant("dbo:ubatch-2", [["--ubatch-size", "2"]], {"ubatch_size": 2})),
            (1, Variant("dbo:ubatch-abbrev", [["--ubatch", "2"]], {"ubatch_size": 2})),
            (2, Variant("dbo:ubatch-1", [["--ubatch-size", "1"]], {"ubatch_size": 1})),
            (1, Variant("dbo:enable-then-no", [["--enable-dbo"], ["--no-enable-dbo"]], {"enable_dbo": False})),
        ],
    )
    if variant.groups and rng.random() < 0.5:
        # Without an all2all backend that can microbatch, vLLM stops at its own assertion
        # before the runner checks that decide replay.
        variant.groups.append(["--all2all-backend", "deepep_low_latency"])
        variant.kwargs["all2all_backend"] = "deepep_low_latency"
        variant.tag += "+a2a"
    return variant


def batch_sharded(rng: random.Random) -> Variant:
    tp = _weighted(rng, [(70, 1), (20, 2), (5, "2-long"), (5, "1-explicit")])
    groups: list[list[str]] = []
    kwargs: dict[str, Any] = {}
    if tp == 2:
        groups.append(["-tp", "2"])
    elif tp == "2-long":
        groups.append(["--tensor-parallel-size", "2"])
    elif tp == "1-explicit":
        groups.append(["-tp", "1"])
    size = 2 if str(tp).startswith("2") else 1
    if tp != 1:
        kwargs["tensor_parallel_size"] = size
    choice = _weighted(
        rng,
        [(78, "absent"), (10, "enable"), (2, "abbrev"), (3, "underscore"), (3, "no-enable"), (2, "disable"),
         (2, "max-logprobs"), (2, "max-num-seqs")],
    )
    flag = {"enable": "--enable-batch-sharded-sampling", "abbrev": "--enable-b",
            "underscore": "--enable_batch_sharded_sampling", "no-enable": "--no-enable-batch-sharded-sampling",
            "disable": "--disable-batch-sharded-sampling"}
    minors = {"absent": (28, NEWEST_MINOR), "disable": (33, NEWEST_MINOR), "abbrev": (30, NEWEST_MINOR)}.get(choice, (29, NEWEST_MINOR))
    if choice in flag:
        groups.append([flag[choice]])
        kwargs["enable_batch_sharded_sampling"] = choice not in ("no-enable", "disable")
    elif choice == "max-logprobs":
        groups += [["--enable-batch-sharded-sampling"], ["--max-logprobs", "-1"]]
        kwargs.update(enable_batch_sharded_sampling=True, max_logprobs=-1)
    elif choice == "max-num-seqs":
        groups += [["--enable-batch-sharded-sampling"], ["--max-num-seqs", "1"]]
        kwargs.update(enable_batch_sharded_sampling=True, max_num_seqs=1)
    return Variant(f"bss:{choice}:tp={tp}", groups, kwargs, gpus=size, minors=minors)


def diffusion(rng: random.Random) -> Variant:
    return _weighted(
        rng,
        [
            (86, Variant("diffusion:absent")),
            (5, Variant("diffusion:json", [["--hf-overrides", '{"canvas_length": 16}']], {"hf_overrides": {"canvas_length": 16}})),
            (3, Variant("diffusion:dotted", [["--hf-overrides.canvas_length", "16"]], {"hf_overrides": {"canvas_length": 16}})),
            (1, Variant("diffusion:abbrev", [["--hf-over", '{"canvas_length":4}']], {"hf_overrides": {"canvas_length": 4}})),
            (2, Variant("diffusion:null", [["--hf-overrides", '{"canvas_length": null}']], {"hf_overrides": {"canvas_length": None}})),
            (2, Variant("diffusion:other-key", [["--hf-overrides", '{"rope_theta": 20000.0}']], {"hf_overrides": {"rope_theta": 20000.0}})),
            # A model whose own config.json has a canvas_length; only its name tells (DiffusionGemma).
            (2, Variant("diffusion:model-config", [], model=DIFFUSION_MODEL, hf_configs={DIFFUSION_MODEL: {"canvas_length": 16}})),
        ],
    )


def watermark(rng: random.Random) -> Variant:
    return _weighted(
        rng,
        [
            (91, Variant("watermark:absent")),
            (6, Variant("watermark:json", [["--watermark-config", '{"key": 42}']], {"watermark_config": {"key": 42}}, minors=(30, NEWEST_MINOR))),
            (3, Variant("watermark:dotted", [["--watermark-config.key", "42"]], {"watermark_config": {"key": 42}}, minors=(30, NEWEST_MINOR))),
        ],
    )


def parallelism(rng: random.Random) -> Variant:
    return _weighted(
        rng,
        [
            (88, Variant("parallel:none")),
            (4, Variant("parallel:pp-2", [["-pp", "2"]], {"pipeline_parallel_size": 2}, gpus=2)),
            (3, Variant("parallel:pcp-2", [["-pcp", "2"]], {"prefill_context_parallel_size": 2}, gpus=2)),
            (3, Variant(
                "parallel:external-launcher-pp-2",
                [["--distributed-executor-backend", "external_launcher"], ["--pipeline-parallel-size", "2"]],
                {"distributed_executor_backend": "external_launcher", "pipeline_parallel_size": 2},
                gpus=2,
            )),
            (2, Variant("parallel:external-launcher", [["--distributed-executor-backend", "external_launcher"]],
                        {"distributed_executor_backend": "external_launcher"})),
        ],
    )


def neighbours(rng: random.Random) -> Variant:
    return _weighted(
        rng,
        [
            (72, Variant("extra:none")),
            (5, Variant("extra:max-model-len", [["--max-model-len", "1024"]], {"max_model_len": 1024})),
            (3, Variant("extra:gpu-mem", [["--gpu-memory-utilization", "0.8"]], {"gpu_memory_utilization": 0.8})),
            (4, Variant("extra:enforce-eager", [["--enforce-eager"]], {"enforce_eager": True})),
            (3, Variant("extra:cc-mode-1", [["-cc.mode", "1"]], {"compilation_config": 1})),
            (3, Variant("extra:cc-piecewise", [["-cc.cudagraph_mode", "PIECEWISE"]], {"compilation_config": {"cudagraph_mode": "PIECEWISE"}})),
            (3, Variant("extra:lora", [["--enable-lora"]], {"enable_lora": True})),
            (2, Variant("extra:prompt-embeds", [["--enable-prompt-embeds"]], {"enable_prompt_embeds": True})),
            (2, Variant("extra:kv-sharing", [["--kv-sharing-fast-prefill"]], {"kv_sharing_fast_prefill": True})),
            (2, Variant("extra:seed", [["--seed", "0"]], {"seed": 0})),
            (2, Variant("extra:mamba-all", [["--mamba-cache-mode", "all"]], {"mamba_cache_mode": "all"}, minors=(28, 31))),
            (1, Variant("extra:elastic-ep", [["--enable-elastic-ep"]], {"enable_elastic_ep": True})),
            # New in 0.34.0: they change which prefixes are unique, and must not change any verdict.
            (2, Variant("extra:extensible-kv", [["--enable-extensible-kv-cache"]], {"enable_extensible_kv_cache": True}, minors=(34, NEWEST_MINOR))),
            (1, Variant("extra:no-extensible-kv", [["--disable-extensible-kv-cache"]], {"enable_extensible_kv_cache": False}, minors=(34, NEWEST_MINOR))),
            (1, Variant("extra:inflight-kv-loads", [["--max-num-inflight-kv-loads", "4"]], {"max_num_inflight_kv_loads": 4}, minors=(34, NEWEST_MINOR))),
            (1, Variant("extra:shuffle-safetensors", [["--shuffle-safetensors-files"]], {"shuffle_safetensors_files": True}, minors=(34, NEWEST_MINOR))),
        ],
    )


DIMENSIONS: tuple[Chooser, ...] = (
    mask, model_name, logprobs, logits_processors, speculative, runner, dual_batch_overlap, batch_sharded, parallelism,
    diffusion, watermark, neighbours,
)
# A focused case asks for replay the valid way and turns on one to three features on purpose,
# so that rare combinations (DBO next to LoRA with the variable set, ...) come up often enough.
FOCUSED_SHARE = 0.35
FEATURES = (logits_processors, speculative, dual_batch_overlap, batch_sharded, parallelism, diffusion, watermark, neighbours)


def _interleave(rng: random.Random, sequences: list[list[list[str]]]) -> list[list[str]]:
    """Merge the dimensions' group lists at random, keeping each list's own order."""
    pending = [list(groups) for groups in sequences if groups]
    merged: list[list[str]] = []
    while pending:
        groups = rng.choice(pending)
        merged.append(groups.pop(0))
        if not groups:
            pending.remove(groups)
    return merged


def _draw(rng: random.Random, choose: Chooser, minor: int) -> Variant:
    """A variant of one dimension whose options the release knows (drawn again until it fits)."""
    while True:
        variant = choose(rng)
        if variant.fits(minor):
            return variant


def _neutral(variant: Variant) -> bool:
    return not (variant.groups or variant.kwargs or variant.env or variant.model or variant.hf_configs)


def _draw_feature(rng: random.Random, choose: Chooser, minor: int) -> Variant:
    """A variant that turns the feature on; neutral when the release has none (watermarks in 0.28)."""
    for _ in range(50):
        variant = _draw(rng, choose, minor)
        if not _neutral(variant):
            return variant
    return variant


def _focused(rng: random.Random, minor: int) -> list[Variant]:
    chosen = rng.sample(FEATURES, rng.choice((1, 2, 2, 3)))
    variants = [
        Variant("mask:plain(focused)", [["--return-sampling-mask"]], {"return_sampling_mask": True}, mask=True, kwargs_mask=True),
        model_name(rng),
        Variant("logprobs:processed_logprobs(focused)", [["--logprobs-mode", "processed_logprobs"]], {"logprobs_mode": "processed_logprobs"}),
        runner(rng),
    ]
    for choose in FEATURES:
        variants.append(_draw_feature(rng, choose, minor) if choose in chosen else Variant(f"{choose.__name__}:off"))
    return variants


def _without_watermarked_drafts(variants: list[Variant]) -> list[Variant]:
    """Watermarking next to speculative decoding needs settings of its own (draft sampling,
    target-only watermarks) and fails before any replay rule: keep the speculative config."""
    drafting = any(v.tag.startswith("spec:") and not _neutral(v) for v in variants)
    return [
        Variant("watermark:off(speculative)") if drafting and v.tag.startswith("watermark:") and not _neutral(v) else v
        for v in variants
    ]


def make_case(rng: random.Random, number: int, minor: int = 33) -> Case:
    if rng.random() < FOCUSED_SHARE:
        variants = _focused(rng, minor)
    else:
        variants = [_draw(rng, choose, minor) for choose in DIMENSIONS]
    variants = _without_watermarked_drafts(variants)
    groups = _interleave(rng, [variant.groups for variant in variants])
    default = NAMED_MODEL if "model:named" in (variant.tag for variant in variants) else MODEL
    model = next((variant.model for variant in variants if variant.model), default)
    kwargs: dict[str, Any] = {"model": model}
    env: dict[str, str] = {}
    for variant in variants:
        kwargs.update(variant.kwargs)
        env.update(variant.env)
    mask_variant = variants[0]
    # `vllm serve --model X` is moved to the positional slot by vLLM.
    model_words = _weighted(rng, [(88, [model]), (8, ["--model", model]), (4, [f"--model={model}"])])
    case = Case(
        id=f"c{number:05d}",
        argv=model_words + [word for group in groups for word in group],
        env=env,
        kwargs=kwargs,
        mask=bool(mask_variant.mask),
        kwargs_mask=bool(mask_variant.kwargs_mask),
        gpus=math.prod(variant.gpus for variant in variants),
        hf_configs={name: config for variant in variants for name, config in variant.hf_configs.items()},
        fake_modules=sorted({module for variant in variants for module in variant.fake_modules}),
        tags=[variant.tag for variant in variants],
        style={
            "env": rng.choice(("prefix", "export")),
            "shell_lines": rng.random() < 0.4,
            "docker_lines": rng.random() < 0.3,
            "yaml_flow": rng.random() < 0.3,
            "shell_launcher": _weighted(rng, [(70, "vllm serve"), (10, "api_server"), (20, "docker run")]),
            "k8s_command": _weighted(rng, [(70, None), (20, "vllm serve"), (10, "api_server")]),
            "python": "EngineArgs" if rng.random() < 0.2 else "LLM",
        },
    )
    return case


def generate(count: int, seed: int, release: str = "0.33.0") -> list[Case]:
    """`count` cases for vLLM `release` (0.28.0 ... 0.34.0): only options that release knows."""
    minor = int(release.split(".")[1])
    rng = random.Random(seed)
    return [make_case(rng, number, minor) for number in range(count)]


if __name__ == "__main__":  # the judge input of a batch: python generator.py COUNT SEED [RELEASE]
    import sys

    count, seed = (int(arg) for arg in sys.argv[1:3])
    for case in generate(count, seed, *sys.argv[3:4]):
        for line in case.judge_cases():
            print(json.dumps(line))

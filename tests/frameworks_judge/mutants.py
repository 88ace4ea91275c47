"""Edits that turn sampling distribution replay on in a framework's own files, as its users write
them: the pass-through key with the framework's defaults left alone (which often makes replay
fail), with and without the logprobs mode, with the requests fixed, with speculative decoding or
MTP present, and the spellings each framework's parser reads (Hydra's dict and quoted values,
OmegaConf's words, argparse flags). A YAML configuration gets keys; a launch script gets words on
its framework command line (before a trailing `"$@"`).

Open-ended mutants put the deciding value where replaylint cannot read it, as users do: in the
script's arguments (through its `"$@"`), in an environment variable the script expands
(`top_k=$TOP_K`), or in an OmegaConf `${oc.env:...}` interpolation of a configuration. The
framework's code still sees the value, so the truth is known; replaylint's silence there is
expected (**open-ended**), an error it reports on a launch that starts is still **false**.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace

import yaml


@dataclass(frozen=True)
class Mutation:
    label: str
    what: str  # one line, for the report
    settings: tuple[tuple[str, object], ...]  # dotted key -> value (YAML form)
    words: tuple[str, ...]  # the same as the framework's command-line words
    words_only: bool = False  # a spelling of the command line only (a configuration file gets the keys as any mutation)


@dataclass(frozen=True)
class Mutant:
    label: str
    what: str
    text: str
    arguments: tuple[str, ...] = ()  # the script's own arguments (its "$@")
    env: tuple[tuple[str, str], ...] = ()  # the environment the launch is started with
    open_ended: str = ""  # where the deciding value is that replaylint cannot read
    hides: tuple[str, ...] = ()  # words of the refusals that value decides (none: every refusal)
    words: tuple[str, ...] = ()  # the mutation's command-line words (given on the command line or as the arguments)


# -- verl --------------------------------------------------------------------------------------

_ROLLOUT = "actor_rollout_ref.rollout"
_MASK = f"{_ROLLOUT}.engine_kwargs.vllm.return_sampling_mask"
_REQUESTS_FIXED = (
    (f"{_ROLLOUT}.top_k", 50),
    (f"{_ROLLOUT}.val_kwargs.top_k", 50),
    (f"{_ROLLOUT}.val_kwargs.temperature", 1.0),
)
_NGRAM = {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}
_ADAPTIVE_NGRAM = {**_NGRAM, "enable_adaptive_verification": True}


def _hydra_value(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_hydra_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _verl(label: str, what: str, *settings: tuple[str, object], quoted_mask: bool = False, new: str = "+", existing: str = "") -> Mutation:
    """Keys under `engine_kwargs.vllm` are new in verl's struct config: Hydra needs `+` (`new`);
    a key verl has takes none (`existing`). Other prefixes are what users write by mistake
    (Hydra refuses a new key without `+`, a `+` on a key verl has)."""
    words = []
    for key, value in settings:
        word = (new if ".engine_kwargs.vllm." in key else existing) + f"{key}={_hydra_value(value)}"
        if quoted_mask and key == _MASK:
            word = f"+{key}='True'"
        words.append(word)
    return Mutation(label, what, tuple(settings), tuple(words), words_only=(new, existing) != ("+", ""))


VERL = (
    _verl("mask", "the mask through engine_kwargs.vllm, verl's defaults left (top_k=-1, validation greedy)", (_MASK, True)),
    _verl("mask+requests", "the mask, rollout and validation top_k=50, validation temperature 1.0", (_MASK, True), *_REQUESTS_FIXED),
    _verl(
        "mask+raw-logprobs",
        "the mask with rollout.logprobs_mode=raw_logprobs, requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.logprobs_mode", "raw_logprobs"),
        *_REQUESTS_FIXED,
    ),
    _verl(
        "mask+engine-logprobs",
        "the mask with engine_kwargs.vllm.logprobs_mode=processed_logits (wins over verl's own key), requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.engine_kwargs.vllm.logprobs_mode", "processed_logits"),
        *_REQUESTS_FIXED,
    ),
    _verl(
        "mask+logprobs-null",
        "the mask with rollout.logprobs_mode=null (verl drops it: vLLM's raw_logprobs), requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.logprobs_mode", None),
        *_REQUESTS_FIXED,
    ),
    _verl(
        "mask+ngram",
        "the mask with engine_kwargs.vllm.speculative_config (ngram, a Hydra dict), requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.engine_kwargs.vllm.speculative_config", _NGRAM),
        *_REQUESTS_FIXED,
    ),
    _verl(
        "mask+adaptive-ngram",
        "the mask with an ngram speculative_config with adaptive verification, requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.engine_kwargs.vllm.speculative_config", _ADAPTIVE_NGRAM),
        *_REQUESTS_FIXED,
    ),
    _verl(
        "mask+mtp",
        "the mask with verl's MTP rollout (model.mtp.enable and enable_rollout), requests fixed",
        (_MASK, True),
        ("actor_rollout_ref.model.mtp.enable", True),
        ("actor_rollout_ref.model.mtp.enable_rollout", True),
        *_REQUESTS_FIXED,
    ),
    _verl("mask-no-plus", "the mask without Hydra's `+` (verl's engine_kwargs.vllm has no such key)", (_MASK, True), new=""),
    _verl("mask++requests", "the mask with `++`, requests fixed with `++`", (_MASK, True), *_REQUESTS_FIXED, new="++", existing="++"),
    _verl(
        "mask+plus-requests",
        "the mask, requests fixed with `+` (keys verl has: Hydra refuses)",
        (_MASK, True),
        *_REQUESTS_FIXED,
        existing="+",
    ),
    _verl("mask-quoted", "the mask as a quoted string 'True' (Hydra keeps a string)", (_MASK, "True"), quoted_mask=True),
)

# What every runnable verl configuration sets that the packaged ones leave open (`rollout.name:
# ???`, micro-batch sizes that validate_config requires): applied to each packaged configuration's
# mutants, and alone as its control mutant (no replay: vLLM must accept and replaylint stay silent).
VERL_BASE = (
    (f"{_ROLLOUT}.name", "vllm"),
    ("algorithm.adv_estimator", "grpo"),
    ("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", 1),
    (f"{_ROLLOUT}.log_prob_micro_batch_size_per_gpu", 1),
    ("actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu", 1),
    ("actor_rollout_ref.model.path", "Qwen/Qwen3-0.6B"),
)

# -- OpenRLHF ------------------------------------------------------------------------------------
# No OpenRLHF flag reaches `return_sampling_mask` (docs/frameworks-research-new-adapters.md §2):
# a user who tries one meets OpenRLHF's parser. Its importance-sampling correction is the one
# flag that changes what reaches vLLM (logprobs_mode=processed_logprobs, max_logprobs=1).


def openrlhf_mutations(release: str) -> tuple[Mutation, ...]:
    """The flags by release: grouped names (`--vllm.*`) from 0.10.2; the correction flag from 0.8.9
    (`--enable_vllm_is_correction`), 0.10.2 (`--algo.advantage.is_correction_enable`), 0.11.2
    (`--algo.advantage.is_correction_level`)."""
    version = _release(release)
    mask = "--vllm.return_sampling_mask" if version >= (0, 10, 2) else "--vllm_return_sampling_mask"
    found = [Mutation("mask-flag", f"`{mask}`, as vLLM's own flag is spelled in OpenRLHF's groups", (), (mask,))]
    if version >= (0, 11, 2):
        words: tuple[str, ...] = ("--algo.advantage.is_correction_level", "token")
    elif version >= (0, 10, 2):
        words = ("--algo.advantage.is_correction_enable",)
    elif version >= (0, 8, 9):
        words = ("--enable_vllm_is_correction",)
    else:
        words = ()
    if words:
        found.append(Mutation("is-correction", f"`{' '.join(words)}` (OpenRLHF sends logprobs_mode=processed_logprobs)", (), words))
    return tuple(found)


# -- SkyRL -----------------------------------------------------------------------------------------

_ENGINE = "generator.inference_engine.engine_init_kwargs"
_SUPPORT_SET = "generator.inference_engine.enable_return_sample_support_set"
_SKYRL_REQUESTS = (
    ("generator.sampling_params.top_k", 50),
    ("generator.eval_sampling_params.top_k", 50),
    ("generator.eval_sampling_params.temperature", 1.0),
)


def _skyrl(label: str, what: str, *settings: tuple[str, object], prefix: str = "") -> Mutation:
    words = tuple(f"{prefix}{key}={_hydra_value(value)}" for key, value in settings)
    return Mutation(label, what, tuple(settings), words)


SKYRL = (
    _skyrl(
        "mask",
        "the mask through engine_init_kwargs, SkyRL's defaults left (vLLM's raw_logprobs, top_k=-1)",
        (f"{_ENGINE}.return_sampling_mask", True),
    ),
    _skyrl(
        "mask+processed",
        "the mask with engine_init_kwargs.logprobs_mode=processed_logprobs, requests left (top_k=-1, eval greedy)",
        (f"{_ENGINE}.return_sampling_mask", True),
        (f"{_ENGINE}.logprobs_mode", "processed_logprobs"),
    ),
    _skyrl(
        "mask+processed+requests",
        "the mask, processed_logprobs, sampling and eval top_k=50, eval temperature 1.0",
        (f"{_ENGINE}.return_sampling_mask", True),
        (f"{_ENGINE}.logprobs_mode", "processed_logprobs"),
        *_SKYRL_REQUESTS,
    ),
    _skyrl(
        "mask-kebab",
        "the mask as `return-sampling-mask` (an attribute vLLM never reads), processed_logprobs, requests fixed",
        (f"{_ENGINE}.return-sampling-mask", True),
        (f"{_ENGINE}.logprobs_mode", "processed_logprobs"),
        *_SKYRL_REQUESTS,
    ),
    _skyrl(
        "mask-plus",
        "the mask with Hydra's `+` (SkyRL's OmegaConf words refuse it)",
        (f"{_ENGINE}.return_sampling_mask", True),
        prefix="+",
    ),
    _skyrl(
        "mask+sample-support",
        "the mask with 0.4.0's sample-support capture, SkyRL's rollout top_k=-1 left (SkyRL 0.4.0 refuses: top_k > 1)",
        (f"{_ENGINE}.return_sampling_mask", True),
        (_SUPPORT_SET, True),
    ),
    _skyrl(
        "mask+sample-support+requests",
        "the mask with 0.4.0's sample-support capture (SkyRL sets processed_logprobs), requests fixed",
        (f"{_ENGINE}.return_sampling_mask", True),
        (_SUPPORT_SET, True),
        *_SKYRL_REQUESTS,
    ),
)

# -- TRL -------------------------------------------------------------------------------------------
# `trl vllm-serve` forwards the words its parser does not know to `vllm serve` (1.11+), after its
# own `--logprobs-mode processed_logprobs`; 1.10.0 and earlier refuse them.

TRL = (
    Mutation(
        "mask-flag", "vLLM's `--return-sampling-mask` on the command line (TRL forces processed_logprobs)", (), ("--return-sampling-mask",)
    ),
    Mutation(
        "mask+raw-logprobs",
        "`--return-sampling-mask --logprobs-mode raw_logprobs` (the forwarded mode comes last and wins)",
        (),
        ("--return-sampling-mask", "--logprobs-mode", "raw_logprobs"),
    ),
)

FRAMEWORK_MUTATIONS = {"verl": VERL, "skyrl": SKYRL, "trl": TRL}
CONTROL = Mutation("control", "no replay (the control: vLLM accepts, replaylint stays silent)", (), ())
YAML_BASE = {"verl": VERL_BASE}


def mutations_for(framework: str, release: str) -> tuple[Mutation, ...]:
    if framework == "openrlhf":
        return openrlhf_mutations(release)
    return FRAMEWORK_MUTATIONS.get(framework, ())


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


# -- open-ended mutants ---------------------------------------------------------------------------

# The value each framework's requests fail on, held by an environment variable the launch expands.
_HIDDEN_TOP_K = {"verl": f"{_ROLLOUT}.top_k", "skyrl": "generator.sampling_params.top_k"}


def open_ended_variants(framework: str, kind: str, mutation: Mutation, has_arguments: bool) -> list[tuple[str, Mutation, dict]]:
    """How a mutation is also written with its deciding value out of replaylint's sight: (how,
    the mutation as written, the launch's environment or arguments)."""
    variants = []
    if kind == "shell" and has_arguments and mutation.words:
        variants.append(("arguments", replace(mutation, words=()), {"arguments": mutation.words}))
    key = _HIDDEN_TOP_K.get(framework)
    if key and any(k == key for k, _ in mutation.settings):
        for value in (-1, 50):
            if kind == "shell":
                words = tuple(f"{key}=$ROLLOUT_TOP_K" if w.startswith(key + "=") else w for w in mutation.words)
                hidden = replace(mutation, words=words)
            else:
                settings = tuple((k, "${oc.decode:${oc.env:ROLLOUT_TOP_K}}" if k == key else v) for k, v in mutation.settings)
                hidden = replace(mutation, settings=settings)
            given = {"env": (("ROLLOUT_TOP_K", str(value)),), "hides": ("top_k",)}
            variants.append((f"env top_k={value}", hidden, given))
    return variants


# -- sampling ----------------------------------------------------------------------------------------


def sample(items: list, key: str, count: int | None) -> list:
    """`count` of `items`, the same ones on every run: a rotation chosen by the launch's path, so
    that across launches every mutation is judged."""
    if count is None or count >= len(items):
        return list(items)
    start = int(hashlib.sha256(key.encode()).hexdigest(), 16) % len(items)
    return [items[(start + i) % len(items)] for i in range(count)]


# -- YAML configurations -----------------------------------------------------------------------


def yaml_mutant(text: str, mutation: Mutation, base: tuple[tuple[str, object], ...] = ()) -> Mutant | None:
    """The configuration with the mutation's keys set (blocks appended as YAML; a key the file
    already has is rewritten in place by merging, so the file stays one document)."""
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(document, dict):
        return None
    for key, value in (*base, *mutation.settings):
        _set(document, key.split("."), value)
    head = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))[:2000]
    body = yaml.safe_dump(document, sort_keys=False, default_flow_style=False, width=4096)
    return Mutant(mutation.label, mutation.what, head + body)


def _set(document: dict, path: list[str], value: object) -> None:
    node = document
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[path[-1]] = value


def flatten(document: dict, prefix: str = "") -> list[tuple[str, object]]:
    """A nested mapping as dotted keys (the form of its command-line overrides)."""
    found = []
    for key, value in document.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            found.extend(flatten(value, dotted + "."))
        else:
            found.append((dotted, value))
    return found


# -- shell scripts ------------------------------------------------------------------------------


def shell_mutant(text: str, command: str, mutation: Mutation) -> Mutant | None:
    """The script with the mutation's words added to the first command line that runs
    `command` (a module such as `verl.trainer.main_ppo`): before its trailing `"$@"` line, or at
    its end."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if command in line and not line.lstrip().startswith("#")), None)
    if start is None:
        return None
    if not mutation.words:
        return Mutant(mutation.label, mutation.what, text)
    end = start
    while end < len(lines) and lines[end].rstrip("\n").endswith("\\"):
        end += 1
    end = min(end, len(lines) - 1)
    words = " ".join(_quote(word) for word in mutation.words)
    indent = re.match(r"\s*", lines[min(start + 1, end)]).group(0) if end > start else "  "
    if end > start and lines[end].strip() == '"$@"':
        lines.insert(end, f"{indent}{words} \\\n")
    elif lines[end].rstrip("\n").endswith("\\"):  # the command continues to the end of the file
        lines.insert(end + 1, f"{indent}{words}\n")
    else:
        last = lines[end].rstrip("\n")
        comment = _trailing_comment(last)
        if comment:
            last = last[: -len(comment)].rstrip()
        lines[end] = f"{last} \\\n{indent}{words}{'  ' + comment if comment else ''}\n"
    return Mutant(mutation.label, mutation.what, "".join(lines))


def ends_with_arguments(text: str, command: str) -> bool:
    """Whether the command line running `command` ends with the script's own `"$@"`."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if command in line and not line.lstrip().startswith("#")), None)
    if start is None:
        return False
    end = start
    while end < len(lines) - 1 and lines[end].endswith("\\"):
        end += 1
    return lines[end].strip().endswith('"$@"')


def _trailing_comment(line: str) -> str:
    """A ` # ...` comment at the end of a command line (README blocks write them)."""
    match = re.search(r"\s#\s[^'\"]*$", line)
    return match.group(0).strip() if match else ""


def _quote(word: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9_.+=/:$-]+", word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'" if "'" not in word else '"' + word + '"'

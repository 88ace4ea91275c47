"""Edits that turn sampling distribution replay on in a framework's own files, as its users write
them: the pass-through key with the framework's defaults left alone (which often makes replay
fail), with and without the logprobs mode, with the requests fixed, with speculative decoding or
MTP present, and Hydra spellings with dict and quoted values. A YAML configuration gets keys; a
launch script gets override words on its framework command line (before a trailing `"$@"`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml


@dataclass(frozen=True)
class Mutation:
    label: str
    what: str  # one line, for the report
    settings: tuple[tuple[str, object], ...]  # dotted key -> value (YAML form)
    words: tuple[str, ...]  # the same as Hydra override words


@dataclass(frozen=True)
class Mutant:
    label: str
    what: str
    text: str


_ROLLOUT = "actor_rollout_ref.rollout"
_MASK = f"{_ROLLOUT}.engine_kwargs.vllm.return_sampling_mask"
_REQUESTS_FIXED = (
    (f"{_ROLLOUT}.top_k", 50),
    (f"{_ROLLOUT}.val_kwargs.top_k", 50),
    (f"{_ROLLOUT}.val_kwargs.temperature", 1.0),
)
_NGRAM = {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}
_ADAPTIVE_NGRAM = {**_NGRAM, "enable_adaptive_verification": True}


def _word(key: str, value: object, new: bool) -> str:
    return ("+" if new else "") + f"{key}={_hydra_value(value)}"


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


def _mutation(label: str, what: str, *settings: tuple[str, object], quoted_mask: bool = False) -> Mutation:
    """Keys under `engine_kwargs.vllm` are new in verl's struct config: Hydra needs `+`."""
    words = []
    for key, value in settings:
        new = ".engine_kwargs.vllm." in key
        word = _word(key, value, new)
        if quoted_mask and key == _MASK:
            word = f"+{key}='True'"
        words.append(word)
    return Mutation(label, what, tuple(settings), tuple(words))


VERL = (
    _mutation("mask", "the mask through engine_kwargs.vllm, verl's defaults left (top_k=-1, validation greedy)", (_MASK, True)),
    _mutation("mask+requests", "the mask, rollout and validation top_k=50, validation temperature 1.0", (_MASK, True), *_REQUESTS_FIXED),
    _mutation(
        "mask+raw-logprobs",
        "the mask with rollout.logprobs_mode=raw_logprobs, requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.logprobs_mode", "raw_logprobs"),
        *_REQUESTS_FIXED,
    ),
    _mutation(
        "mask+engine-logprobs",
        "the mask with engine_kwargs.vllm.logprobs_mode=processed_logits (wins over verl's own key), requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.engine_kwargs.vllm.logprobs_mode", "processed_logits"),
        *_REQUESTS_FIXED,
    ),
    _mutation(
        "mask+logprobs-null",
        "the mask with rollout.logprobs_mode=null (verl drops it: vLLM's raw_logprobs), requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.logprobs_mode", None),
        *_REQUESTS_FIXED,
    ),
    _mutation(
        "mask+ngram",
        "the mask with engine_kwargs.vllm.speculative_config (ngram, a Hydra dict), requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.engine_kwargs.vllm.speculative_config", _NGRAM),
        *_REQUESTS_FIXED,
    ),
    _mutation(
        "mask+adaptive-ngram",
        "the mask with an ngram speculative_config with adaptive verification, requests fixed",
        (_MASK, True),
        (f"{_ROLLOUT}.engine_kwargs.vllm.speculative_config", _ADAPTIVE_NGRAM),
        *_REQUESTS_FIXED,
    ),
    _mutation(
        "mask+mtp",
        "the mask with verl's MTP rollout (model.mtp.enable and enable_rollout), requests fixed",
        (_MASK, True),
        ("actor_rollout_ref.model.mtp.enable", True),
        ("actor_rollout_ref.model.mtp.enable_rollout", True),
        *_REQUESTS_FIXED,
    ),
    _mutation("mask-quoted", "the mask as a quoted string 'True' (Hydra keeps a string)", (_MASK, "True"), quoted_mask=True),
)

FRAMEWORK_MUTATIONS = {"verl": VERL}

# What every runnable verl configuration sets that the packaged ones leave open (`rollout.name:
# ???`, micro-batch sizes that validate_config requires): applied to each YAML mutant, and alone
# as the control mutant (no replay: vLLM must accept and replaylint stay silent).
VERL_BASE = (
    (f"{_ROLLOUT}.name", "vllm"),
    ("algorithm.adv_estimator", "grpo"),
    ("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", 1),
    (f"{_ROLLOUT}.log_prob_micro_batch_size_per_gpu", 1),
    ("actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu", 1),
    ("actor_rollout_ref.model.path", "Qwen/Qwen3-0.6B"),
)
CONTROL = Mutation("control", "no replay (the control: vLLM accepts, replaylint stays silent)", (), ())
YAML_BASE = {"verl": VERL_BASE}


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


# -- shell scripts ------------------------------------------------------------------------------


def shell_mutant(text: str, command: str, mutation: Mutation) -> Mutant | None:
    """The script with the mutation's override words added to the first command line that runs
    `command` (a module such as `verl.trainer.main_ppo`): before its trailing `"$@"` line, or at
    its end."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if command in line and not line.lstrip().startswith("#")), None)
    if start is None:
        return None
    end = start
    while end < len(lines) and lines[end].rstrip("\n").endswith("\\"):
        end += 1
    words = " ".join(_quote(word) for word in mutation.words)
    indent = re.match(r"\s*", lines[min(start + 1, end)]).group(0) if end > start else "  "
    if end > start and lines[end].strip() == '"$@"':
        lines.insert(end, f"{indent}{words} \\\n")
    else:
        last = lines[end].rstrip("\n")
        lines[end] = f"{last} \\\n{indent}{words}\n"
    return Mutant(mutation.label, mutation.what, "".join(lines))


def _quote(word: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9_.+=/:-]+", word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'" if "'" not in word else '"' + word + '"'

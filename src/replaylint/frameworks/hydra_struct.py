"""Hydra's refusals of command-line overrides against verl's configuration, per verl edition.

`python -m verl.trainer.main_ppo` is `@hydra.main(config_path="config", config_name="ppo_trainer")`:
Hydra composes `ppo_trainer.yaml`, puts it in struct mode and applies the overrides in order
(hydra-core 1.3.8 `hydra/_internal/config_loader_impl.py` `_apply_overrides_to_config`):

- `key=value` updates a key the configuration has (`OmegaConf.update(cfg, key, value,
  merge=True)`); a key it does not have, also inside a mapping value merged into a mapping, is
  refused: "Could not override 'KEY'.\\nTo append to your config use +WORD";
- `+key=value` adds a key; where a value other than null is already, it is refused unless the
  value is a mapping or a list: "Could not append to config. An item is already at 'KEY'. ...";
- `++key=value` adds or overrides, always.

`key=value` words against the tree `scripts/dump_verl_config_keys.py` wrote from each release's
wheel (`data/verl-config-keys.json`: `ppo_trainer`, and `ppo_megatron_trainer`, which verl's
examples choose with `--config-path=config --config-name=ppo_megatron_trainer`) say which word
Hydra refuses first, before verl or vLLM see anything. Nothing is judged when something decides
that is not seen here: another `--config-name` or `--config-path`, any other option, a word we
cannot read (`$EXTRA_ARGS`), a config-group choice, a deletion, a sweep, an interpolated key, a
key whose kind the releases of one edition disagree about.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ..model import UNKNOWN
from ..records import record
from ..vllm.command_line import Token
from .views import OVERRIDE_KEY, hydra_override

_DATA = os.path.join(os.path.dirname(__file__), "data", "verl-config-keys.json")
_MISSING = object()
_OPAQUE = ("unknown", "interp")  # what Hydra finds there is not known here


class _Unseen(Exception):
    """Something that decides is not seen: no verdict."""


@record(unsafe_hash=True)
class HydraRefusal:
    """The first override Hydra refuses, and Hydra's message (its lines joined by a space)."""

    token: Token
    key: str
    message: str


@lru_cache(maxsize=1)
def _dumps() -> dict[str, dict[str, Any]]:
    """The dumps of `data/verl-config-keys.json` by name: the releases each was written from and
    its packaged configurations' composed trees."""
    with open(_DATA, encoding="utf-8") as handle:
        return json.load(handle)["editions"]


@record(unsafe_hash=True)
class PackagedConfigKeys:
    """The keys of verl's packaged configurations at one edition (`verl.VerlEdition.hydra_keys`):
    the dump `dump` of `data/verl-config-keys.json`, which `scripts/dump_verl_config_keys.py`
    wrote from the wheels of its `releases()`."""

    dump: str

    def tree(self, config: str) -> dict:
        """The composed tree of the packaged configuration `config` (one of PACKAGED)."""
        return _dumps()[self.dump]["trees"][config]

    def releases(self) -> tuple[str, ...]:
        return tuple(_dumps()[self.dump]["releases"])


PACKAGED = ("ppo_trainer", "ppo_megatron_trainer")  # the configurations `data/verl-config-keys.json` holds


@record(unsafe_hash=True)
class _Word:
    """One override as Hydra reads it: `+`, `++` or nothing before the key, the value (UNKNOWN
    when the shell fills it in at run time), and the word as Hydra quotes it."""

    prefix: str
    key: str
    value: Any
    line: str


def first_refusal(
    tokens: Sequence[Token], keys: PackagedConfigKeys, config: str = "ppo_trainer", added: Mapping | None = None
) -> HydraRefusal | None:
    """The first override of `tokens` that Hydra refuses against the packaged configuration
    `config` (its `keys` at one edition); None when it accepts every word or when what it does
    is not known here. The script's forwarded arguments are left out (judged as written).
    `added`: a fork's own config file by where Hydra composes it (its rollout.yaml at
    `actor_rollout_ref.rollout`): the keys it has that the packaged one lacks are the fork's."""
    words = [token for token in tokens if not token.forwarded]
    read = [_read(token) for token in words]
    if any(word is None for word in read):
        return None
    tree = _copy(keys.tree(config))
    for where, mapping in (added or {}).items():
        if isinstance(mapping, dict):  # `defaults:`, Hydra's composition list, is not a key of the result
            try:
                _add_missing(tree, list(where), {key: value for key, value in mapping.items() if key != "defaults"})
            except _Unseen:
                return None
    for token, word in zip(words, read):
        assert word is not None
        if word.key == "hydra" or word.key.startswith("hydra."):
            continue  # Hydra's own configuration
        if "." not in word.key:
            return None  # a config group may have that name (`algorithm=...` chooses a file)
        try:
            message = _apply(tree, word)
        except _Unseen:
            return None
        if message is not None:
            return HydraRefusal(token, word.key, message)
    return None


_CONFIG_PATH = ("--config-path", "-cp")
_CONFIG_NAME = ("--config-name", "-cn")
_PACKAGED_FOLDERS = ("config", "./config")  # relative to main_ppo.py, as `@hydra.main(config_path="config")`


def packaged_config(tokens: Sequence[Token]) -> tuple[str | None, list[Token]]:
    """The packaged configuration Hydra composes for `python -m verl.trainer.main_ppo` (None: one
    not held here, or not known) and the words that are left: Hydra's `--config-path` and
    `--config-name` (`=VALUE` or the next word) taken out."""
    name, folder, rest = "ppo_trainer", "config", []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        option, eq, inline = str(token.text).partition("=") if token.known else ("", "", "")
        if option in _CONFIG_PATH + _CONFIG_NAME:
            value = inline if eq else tokens[position + 1].text if position + 1 < len(tokens) and tokens[position + 1].known else None
            position += 1 if eq else 2
            if value is None:
                return None, rest
            if option in _CONFIG_PATH:
                folder = value
            else:
                name = value.removesuffix(".yaml")
            continue
        rest.append(token)
        position += 1
    return (name if name in PACKAGED and folder in _PACKAGED_FOLDERS else None), rest


def _read(token: Token) -> _Word | None:
    """The override of a word; None for anything else (an option such as `--config-name`, a word
    we cannot read, a deletion, a sweep, a config group), which leaves the verdict open."""
    if token.spread:
        return None
    if token.text is None:  # `key=$VAR`: the key is known, the value is not
        match = OVERRIDE_KEY.match(token.raw.strip("'\""))
        if match is None or match.group(1) == "~":
            return None
        return _Word(match.group(1) or "", match.group(2), UNKNOWN, token.raw)
    if token.text.startswith("-") or OVERRIDE_KEY.match(token.text) is None:
        return None
    return _parsed(token.text)


def _parsed(text: str) -> _Word | None:
    """A word read by Hydra's own override grammar (`views.hydra_override`, cached)."""
    override = hydra_override(text)
    if override is None:
        return None  # Hydra refuses it in other words (not followed here)
    if override.is_delete() or override.is_sweep_override() or override.package is not None or "/" in override.key_or_group:
        return None
    prefix = "++" if override.is_force_add() else "+" if override.is_add() else ""
    return _Word(prefix, override.key_or_group, _kind_value(override.value()), str(override.input_line))


def _kind_value(value: Any) -> Any:
    """An override's value with interpolations (`${...}`) unknown."""
    if isinstance(value, str) and "${" in value:
        return UNKNOWN
    return value


def _apply(tree: dict, word: _Word) -> str | None:
    """Hydra's step for one override on the tree (changed as Hydra changes the configuration):
    its message when it refuses, None when it accepts."""
    key, value, line = word.key, word.value, word.line
    parts = key.split(".")
    if word.prefix == "++":
        _put(tree, parts, value)
        return None
    if word.prefix == "+":
        found = _select(tree, parts)
        if found is _MISSING or found == "null" or isinstance(value, (dict, list)):
            _put(tree, parts, value)
            return None
        if found in _OPAQUE or value is UNKNOWN:
            raise _Unseen
        return (
            f"Could not append to config. An item is already at '{key}'. Either remove + prefix: '{line[1:]}' "
            f"Or add a second + to add or override '{key}': '+{line}'"
        )
    if not _update(tree, parts, value):
        return f"Could not override '{key}'. To append to your config use +{line}"
    return None


def _select(tree: dict, parts: list[str]) -> Any:
    """`OmegaConf.select(..., throw_on_missing=False)` as a kind: a mapping, a leaf's kind, or
    `_MISSING` (select's None for a key that is not there: `+` adds it)."""
    node: Any = tree
    for part in parts:
        if node in _OPAQUE:
            raise _Unseen
        if not isinstance(node, dict):
            return _MISSING
        node = node.get(part, _MISSING)
        if node is _MISSING:
            return _MISSING
    return node


def _update(tree: dict, parts: list[str], value: Any) -> bool:
    """`OmegaConf.update(cfg, key, value, merge=True)` in struct mode: False where it raises
    (a key the configuration does not have)."""
    node = tree
    for part in parts[:-1]:
        child = node.get(part, _MISSING)
        if child is _MISSING or (isinstance(child, str) and child not in _OPAQUE and child != "list"):
            return False  # a leaf is replaced by an empty mapping, which takes no new key
        if not isinstance(child, dict):
            raise _Unseen  # a list's item, an interpolation
        node = child
    last = parts[-1]
    child = node.get(last, _MISSING)
    if child is _MISSING:
        return False
    if child in _OPAQUE:
        raise _Unseen
    if isinstance(child, dict) and isinstance(value, dict):
        return _merge(child, value)
    if isinstance(child, dict) and value is UNKNOWN:
        raise _Unseen  # `$VAR` may hold a mapping with keys of its own
    node[last] = _kind(value)
    return True


def _merge(node: dict, value: dict) -> bool:
    """`merge_with` of a mapping value into a struct mapping: every key must be there."""
    for key, item in value.items():
        child = node.get(str(key), _MISSING)
        if child is _MISSING:
            return False
        if child in _OPAQUE:
            raise _Unseen
        if isinstance(child, dict) and isinstance(item, dict):
            if not _merge(child, item):
                return False
        else:
            node[str(key)] = _kind(item)
    return True


def _put(tree: dict, parts: list[str], value: Any) -> None:
    """`OmegaConf.update(..., force_add=True)`: mappings made where needed, a mapping merged."""
    node = tree
    for part in parts[:-1]:
        child = node.get(part)
        if child in _OPAQUE:
            raise _Unseen
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    current = node.get(parts[-1])
    if isinstance(current, dict) and isinstance(value, dict):
        for key, item in value.items():
            _put(current, [str(key)], item)
    else:
        node[parts[-1]] = _kind(value)


def _add_missing(tree: dict, parts: list[str], mapping: Any) -> None:
    """The keys of `mapping` (a fork's YAML) that the tree lacks at `parts`, added with their kinds."""
    node = _select(tree, parts)
    if not isinstance(node, dict):
        return
    for key, value in mapping.items():
        key = str(key)
        if key not in node:
            node[key] = _kind(value)
        elif isinstance(value, dict):
            _add_missing(node, [key], value)


def _kind(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _kind(item) for key, item in value.items()}
    if value is UNKNOWN:
        return "unknown"
    if isinstance(value, str) and "${" in value:
        return "interp"
    if isinstance(value, list):
        return "list"
    return "null" if value is None or value == "???" else "value"


def _copy(tree: dict) -> dict:
    return {key: _copy(value) if isinstance(value, dict) else value for key, value in tree.items()}

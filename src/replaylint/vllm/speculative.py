"""The speculative config a launch ends up with, and the method vLLM infers for it."""

from __future__ import annotations

import re
from typing import Any

from ..model import UNKNOWN, Launch, Setting, Span
from ..records import record
from ..regexes import on_use
from .engine_fields import SPEC_ALIASES
from .lax_values import as_bool


def _is_custom_proposer_path(model: str) -> bool:
    """vLLM's own test (config/speculative.py): a dotted import path such as `pkg.MyProposer`."""
    if model.startswith(("http://", "https://", "file://")) or "/" in model:
        return False
    parts = model.split(".")
    return len(parts) >= 2 and all(part.isidentifier() for part in parts)


# Draft checkpoints of these families are ordinary causal LMs: vLLM finds no EAGLE/DFlash/DSpark
# marker and no MTP model type in them and settles on draft_model.
_PLAIN_FAMILY = on_use(r"llama|qwen|gemma|phi-?\d|granite|olmo|falcon|smollm|internlm|mistral|opt-|gpt2|pythia", re.IGNORECASE)


def _canonical_method(method: str) -> str:
    if method == "[ngram]":
        return "ngram"
    if method.endswith("_mtp"):  # MTP model types (deepseek_mtp, ...) are deprecated names of mtp
        return "mtp"
    return method


@record(unsafe_hash=True)
class Speculative:
    """The effective speculative config: `config` is a dict, None or UNKNOWN."""

    config: Any
    setting: Setting | None

    @property
    def present(self) -> Any:
        if self.config is UNKNOWN:
            return UNKNOWN
        return self.config is not None

    def key(self, name: str) -> Any:
        """A key of the config (None when absent, UNKNOWN when the config is unknown)."""
        if self.config is UNKNOWN:
            return UNKNOWN
        if not self.config:
            return None
        return self.config.get(name)

    def key_setting(self, name: str) -> Setting | None:
        """The setting that wrote one key (its own span where the frontend has one)."""
        if self.setting is None:
            return None
        return self.setting.keys.get(name, self.setting)

    def key_span(self, name: str) -> Span | None:
        """Where one key is written: its own place (a dict literal, a YAML map, `-sc.key`), else
        the JSON value that holds it (which may be an `ENV` or `env:` value the word expands)."""
        setting = self.key_setting(name)
        if setting is None:
            return None
        return setting.span if setting is not self.setting or setting.value_span is None else setting.value_span

    @property
    def adaptive_verification(self) -> Any:
        value = self.key("enable_adaptive_verification")
        return False if value is None else as_bool(value)

    @property
    def method(self) -> Any:
        return infer_method(self.config)


def _normalise_keys(config: dict) -> dict:
    return {str(key).replace("-", "_"): value for key, value in config.items()}


def speculative(launch: Launch) -> Speculative:
    """Merge `speculative_config` with the `spec_*` aliases, as EngineArgs does."""
    base = launch.get("speculative_config")
    config: Any = None if base is None else base.value
    if isinstance(config, dict):
        config = _normalise_keys(config)
    elif config is not None and config is not UNKNOWN:
        config = UNKNOWN  # a string or object we cannot read
    setting = base
    for alias, key in SPEC_ALIASES.items():
        alias_setting = launch.get(alias)
        if alias_setting is None or alias_setting.value is None:
            continue
        if config is None:
            config = {}
        if config is not UNKNOWN:
            config = {**config, key: alias_setting.value}
        setting = setting or alias_setting
    return Speculative(config, setting)


def infer_method(config: Any) -> Any:
    """The method vLLM settles on, or UNKNOWN when it depends on the draft model's files."""
    if config is UNKNOWN:
        return UNKNOWN
    if not isinstance(config, dict):
        return None
    method = config.get("method")
    if method is UNKNOWN:
        return UNKNOWN
    if isinstance(method, str) and method:
        return _canonical_method(method)
    model = config.get("model")
    if not isinstance(model, str):
        return UNKNOWN
    if model in ("ngram", "[ngram]"):
        return "ngram"
    if _is_custom_proposer_path(model):
        return "custom_class"
    lowered = model.lower()
    for marker, inferred in (("eagle-", "eagle"), ("eagle3", "eagle3"), ("dflash", "dflash"), ("dspark", "dspark")):
        if marker in lowered:
            return inferred
    if "mtp" not in lowered and _PLAIN_FAMILY.search(model):
        return "draft_model"
    return UNKNOWN  # draft_model, mtp, dflash or dspark, decided by the draft's config.json

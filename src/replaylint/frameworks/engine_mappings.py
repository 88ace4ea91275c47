"""Engine-argument mappings recognised by content, whatever file holds them: a Python dict or
call (`frontends.python.mappings`), a nested YAML mapping (`frontends.yaml.frameworks`), a TOML
table (`frontends.toml`) or a JSON object (`frontends.json_engines`), the last two walked here.

Such a mapping reaches vLLM through code replaylint does not follow (`LLM(**config["engine"])`,
a Helm template, a launcher of one's own), so it counts only when its content says so: it turns
the mask on with a literal (`return_sampling_mask: true`), at least two of its other keys are
vLLM engine arguments (the option table replaylint read, newest release, and the fields it
knows), one of them a name other engines and libraries do not share, and none is a name only
SGLang's engine takes. Unless an adapter knows it is the whole engine configuration, such a
launch is open-ended: only rules that fire on a setting's presence judge it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

from ..model import UNKNOWN, Launch, LaunchKind, Setting
from ..vllm.engine_fields import FIELDS
from ..vllm.lax_values import as_bool
from ..vllm.releases import NEWEST

if TYPE_CHECKING:  # tomllib is not imported by a run that reads no TOML
    from ..toml_document import PlacedDocument

MASK = "return_sampling_mask"
OPEN_REASON = "engine arguments passed on through a call replaylint does not follow"
# Engine arguments other engines and libraries share: they do not make a mapping vLLM's.
SHARED = frozenset(
    ("model", "dtype", "seed", "trust_remote_code", "revision", "quantization", "load_format", "tokenizer", "tokenizer_mode")
    + ("skip_tokenizer_init", "kv_cache_dtype", "device", "served_model_name", "host", "port", "chat_template", "download_dir")
)
# Keys only SGLang's engine takes (its `Engine(model_path=..., tp_size=...)` may take the mask too).
OTHER_ENGINES = frozenset(("model_path", "tp_size", "dp_size", "mem_fraction_static", "context_length", "random_seed"))
MIN_ENGINE_KEYS = 2
_MAX_DEPTH = 16  # how deep a TOML table or a JSON object is looked for


@lru_cache(maxsize=1)
def engine_arguments() -> frozenset[str]:
    """vLLM's engine arguments: the newest release's option table and the fields replaylint knows."""
    from ..vllm.options import table_for

    return frozenset(option.dest for option in table_for(NEWEST).options.values()) | frozenset(FIELDS)


def turns_mask_on(settings: Mapping[str, Setting]) -> bool:
    """The mask written on by a literal (`True`, `1`, `"true"`), not a value we cannot read."""
    mask = settings.get(MASK)
    return mask is not None and mask.value is not UNKNOWN and as_bool(mask.value) is True


def writes_mask_on(mapping: Mapping[Any, Any]) -> bool:
    """`turns_mask_on` for a plain mapping of typed values (YAML, TOML): `true` or `1`, not a
    string (`"true"` is how environment variables and ConfigMap data are written)."""
    value = mapping.get(MASK)
    return value is True or (type(value) is int and value == 1)


def looks_like_engine(keys: Iterable[str]) -> bool:
    """Whether the keys beside the mask are vLLM's engine arguments (see the module docstring)."""
    names = set(keys)
    if names & OTHER_ENGINES:
        return False
    engine = (names & engine_arguments()) - {MASK}
    return len(engine) >= MIN_ENGINE_KEYS and bool(engine - SHARED)


def mappings_in(data: Any) -> list[tuple[tuple[Any, ...], dict]]:
    """The tables or objects of a TOML or JSON document (its top level too) that are engine
    mappings, with their paths. Walked depth first with one iterator a level, so a file of a
    million small arrays costs no list of them."""
    found = []
    stack: list[Iterator[tuple[tuple[Any, ...], Any]]] = [iter([((), data)])]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        path, value = entry
        if isinstance(value, dict) and writes_mask_on(value) and looks_like_engine(value):
            found.append((path, value))
        if isinstance(value, (dict, list)) and len(path) < _MAX_DEPTH - 1:
            stack.append(_containers_in(path, value))
    return found


def _containers_in(path: tuple[Any, ...], value: dict | list) -> Iterator[tuple[tuple[Any, ...], Any]]:
    items = value.items() if isinstance(value, dict) else enumerate(value)
    return (((*path, key), item) for key, item in items if isinstance(item, (dict, list)))


def launches_of(document: PlacedDocument, mappings: list[tuple[tuple[Any, ...], dict]], path_name: str) -> list[Launch]:
    """A launch for each of `mappings_in`'s mappings, open-ended: an `[engine]` table or a JSON
    file a launcher of one's own reads."""
    launches = []
    for path, value in mappings:
        settings = {}
        for key, item in value.items():
            span = document.nearest(*path, key)
            name = key.replace("-", "_")
            keys = nested_settings(document, (*path, key), item)
            settings[name] = Setting(name, item, span, document.text(span), document.value_span(*path, key), keys)
        launches.append(
            Launch(
                LaunchKind.PYTHON_CALL,
                document.nearest(*path) if path else settings[MASK].span,
                settings,
                open_reasons=(OPEN_REASON,),
                label=f"engine arguments in {'.'.join(map(str, path)) or path_name}",
            )
        )
    return launches


def nested_settings(document: PlacedDocument, path: tuple[Any, ...], value: Any) -> dict[str, Setting]:
    """The keys of a nested table (`[engine.speculative_config]`), each where it is written."""
    if not isinstance(value, dict):
        return {}
    found = {}
    for key, item in value.items():
        span = document.nearest(*path, key)
        found[str(key)] = Setting(
            str(key), item, span, document.text(span), document.value_span(*path, key), nested_settings(document, (*path, key), item)
        )
    return found

"""Framework configuration as nested values with the spans of their keys (`ConfigView`), read from a
YAML document (`frontends.yaml.frameworks`), from `key=value` overrides on a command line (`Overrides`:
Hydra's own override grammar, or OmegaConf's `from_cli`), from the words vLLM's `--config` reader makes
of a YAML file (`TokenTree`), or from several (`Layered`): the verl, NeMo-RL and SkyRL adapters' view."""

from __future__ import annotations

import posixpath
import re
from dataclasses import field
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

import yaml

from ..model import UNKNOWN, Setting, Span
from ..records import record
from .default_spelling import WrittenDefault, default_spelling

Path = tuple[str, ...]


class ConfigView:
    """Nested configuration values and where each key is written."""

    def value(self, *path: str, default: Any = None) -> Any:
        raise NotImplementedError

    def span(self, *path: str) -> Span | None:
        """The key and value of `path` as written (None: not written here)."""
        raise NotImplementedError

    def value_span(self, *path: str) -> Span | None:
        return None

    def key_span(self, *path: str) -> Span | None:
        """The key of `path` alone, where a view knows it (else its key and value)."""
        return self.span(*path)

    def spelling(self, *path: str) -> str:
        return ".".join(path)

    def has(self, *path: str) -> bool:
        marker = object()
        return self.value(*path, default=marker) is not marker

    def setting(self, name: str, *path: str, value: Any = None, keys: bool = True) -> Setting | None:
        """The engine setting `name` written at `path` (its value, or `value` when given)."""
        span = self.span(*path)
        if span is None:
            return None
        found = self.value(*path) if value is None else value
        sub = self.sub_settings(path, found) if keys else {}
        return Setting(name, found, span, self.spelling(*path), self.value_span(*path), sub)

    def request_settings(
        self,
        prefix: tuple[str, ...],
        defaults: dict[str, Any],
        where: Span,
        open_ended: bool,
        owner: str,
        places: Mapping[str, WrittenDefault] | None = None,
    ) -> tuple[dict[str, Setting], bool]:
        """Sampling settings under `prefix`, the framework's defaults (reported at `where`; a message
        names the file and line of those a file of the tree writes, `places`) for keys not written,
        and whether some key is missing because something we cannot see (an unknown `$EXTRA_ARGS`,
        or a wrapper's `"$@"`) may write it. A default stands in as an implied setting: a finding on
        it rests on the key's absence."""
        found: dict[str, Setting] = {}
        missing = False
        for key, default in defaults.items():
            written = self.setting(key, *prefix, key)
            if written is not None:
                found[key] = written
            elif open_ended:
                missing = True
            else:
                spelling = default_spelling(prefix, key, default, owner, (places or {}).get(key))
                found[key] = Setting(key, default, where, spelling, implied=True)
        return found, missing

    def sub_settings(self, path: tuple[str, ...], value: Any) -> dict[str, Setting]:
        if not isinstance(value, dict):
            return {}
        found = {}
        for key, item in value.items():
            inner = (*path, str(key))
            if self.span(*inner) is not None:
                setting = self.setting(str(key), *inner, value=item)
                if setting is not None:
                    found[str(key).replace("-", "_")] = setting
        return found


def _get(data: Any, path: Iterable[str], default: Any) -> Any:
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return default
    return data


@record
class Written:
    """One `key=value` word of a command line."""

    path: Path
    value: Any
    span: Span
    spelling: str
    value_span: Span | None = None


@record
class Overrides(ConfigView):
    """`key=value` words (Hydra or OmegaConf) as one nested configuration, last word wins."""

    words: list[Written] = field(default_factory=list)
    open_reasons: list[str] = field(default_factory=list)
    others: list[Any] = field(default_factory=list)  # tokens that are not overrides
    forwarded: list[str] = field(default_factory=list)  # the script's own arguments (`"$@"`)

    def unseen(self, token: Any, reason: str | None = None) -> None:
        """A word we cannot read: the script's forwarded arguments, or anything else (open-ended)."""
        if getattr(token, "forwarded", False):
            self.forwarded.append(token.raw)
        else:
            self.open_reasons.append(reason or token.raw)

    def __post_init__(self) -> None:
        self.data: dict[str, Any] = {}
        for word in self.words:
            _set(self.data, word.path, word.value)

    def value(self, *path: str, default: Any = None) -> Any:
        return _get(self.data, path, default)

    def _written(self, path: tuple[str, ...]) -> Written | None:
        """The last word that writes `path` itself, a key inside it, or a map holding it."""
        found = None
        for word in self.words:
            length = min(len(word.path), len(path))
            if word.path[:length] == path[:length]:
                found = word
        return found

    def span(self, *path: str) -> Span | None:
        word = self._written(path)
        return None if word is None else word.span

    def value_span(self, *path: str) -> Span | None:
        word = self._written(path)
        return None if word is None or word.path != path else word.value_span

    def spelling(self, *path: str) -> str:
        word = self._written(path)
        return ".".join(path) if word is None else word.spelling


def _merge(target: dict, value: dict) -> None:
    for key, item in value.items():
        if isinstance(item, dict) and isinstance(target.get(key), dict):
            _merge(target[key], item)
        else:
            target[key] = dict(item) if isinstance(item, dict) else item


def _set(data: dict, path: Path, value: Any) -> None:
    for part in path[:-1]:
        nested = data.get(part)
        if not isinstance(nested, dict):
            nested = data[part] = {}
        data = nested
    if isinstance(value, dict) and isinstance(data.get(path[-1]), dict):
        for key, item in value.items():
            _set(data[path[-1]], (key,), item)
    else:
        data[path[-1]] = value


@record
class Layered(ConfigView):
    """Several views, the later ones winning (a config file, then command-line overrides)."""

    layers: list[ConfigView]

    def _top(self, path: tuple[str, ...]) -> ConfigView | None:
        for layer in reversed(self.layers):
            if layer.has(*path):
                return layer
        return None

    def has(self, *path: str) -> bool:
        return any(layer.has(*path) for layer in self.layers)

    def value(self, *path: str, default: Any = None) -> Any:
        values = [layer.value(*path) for layer in self.layers if layer.has(*path)]
        if not values:
            return default
        if len(values) > 1 and all(isinstance(v, dict) for v in values):
            merged: dict = {}
            for v in values:
                _merge(merged, v)
            return merged
        return values[-1]

    def span(self, *path: str) -> Span | None:
        for layer in reversed(self.layers):
            found = layer.span(*path)
            if found is not None and layer.has(*path):
                return found
        return None

    def value_span(self, *path: str) -> Span | None:
        layer = self._top(path)
        return None if layer is None else layer.value_span(*path)

    def spelling(self, *path: str) -> str:
        layer = self._top(path)
        return ".".join(path) if layer is None else layer.spelling(*path)


@record
class Inherited(ConfigView):
    """A parent configuration (NeMo-RL's `defaults:` file) seen from the file that inherits it,
    or a config file seen from the command line that loads it: its keys are spelled with that
    file's name, so a finding that lands in it says which launch made it
    (`policy.generation.top_k: null (inherited by grpo_replay.yaml)`)."""

    parent: ConfigView
    heir: str
    how: str = "inherited by"

    def value(self, *path: str, default: Any = None) -> Any:
        return self.parent.value(*path, default=default)

    def has(self, *path: str) -> bool:
        return self.parent.has(*path)

    def span(self, *path: str) -> Span | None:
        return self.parent.span(*path)

    def value_span(self, *path: str) -> Span | None:
        return self.parent.value_span(*path)

    def spelling(self, *path: str) -> str:
        """Leading sections of the key are dropped until it fits the 60 characters a message
        quotes, so the value and the heir stay in view."""
        written = self.parent.spelling(*path)
        note = f" ({self.how} {posixpath.basename(self.heir)})"
        while len(written) + len(note) > 60:
            key, separator, rest = written.partition(": ") if ": " in written else written.partition("=")
            if "." not in key:
                break
            written = key.split(".", 1)[1] + separator + rest
        return written + note


# -- reading override words -------------------------------------------------------------------

OVERRIDE_KEY = re.compile(r"^(~|\+\+|\+)?([A-Za-z_][\w-]*(?:\.[\w-]+)*)=")


def yaml_value(text: str) -> Any:
    """A value as `yaml.safe_load` reads it (OmegaConf's dot-list values), else the text."""
    try:
        return yaml.safe_load(text) if text != "" else None
    except yaml.YAMLError:
        return text


def read_overrides(tokens: Sequence[Any]) -> Overrides:
    """`key=value` words from command-line tokens (`argv.Token`s), read as OmegaConf's
    `from_cli` reads them (values as YAML). A word we cannot read whose key we can (`key=$VAR`)
    has an unknown value; a word we cannot read at all, or a spread, makes the configuration
    open-ended (the script's forwarded arguments, `"$@"`, are listed apart in `forwarded`).
    Words with Hydra's `+`/`++`/`~` are left out (SkyRL rejects them)."""
    overrides = Overrides()
    for token in tokens:
        if getattr(token, "spread", False):
            overrides.unseen(token)
            continue
        text = token.text
        match = OVERRIDE_KEY.match(text if text is not None else token.raw.strip("'\""))
        if match is None:
            if text is None:
                overrides.unseen(token)
            overrides.others.append(token)
            continue
        prefix, key = match.group(1), match.group(2)
        if prefix:
            continue
        value = UNKNOWN if text is None else yaml_value(text[match.end() :])
        overrides.words.append(_written(token, key, value, match.end() if text is not None else None))
    overrides.__post_init__()
    return overrides


def _written(token: Any, key: str, value: Any, offset: int | None) -> Written:
    """The word of `token` that writes `key`; the value's span when the word is written as it
    is read (no quotes, one line) and `offset` says where the value starts."""
    value_span = None
    span = token.span
    if offset is not None and token.raw == token.text and span.start_line == span.end_line:
        value_span = Span(span.path, span.start_line, span.start_col + offset, span.end_line, span.end_col, span.start + offset, span.end)
    return Written(tuple(key.split(".")), value, span, token.raw, value_span)


def read_hydra_overrides(tokens: Sequence[Any]) -> Overrides:
    """`key=value` words read by Hydra's own override grammar (`hydra.core.override_parser`,
    imported here: only a Hydra launch pays for it). Values are Hydra's: quoted strings stay
    strings, `{a:b}` and `[...]` are Hydra's dicts and lists, `${...}` interpolations (anywhere
    in a value) and sweeps (`a=1,2`, `range(...)`) are unknown. `~key` deletes (the default
    applies); a config-group choice (`group/name=...`, `key@package=...`) or a word Hydra
    refuses makes the configuration open-ended."""
    overrides = Overrides()
    for token in tokens:
        if getattr(token, "spread", False):
            overrides.unseen(token)
            continue
        if token.text is None:
            match = OVERRIDE_KEY.match(token.raw.strip("'\""))
            if match is None:
                overrides.unseen(token)
                overrides.others.append(token)
            elif match.group(1) != "~":
                overrides.words.append(_written(token, match.group(2), UNKNOWN, None))
            continue
        if token.text.startswith("-") or ("=" not in token.text and not token.text.startswith("~")):
            overrides.others.append(token)  # an option (`--config-name`) or a word Hydra does not take
            continue
        override = hydra_override(token.text)
        if override is None:
            overrides.open_reasons.append(f"{token.raw} (Hydra cannot parse it)")
            continue
        key = override.key_or_group
        if override.is_delete():
            continue
        if "/" in key or override.package is not None:
            overrides.open_reasons.append(f"{token.raw} (a Hydra config group not read here)")
            continue
        value = UNKNOWN if override.is_sweep_override() else _hydra_plain(override.value())
        offset = token.text.index("=") + 1
        overrides.words.append(_written(token, key, value, offset))
    overrides.__post_init__()
    return overrides


@lru_cache(maxsize=4096)
def hydra_override(text: str) -> Any:
    """Hydra's own parse of one override word (`OverridesParser.parse_override`, imported here:
    only a Hydra launch pays for it), None when Hydra refuses it. Cached: a command line is read
    for its settings and again, per edition, for Hydra's refusals (`hydra_struct`)."""
    from hydra.errors import HydraException

    try:
        return _hydra_parser().parse_override(text)
    except HydraException:
        return None


@lru_cache(maxsize=1)
def _hydra_parser() -> Any:
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create()


def _hydra_plain(value: Any) -> Any:
    """A Hydra value with every interpolation (`${...}`, inside strings, lists and dicts) unknown."""
    if isinstance(value, str):
        return UNKNOWN if "${" in value else value
    if isinstance(value, list):
        return [_hydra_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _hydra_plain(item) for key, item in value.items()}
    return value


@record
class TokenTree(ConfigView):
    """A YAML file read by vLLM's `--config` reader (`words.vllm_config.load_config_tokens`): its
    top-level keys, their values (maps keep their types) and the spans of nested keys."""

    entries: dict[str, tuple[Any, Span, str, dict[str, Setting]]] = field(default_factory=dict)

    def value(self, *path: str, default: Any = None) -> Any:
        if not path or path[0] not in self.entries:
            return default
        return _get(self.entries[path[0]][0], path[1:], default)

    def _setting(self, path: tuple[str, ...]) -> Setting | None:
        if not path or path[0] not in self.entries:
            return None
        value, span, spelling, keys = self.entries[path[0]]
        found = Setting(path[0], value, span, spelling, None, keys)
        for part in path[1:]:
            found = found.keys.get(part.replace("-", "_"))  # type: ignore[assignment]
            if found is None:
                return None
        return found

    def span(self, *path: str) -> Span | None:
        found = self._setting(path)
        return None if found is None else found.span

    def value_span(self, *path: str) -> Span | None:
        found = self._setting(path)
        return None if found is None else found.value_span

    def spelling(self, *path: str) -> str:
        """A nested key as its dotted path (`policy.generation.top_k: null`)."""
        found = self._setting(path)
        if found is None:
            return ".".join(path)
        if len(path) > 1 and found.spelling.startswith(f"{path[-1]}:"):
            return ".".join(path) + found.spelling[len(path[-1]) :]
        return found.spelling


def token_tree(tokens: Sequence[Any]) -> TokenTree:
    """The configuration of a YAML file from the words vLLM's reader makes of it (`--key` and
    its value words: a map is one word holding the parsed map, a `true` switch is the key alone)."""
    tree = TokenTree()
    groups: list[tuple[Any, list[Any]]] = []
    for token in tokens:
        if token.text is not None and token.text.startswith("--") and token.value is None:
            groups.append((token, []))
        elif groups:
            groups[-1][1].append(token)
    for flag, values in groups:
        key = flag.text[2:]
        if not values:
            tree.entries[key] = (True, flag.span, flag.raw, {})
        elif len(values) == 1:
            token = values[0]
            value = token.value if token.value is not None else (UNKNOWN if token.text is None else yaml_value(token.text))
            tree.entries[key] = (
                value,
                flag.span.cover(token.span) if flag.span.path == token.span.path else flag.span,
                f"{flag.raw} {token.raw}",
                dict(token.keys),
            )
        else:
            tree.entries[key] = ([v.text for v in values], flag.span, flag.raw, {})
    return tree

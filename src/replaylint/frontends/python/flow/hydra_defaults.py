"""A Hydra config composed with its `defaults:` list, as hydra-core 1.3 composes the primary config
of `@hydra.main(config_path="../../config", config_name="base")` (RAGEN's config/base.yaml:
`defaults: [ppo_trainer]`, verl's ppo_trainer.yaml beside it): each entry of the list a config of
the same folder (`ppo_trainer.yaml`), merged in the list's order, `_self_` (the file's own keys;
appended when missing, `_internal/defaults_list.py` `_validate_self`) where the list puts it; a
later mapping merges into an earlier one key by key (OmegaConf's merge), any other value
replaces. Each key is written where the file that wins writes it, so a finding on a value the
base file keeps (`val_kwargs.top_k: -1`) points at that file's line.

What stays open (the mapping read as before, its keys unknown beside the list): an entry that is
not a plain name (a config group `- rollout: vllm`, `override`, `optional`, a path `a/b`), a
config not in the folder, a file whose own list stays open, a `# @package` other than
`_global_`, a mapping merged into a value that is not one, a config outside the search path's
top folder (`--config-name sub/x`), a list nested deeper than `_MAX_DEPTH` or in a cycle."""

from __future__ import annotations

import os
from dataclasses import replace

from ....model import UNKNOWN
from ....regexes import on_use
from .facts import NOTHING, Entry, Kwargs, Val
from .yaml_configs import read_config

_SELF = "_self_"
_MAX_DEPTH = 4
# Hydra reads `# @key value` lines until the first other line that is not blank (`_get_header_dict`).
_PACKAGE_HEADER = on_use(r"\A(?:[ \t]*(?:#\s*@[^\n]*)?\n)*?[ \t]*#\s*@package[ \t]+(\S+)")


def hydra_config_file(reader, path: str, top: str, assumed: tuple[str, ...] = (), resting: bool = False) -> Val:
    """The config at `path` as Hydra composes it, `top` the folder of its search path."""
    text = reader.tree.context.read_text(path)
    if text is None or "defaults" not in text or os.path.dirname(path) != os.path.normpath(top):
        return read_config(reader, path, assumed, resting)
    found = _composed(reader, path, (assumed, resting), (path,))
    return _as_val(found) if found is not None else read_config(reader, path, assumed, resting)


def _composed(reader, path: str, reading: tuple[tuple[str, ...], bool], seen: tuple[str, ...]) -> Kwargs | None:
    """The file's keys over its defaults' (None: left open)."""
    layers = _layers(reader.tree.context.read_text(path), path)
    if layers is None or _packaged(reader.tree.context.read_text(path)):
        return None
    found: Kwargs | None = None
    for layer in layers:
        if layer == path:
            read = read_config(reader, path, *reading, composed=True).kwargs
        elif layer in seen or len(seen) > _MAX_DEPTH or reader.tree.context.read_text(layer) is None:
            return None
        else:
            read = _composed(reader, layer, reading, (*seen, layer))
        if read is None or read.reasons:
            return None
        found = read.copy() if found is None else _merged(found, read)
        if found is None:
            return None
    return found


def _layers(text: str | None, path: str) -> list[str] | None:
    """The files the defaults list composes, in order, `path` for `_self_`; None: not all plain names."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from ....readers.yaml_nodes import get, only_document

    document = only_document(text, MappingNode) if text is not None else None
    listed = get(document, "defaults") if document is not None else None
    if listed is None:
        return [path] if document is not None else None
    if not isinstance(listed, SequenceNode):
        return None
    names = [item.value if isinstance(item, ScalarNode) and item.tag.endswith(":str") else None for item in listed.value]
    if any(not name or "/" in name or " " in name for name in names):  # `override x`, `optional x`, a group path
        return None
    if _SELF not in names:
        names.append(_SELF)
    if len(set(names)) != len(names):
        return None
    folder = os.path.dirname(path)
    return [path if name == _SELF else os.path.join(folder, f"{name}.yaml") for name in names]  # type: ignore[arg-type]


def _packaged(text: str | None) -> bool:
    """Whether the file's header moves its keys under a package of their own."""
    header = _PACKAGE_HEADER.match(text or "")
    return header is not None and header.group(1) != "_global_"


def _merged(earlier: Kwargs, later: Kwargs) -> Kwargs | None:
    """`later` merged into `earlier` as OmegaConf merges (None: a mapping over another value)."""
    found = earlier.copy()
    found.assumed.extend(condition for condition in later.assumed if condition not in found.assumed)
    found.sources |= later.sources
    for name, entry in later.entries.items():
        before = found.entries.get(name)
        if before is None or not isinstance(entry.ref, Kwargs):
            found.entries[name] = entry
            continue
        if not isinstance(before.ref, Kwargs):
            if before.setting.value is not None:
                return None
            found.entries[name] = entry
            continue
        inner = _merged(before.ref, entry.ref)
        if inner is None:
            return None
        found.entries[name] = _mapping_entry(before, entry, inner)
    return found


def _mapping_entry(before: Entry, entry: Entry, inner: Kwargs) -> Entry:
    """The entry of a mapping both files write: the later one's place, the merged keys."""
    known = before.setting.value is not UNKNOWN and entry.setting.value is not UNKNOWN
    keys = {**before.setting.keys, **entry.setting.keys}
    for name in before.setting.keys.keys() & entry.setting.keys.keys():  # a mapping both write: as merged
        merged = inner.entries.get(name)
        if merged is not None and isinstance(merged.ref, Kwargs):
            keys[name] = replace(keys[name], value=merged.setting.value, keys=merged.setting.keys)
    value = _as_val(inner).value if known else UNKNOWN
    return replace(entry, setting=replace(entry.setting, value=value, keys=keys, choices=()), ref=inner)


def _as_val(found: Kwargs | None) -> Val:
    from .dicts import as_val

    return as_val(found) if found is not None else NOTHING

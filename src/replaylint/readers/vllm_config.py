"""vLLM config files (`vllm serve --config FILE.yaml`): keys are option names.

`FlexibleArgumentParser.load_config_file` reads the file with `yaml.safe_load` and turns each
top-level key into command-line words, which are spliced in before the rest of the command
line (so the command line wins):

- `key: true` -> `--key`; `key: false` is dropped under `vllm serve` (the `--no-key` form is
  only produced for options of the parser that loaded the file, which is the top-level one);
- a list -> `--key item ...` (`str()` of each item; an empty list is dropped);
- a map -> `--key <json>` (kept here as an already-parsed value, with the span of every nested
  key, so findings can point at `enable_adaptive_verification:` under `speculative-config:`);
- anything else -> `--key str(value)`: a quoted `'true'` on the mask switch becomes the word
  `true` after it, which argparse rejects;
- `_` or `-` in keys and dotted keys work, as on the command line (argv normalises them).

Tokens point into the config file (`load_config_tokens` for a launch in a shell script,
Dockerfile, Python argv list or Kubernetes manifest; `embedded_tokens` for a config held in a
ConfigMap). A file checked on its own is `frontends.yaml.standalone_config`'s.

Fixes edit the file: set a key's value, add a key after the mask key (same indentation and
`_`/`-` spelling), remove a key's lines, rename a key.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from typing import Any, Iterator

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .. import files
from ..frameworks.fork_files import PACKAGES
from ..frameworks.nearby import paths_upward, script_cd_folder, tree_root
from ..model import UNKNOWN, Edit, Launch, LineIndex, RemoveSetting, RenameSetting, SetSetting, Setting, Span
from ..records import record
from ..source import ExtractContext, SourceFile
from ..vllm.command_line import Token
from ..vllm.options import table_for
from ..vllm.releases import NEWEST
from .yaml_nodes import construct, content_end, entries, line_end, line_start, next_line, only_document, source, span
from .yaml_scalars import scalar
from .yaml_text import Text

_READ_LIMIT = 8 * 1024 * 1024


@record
class ConfigFile:
    path: str
    text: str
    index: LineIndex
    root: MappingNode

    def entries(self) -> list[tuple[ScalarNode, Node]]:
        """Top-level entries as `yaml.safe_load` orders them: a repeated key keeps its first
        place and its last value."""
        ordered: dict[str, list[Node]] = {}
        for key, value in entries(self.root):
            if key.value in ordered:
                ordered[key.value][1:] = [key, value]
            else:
                ordered[key.value] = [key, key, value]
        return [(key, value) for _, key, value in ordered.values()]  # type: ignore[misc]


def read(path: str, text: str) -> ConfigFile | None:
    """The config file, or None when vLLM could not use it (not one mapping)."""
    document = only_document(text, MappingNode)
    return ConfigFile(path, text, LineIndex(path, text), document) if document is not None else None


def _dest(key: str) -> str:
    head = key.split(".", 1)[0]
    option, _ = table_for(NEWEST).lookup("--" + head.replace("_", "-"))
    return option.dest if option is not None else head.replace("-", "_")


def _sub_settings(config: ConfigFile, node: Node, depth: int = 0) -> dict[str, Setting]:
    if not isinstance(node, MappingNode) or depth > 8:
        return {}
    found: dict[str, Setting] = {}
    for key, value in entries(node):
        name = str(key.value)
        region = config.index.span(key.start_mark.index, content_end(config.text, value))
        found[name.replace("-", "_")] = Setting(
            name,
            construct(value),
            region,
            " ".join(source(config.text, key).split()) + ": " + " ".join(source(config.text, value).split()),
            span(config.index, value),
            _sub_settings(config, value, depth + 1),
        )
    return found


def tokens(config: ConfigFile) -> list[Token]:
    """The words `load_config_file` makes of the file, with spans in it."""
    text, index = config.text, config.index
    result: list[Token] = []
    for key, value_node in config.entries():
        key_value = construct(key)
        value = construct(value_node)
        key_span = span(index, key)
        value_source = " ".join(source(text, value_node).split())
        whole = index.span(key.start_mark.index, max(key.end_mark.index, content_end(text, value_node)))
        if not isinstance(key_value, str):
            result.append(Token(None, key_span, source(text, key)))
            continue
        flag = "--" + key_value
        if isinstance(value, bool):
            if value:
                result.append(Token(flag, whole, f"{key_value}: {value_source}"))
            continue
        if isinstance(value, list):
            if not value:
                continue
            result.append(Token(flag, key_span, f"{key_value}:"))
            nodes = value_node.value if isinstance(value_node, SequenceNode) else []
            for position, item in enumerate(value):
                item_node = nodes[position] if position < len(nodes) else value_node
                result.append(Token(str(item), span(index, item_node), " ".join(source(text, item_node).split())))
            continue
        result.append(Token(flag, key_span, f"{key_value}:"))
        value_span = span(index, value_node)
        if value is UNKNOWN:
            result.append(Token(None, value_span, value_source))
        elif isinstance(value, dict):
            try:
                dumped = json.dumps(value)
            except (TypeError, ValueError):
                result.append(Token(None, value_span, value_source))
                continue
            result.append(Token(dumped, value_span, value_source, value=value, keys=_sub_settings(config, value_node)))
        else:
            result.append(Token(str(value), value_span, value_source))
    return result


class _EmbeddedIndex:
    """Spans of a config held in a scalar of another file (a ConfigMap key): offsets of the
    scalar's value are mapped to the file's."""

    def __init__(self, outer: LineIndex, held: Text) -> None:
        self.outer = outer
        self.held = held
        self.text = held.value

    def span(self, start: int, end: int) -> Span:
        return self.outer.span(*self.held.region(start, end))


def embedded_tokens(source: SourceFile, held: Text) -> list[Token] | None:
    """The words of a config file whose text is a scalar of `source` (spans in `source`).
    Fixes are not offered inside it."""
    document = only_document(held.value, MappingNode)
    if document is None:
        return None
    config = ConfigFile(source.path, held.value, _EmbeddedIndex(source.index, held), document)  # type: ignore[arg-type]
    return tokens(config)


def display_path(launching_path: str, path_text: str) -> str:
    """The config file's path as the engine names files (relative, `./` kept)."""
    joined = os.path.normpath(os.path.join(os.path.dirname(launching_path), path_text))
    if launching_path.startswith("./") and not joined.startswith(("/", "..")):
        joined = "./" + joined
    return joined


def load_config_tokens(path_text: str, token: Token, context: ExtractContext, launching_path: str) -> list[Token] | None:
    """The words of a `--config FILE` spliced in by a launch in `launching_path`.

    A relative path is looked up next to the launching file, then from the directory
    replaylint runs in, then from the root of the tree the launching file sits in (`nearby.
    tree_root`: a script in `examples/scripts/` names `examples/configs/x.yaml` as its
    repository's root runs it, wherever replaylint runs). Absolute paths name files of the
    machine or container that runs vLLM, not ours: None, as for a file we cannot read or vLLM
    could not use (then the launch is open-ended).
    """
    if not path_text.endswith((".yaml", ".yml")) or os.path.isabs(path_text) or "$" in path_text:
        return None
    offset = token.span.start if token.span is not None else None  # (a word without a place: no `cd` before it is known)
    for candidate in config_candidates(path_text, context, launching_path, offset):
        text = context.read_text(candidate)
        if text is None or len(text) > _READ_LIMIT:
            continue
        config = read(candidate, text)
        if config is None:
            return None
        _remember(candidate, text)
        return tokens(config)
    return None


def config_candidates(path_text: str, context: ExtractContext, launching_path: str, offset: int | None) -> Iterator[str]:
    """Where a relative path a script's command reads at `offset` is looked for (see `load_config_tokens`)."""
    script_folder = script_cd_folder(context.read_text(launching_path) or "", offset) if offset is not None else None
    if script_folder is not None:  # `cd "$(dirname "$0")/.."` before the launch: the path is read from there
        yield os.path.normpath(os.path.join(os.path.dirname(launching_path), script_folder, path_text))
        return
    beside = display_path(launching_path, path_text)
    yield beside
    tried = {os.path.normpath(beside)}
    if files.in_workflows(launching_path):  # a workflow's `run:` step runs in the checkout: the folder holding `.github`
        checkout = os.path.normpath(os.path.join(os.path.dirname(launching_path), os.pardir, os.pardir, path_text))
        yield checkout
        tried.add(checkout)
    if os.path.normpath(path_text) not in tried:
        yield os.path.normpath(path_text)
        tried.add(os.path.normpath(path_text))
    root = tree_root(launching_path, context.list_folder, PACKAGES)
    if root is not None and os.path.normpath(os.path.join(root, path_text)) not in tried:
        yield os.path.normpath(os.path.join(root, path_text))
        tried.add(os.path.normpath(os.path.join(root, path_text)))
    # The working folder is not known: a program in launch/ runs from the project's folder above it.
    yield from (path for path in paths_upward(path_text, launching_path) if path not in tried)


# The text each config file had when its words were made (the run may read a file being fixed
# from memory rather than from disk): fixes must edit that text.
_LOADED: OrderedDict[str, str] = OrderedDict()


def _remember(path: str, text: str) -> None:
    _LOADED[path] = text
    _LOADED.move_to_end(path)
    while len(_LOADED) > 64:
        _LOADED.popitem(last=False)


# -- fixes -----------------------------------------------------------------------------------


def _yaml_value(value: Any, style: str) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return scalar(str(value), style if style in ("'", '"') else "", False)


def _entries_for(config: ConfigFile, name: str) -> list[tuple[ScalarNode, Node]]:
    return [
        (key, value)
        for key, value in entries(config.root)
        if isinstance(key.value, str) and _dest(key.value) == name and "." not in key.value
    ]


def _remove_entry(config: ConfigFile, key: Node, value: Node) -> Edit | None:
    text = config.text
    first = line_start(text, key.start_mark.index)
    if text[first : key.start_mark.index].strip() or config.root.flow_style:
        return None
    return Edit(config.index.span(first, next_line(text, content_end(text, value))), "")


def _spell(name: str, like: str) -> str:
    return name.replace("_", "-") if "-" in like and "_" not in like else name


def edit(config: ConfigFile, launch: Launch, intent: Any) -> list[Edit] | None:
    """Edits of the config file for one fix intent (None: not writable here)."""
    text, index = config.text, config.index
    if isinstance(intent, SetSetting):
        name, _, key = intent.name.partition(".")
        if key:
            setting = launch.get(name)
            sub = setting.keys.get(key) if setting is not None else None
            if sub is not None and sub.value_span is not None and sub.value_span.path == config.path:
                style = text[sub.value_span.start : sub.value_span.start + 1]
                return [Edit(sub.value_span, _yaml_value(intent.value, style))]
            return None
        found = _entries_for(config, name)
        if found:
            _, value_node = found[-1]
            style = value_node.style or "" if isinstance(value_node, ScalarNode) else ""
            if isinstance(value_node, ScalarNode) and not value_node.style and value_node.value == _yaml_value(intent.value, ""):
                return []
            return [Edit(span(index, value_node), _yaml_value(intent.value, style))]
        anchors = _entries_for(config, intent.after) or list(entries(config.root))[-1:]
        if not anchors or config.root.flow_style:
            return None
        anchor_key, anchor_value = anchors[-1]
        at = line_end(text, content_end(text, anchor_value))
        indent = text[line_start(text, anchor_key.start_mark.index) : anchor_key.start_mark.index]
        if indent.strip():
            return None
        newline = "\r\n" if text[at : at + 2] == "\r\n" else "\n"
        spelled = _spell(name, str(anchor_key.value))
        return [Edit(index.span(at, at), f"{newline}{indent}{spelled}: {_yaml_value(intent.value, '')}")]
    if isinstance(intent, RemoveSetting):
        edits = []
        for key, value in _entries_for(config, intent.name):
            removal = _remove_entry(config, key, value)
            if removal is None:
                return None
            edits.append(removal)
        return edits
    if isinstance(intent, RenameSetting):
        found = _entries_for(config, intent.name)
        if not found:
            return None
        key, _ = found[-1]
        return [Edit(span(index, key), _spell(intent.new_name, str(key.value)))]
    return None


def _config_path(launch: Launch, intent: Any, fallback: str) -> str | None:
    name = getattr(intent, "name", "").partition(".")[0]
    setting = launch.get(name)
    if setting is not None and setting.span.path != fallback:
        return setting.span.path
    after = getattr(intent, "after", None)
    anchor = launch.get(after) if after else None
    if anchor is not None and anchor.span.path != fallback:
        return anchor.span.path
    return None


def config_render(launch: Launch, intent: Any, source: SourceFile) -> list[Edit] | None:
    """`CommandHandle.config_render`: a fix intent for a setting that lives in the `--config`
    YAML file of a launch written in `source`. The edits are in the config file."""
    path = _config_path(launch, intent, source.path)
    if path is None:
        return None
    text = _LOADED.get(path)
    if text is None:
        try:
            text = files.read_regular(path, _READ_LIMIT).decode("utf-8-sig")
        except (files.Unreadable, UnicodeDecodeError):
            return None
    config = read(path, text)
    return None if config is None else edit(config, launch, intent)

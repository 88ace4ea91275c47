"""Replay injected into a real launch file, in that file's own syntax.

A *site* is one place that starts vLLM (`vllm serve`, the API server module, a
`vllm/vllm-openai` image in `docker run`, `trl vllm-serve`, `python -m dynamo.vllm`, an exec
form `["vllm", "serve"]`, a `LLM(...)` / `EngineArgs(...)` / `AsyncEngineArgs(...)` call, a
vLLM `--config` file). Each site gives two mutants: the mask alone, and the mask with
`--logprobs-mode processed_logprobs`. Sites are found by plain text patterns and Python's own
`ast` (and, for a YAML image that a `command` replaces, PyYAML's node positions), never by
replaylint.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass

import yaml

MASK_FLAG = "--return-sampling-mask"
MODE_FLAGS = ("--logprobs-mode", "processed_logprobs")
VARIANTS = ("mask", "mask+processed")

_WORD_SITES = re.compile(
    r"\bvllm\s+serve\b"
    r"|\bvllm\.entrypoints\.openai\.api_server\b"
    r"|\btrl\s+vllm-serve\b"
    r"|-m\s+dynamo\.vllm\b"
    r"|(?<![\w/.-])[\w.-]*(?:vllm/vllm-openai|lmcache/vllm-openai)[\w.-]*(?::[\w.${}-]+)?(?=[\s\"'\\]|$)"
)
_EXEC_FORM = re.compile(r"""(["'])(?:[^"'\s]*/)?vllm\1\s*,\s*(["'])serve\2""")
_FROM_IMAGE = re.compile(r"^FROM\s+(?:--\S+\s+)*(?P<image>\S+)", re.I | re.M)
_EXEC_MODULE = re.compile(r"""(["'])vllm\.entrypoints\.openai\.api_server\1""")
# Commands whose arguments name a vLLM process or print a command line, and where one shell
# command ends and the next begins on a line.
_NAMING_COMMANDS = frozenset("pkill pgrep killall pidof echo printf grep egrep fgrep logger".split())
_SEGMENT_START = re.compile(r"\$\(|`|;|&&|\|\||\||\(|\b(?:then|do|else)\b")
_LABEL_KEY = re.compile(r"^\s*(?:-\s*)?(?:name|description|title|summary)\s*:")  # a YAML step's name
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# The word, list item or YAML block item after `serve` (its model, unless it is an option).
_MODEL_WORD = re.compile(r"""(?:[ \t]+|[ \t]*\\\n[ \t]*)+(?P<word>"[^"\s]*"|'[^'\s]*'|\\"[^"\s\\]*\\"|[^\s"'\\;&|()<>]+)""")
_MODEL_ITEM = re.compile(r"""\s*,\s*(["'])(?P<word>[^"'\n]*)\1""")
_MODEL_LINE = re.compile(r"""\n[ \t]*-[ \t]+(?P<word>[^\n]*)""")
# The key of a YAML container that replaces its image's entrypoint.
_OVERRIDING_KEY = {"kubernetes": "command", "helm-values": "command", "dynamo-graph": "command", "compose": "entrypoint"}
_BLOCK_ITEM = re.compile(r"^(?P<indent>[ \t]*)-[ \t]+(?P<q>[\"']?)serve(?P=q)[ \t]*$", re.M)
PY_ENGINES = ("LLM", "EngineArgs", "AsyncEngineArgs")


@dataclass(frozen=True)
class Mutant:
    site: int  # 1-based, in text order
    variant: str  # "mask" or "mask+processed"
    line: int
    text: str
    how: str  # what was edited, for the report

    @property
    def label(self) -> str:
        return f"site{self.site}:{self.variant}"


def mutants(text: str, frontend: str) -> list[Mutant]:
    if frontend == "python":
        found = _python_sites(text)
    elif frontend == "vllm-config":
        found = [_config_site(text)]
    elif frontend == "framework-config":
        found = []  # verl/SkyRL configs: the framework builds vLLM's arguments (not judgeable here)
    else:
        found = _text_sites(text, frontend)
        if frontend == "dockerfile":
            found = [site for site in found if not _on_image_line(text, site[0])] + _image_cmd_site(text)
        elif frontend in _OVERRIDING_KEY:
            overridden = _overridden_image_lines(text, _OVERRIDING_KEY[frontend])
            found = [site for site in found if text.count("\n", 0, site[0]) not in overridden]
    result = []
    for number, (offset, make, how) in enumerate(sorted(found, key=lambda site: site[0]), start=1):
        line = text.count("\n", 0, offset) + 1
        for variant in VARIANTS:
            mutated = make(variant)
            if mutated is not None:
                result.append(Mutant(number, variant, line, mutated, how))
    return result


def _flags(variant: str) -> list[str]:
    return [MASK_FLAG, *MODE_FLAGS] if variant == "mask+processed" else [MASK_FLAG]


def _insert(text: str, offset: int, addition: str) -> str:
    return text[:offset] + addition + text[offset:]


def _text_sites(text: str, frontend: str):
    """Shell words (scripts, YAML strings, Dockerfile shell forms) and exec-form lists."""
    sites = []
    for match in _WORD_SITES.finditer(text):
        if _commented(text, match.start(), frontend) or _named_not_started(text, match):
            continue
        end = _after_model(text, match.end(), _MODEL_WORD) if match.group(0).startswith("vllm") else match.end()
        sites.append((match.start(), lambda v, end=end: _insert(text, end, " " + " ".join(_flags(v))), f"words after `{match.group(0)}`"))
    for pattern in (_EXEC_FORM, _EXEC_MODULE):
        for match in pattern.finditer(text):
            if _commented(text, match.start(), frontend):
                continue
            quote = match.group(0)[-1]
            end = _after_model(text, match.end(), _MODEL_ITEM) if pattern is _EXEC_FORM else match.end()
            sites.append(
                (
                    match.start(),
                    lambda v, end=end, q=quote: _insert(text, end, "".join(f", {q}{w}{q}" for w in _flags(v))),
                    "list items after `serve`",
                )
            )
    for match in _BLOCK_ITEM.finditer(text):
        previous = text[: match.start()].rstrip().rsplit("\n", 1)[-1]
        if not re.search(r"-\s*[\"']?(?:\S*/)?vllm[\"']?\s*$", previous):
            continue
        indent, end = match.group("indent"), _after_model(text, match.end(), _MODEL_LINE)
        sites.append(
            (
                match.start(),
                lambda v, end=end, i=indent: _insert(text, end, "".join(f"\n{i}- {_yaml_word(w)}" for w in _flags(v))),
                "YAML list items after `serve`",
            )
        )
    return _dedupe(sites)


def _after_model(text: str, end: int, word: re.Pattern) -> int:
    """Where the flags go: after `serve`'s model when a model follows it, since vLLM refuses
    `vllm serve --flag MODEL --served-model-name NAME` (the model must come first)."""
    match = word.match(text, end)
    if match is None or match.group("word").lstrip("\\\"'").startswith("-"):
        return end
    return match.end()


def _on_image_line(text: str, offset: int) -> bool:
    """A Dockerfile's FROM (a stage's base, see `_image_cmd_site`) or ARG (a name for one)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text[line_start:offset].lstrip().upper().startswith(("FROM", "ARG"))


def _overridden_image_lines(text: str, key: str) -> set[int]:
    """0-based lines of `image:` (`repository:`) values in a mapping whose `key` replaces the image's entrypoint
    (a Kubernetes container's `command`, a compose service's `entrypoint`): not a launch of
    the image's `vllm serve`."""
    lines: set[int] = set()
    try:
        documents = list(yaml.compose_all(text))
    except yaml.YAMLError:
        return lines
    stack = [node for node in documents if node is not None]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            keys = {k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value in ("image", "repository") and key in keys and isinstance(v, yaml.ScalarNode):
                    lines.add(v.start_mark.line)
            stack.extend(v for _, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return lines


def _image_cmd_site(text: str):
    """A last stage on a `vllm/vllm-openai` image that sets neither ENTRYPOINT nor CMD runs the
    image's `vllm serve`: the mutant gives it a `CMD` with the flags."""
    stages = list(_FROM_IMAGE.finditer(text))
    if not stages or "vllm-openai" not in stages[-1].group("image"):
        return []
    rest = text[stages[-1].end() :]
    if re.search(r"^\s*(ENTRYPOINT|CMD)\b", rest, re.I | re.M):
        return []
    body = text if text.endswith("\n") else text + "\n"
    return [(stages[-1].start(), lambda v: body + "CMD " + json.dumps(_flags(v)) + "\n", "a CMD for the image's `vllm serve`")]


def _yaml_word(word: str) -> str:
    return json.dumps(word) if word.startswith("-") else word


def _commented(text: str, offset: int, frontend: str) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    if frontend in ("shell", "dockerfile", "github-actions", "kubernetes", "compose", "helm-values", "dynamo-graph"):
        return before.lstrip().startswith("#") or ("#" in before and not _inside_quotes(before))
    return False


def _named_not_started(text: str, match: re.Match) -> bool:
    """`pkill -f "vllm serve"`, `echo "Command: vllm serve ..."`, `wait_url_ready "vllm serve" URL`,
    `- name: Smoke test vllm serve`: the words name a launch (a process to find, a message, a
    label) without starting one."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    before = text[line_start : match.start()]
    command = _SEGMENT_START.split(before)[-1].split()
    while command and _ASSIGNMENT.match(command[0]):
        command.pop(0)
    if command and command[0].strip("\"'") in _NAMING_COMMANDS:
        return True
    if _LABEL_KEY.match(before):
        return True
    quote, after = before[-1:], text[match.end() : match.end() + 1]
    return re.match(r"vllm\s+serve", match.group(0)) is not None and quote in ("'", '"') and after == quote


def _inside_quotes(before: str) -> bool:
    return before.count('"') % 2 == 1 or before.count("'") % 2 == 1


def _dedupe(sites):
    seen, kept = set(), []
    for site in sorted(sites, key=lambda s: s[0]):
        if site[0] not in seen:
            seen.add(site[0])
            kept.append(site)
    return kept


def _config_site(text: str):
    """A vLLM `--config` YAML file: the options as top-level keys, added at the end."""
    body = text if text.endswith("\n") or not text else text + "\n"

    def make(variant: str) -> str:
        lines = ["return-sampling-mask: true"]
        if variant == "mask+processed":
            lines.append("logprobs-mode: processed_logprobs")
        return body + "\n".join(lines) + "\n"

    return (len(body), make, "top-level keys")


def _python_sites(text: str):
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    offsets = _line_offsets(text)
    sites = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _engine_name(node.func) in PY_ENGINES:
            sites.append(_keyword_site(text, offsets, node))
        elif isinstance(node, (ast.List, ast.Tuple)):
            sites.extend(_argv_sites(text, offsets, node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.end_lineno == node.lineno:
            for match in re.finditer(r"\bvllm\s+serve\b", node.value):
                start = offsets[node.lineno - 1] + node.col_offset
                segment = text[start : offsets[node.end_lineno - 1] + node.end_col_offset]
                inner = re.search(r"\bvllm\s+serve\b", segment)
                if inner:
                    end = start + inner.end()
                    sites.append((start, lambda v, end=end: _insert(text, end, " " + " ".join(_flags(v))), "words in a string"))
    return [site for site in _dedupe([s for s in sites if s]) if _parses(site, text)]


def _parses(site, text: str) -> bool:
    mutated = site[1]("mask")
    try:
        ast.parse(mutated)
    except SyntaxError:
        return False
    return True


def _engine_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _line_offsets(text: str) -> list[int]:
    offsets, total = [], 0
    for line in text.splitlines(keepends=True):
        offsets.append(total)
        total += len(line)
    offsets.append(total)
    return offsets


def _keyword_site(text: str, offsets: list[int], call: ast.Call):
    names = {keyword.arg for keyword in call.keywords}
    arguments = [*call.args, *call.keywords]
    if arguments:
        last = max(arguments, key=lambda a: (a.end_lineno, a.end_col_offset))
        end = offsets[last.end_lineno - 1] + last.end_col_offset
        lead = ", "
    else:
        end = offsets[call.func.end_lineno - 1] + call.func.end_col_offset
        end = text.index("(", end) + 1
        lead = ""
    start = offsets[call.lineno - 1] + call.col_offset

    def make(variant: str) -> str | None:
        words = ["return_sampling_mask=True"]
        if variant == "mask+processed":
            if "logprobs_mode" in names:
                return None
            words.append('logprobs_mode="processed_logprobs"')
        return _insert(text, end, lead + ", ".join(words))

    return (start, make, f"keywords of `{_engine_name(call.func)}(...)`")


def _argv_sites(text: str, offsets: list[int], node: ast.List | ast.Tuple):
    items = node.elts
    for index, item in enumerate(items):
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            continue
        previous = items[index - 1] if index else None
        serve = item.value == "serve" and isinstance(previous, ast.Constant) and str(previous.value).endswith("vllm")
        module = item.value == "vllm.entrypoints.openai.api_server"
        if serve or module:
            end = offsets[item.end_lineno - 1] + item.end_col_offset
            start = offsets[item.lineno - 1] + item.col_offset
            yield (start, lambda v, end=end: _insert(text, end, "".join(f", {json.dumps(w)}" for w in _flags(v))), "argv list items")

"""YAML scalars as replaylint writes them (plain when safe, else double- or single-quoted, and
text escaped inside an existing scalar), and the substitutions YAML tools apply to words:
Kubernetes expands `$(VAR)` in `command`/`args` from the container's `env` (`$$` is a literal
`$`); docker-compose interpolates `${VAR}`/`$VAR` from `.env` and the shell (`$$` is a literal
`$`), which we cannot see, so those become unknown. An `env` value may use earlier ones
(`value: $(A0)$(A0)`), so a value can double on each line: an expansion that substitutes more
than `VALUE_LIMIT` characters is not read (`NotAnalysed`), and every substitution is counted
as read (`yaml_nodes.spend`).
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

import yaml
from yaml.nodes import ScalarNode, SequenceNode

from ..source import NotAnalysed
from .yaml_nodes import HOLE, READ_LIMIT, STR, spend
from .yaml_text import Text

# The characters one expansion may substitute: far beyond any real value, yet reached by 16
# doublings of one character (30 of them make 4 GB, with each character's offsets more).
VALUE_LIMIT = 1 << 16
_TOO_LONG = f"values that substitution makes longer than {VALUE_LIMIT:,} characters are not read"
_TOO_MUCH = f"the values that substitution makes hold more than {READ_LIMIT:,} characters together"

_PLAIN_CACHE: dict[tuple[str, bool], bool] = {}
_Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


def plain_safe(value: str, flow: bool) -> bool:
    """Whether `value` can be written as a plain scalar and read back as the same string."""
    key = (value, flow)
    cached = _PLAIN_CACHE.get(key)
    if cached is not None:
        return cached
    ok = False
    if value and value == value.strip() and "\n" not in value and HOLE not in value:
        document = f"[{value}]" if flow else f"- {value}"
        try:
            node = yaml.compose(document, Loader=_Loader)
        except yaml.YAMLError:
            node = None
        ok = (
            isinstance(node, SequenceNode)
            and len(node.value) == 1
            and isinstance(node.value[0], ScalarNode)
            and node.value[0].tag == STR
            and not node.value[0].style
            and node.value[0].value == value
        )
    if len(_PLAIN_CACHE) < 4096:
        _PLAIN_CACHE[key] = ok
    return ok


def double_quoted(value: str) -> str:
    out = []
    for char in value:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or char == "\x7f":
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def single_quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def scalar(value: str, style: str, flow: bool) -> str:
    """A YAML scalar for the string `value`: in `style` (`"`, `'`, or plain when that reads
    back as the same string, else double quotes)."""
    if style == "'" and "\n" not in value:
        return single_quoted(value)
    if style == '"':
        return double_quoted(value)
    if plain_safe(value, flow):
        return value
    return double_quoted(value)


def escape_in_scalar(content: str, style: str) -> str | None:
    """Text to put *inside* an existing scalar of `style`; None when it cannot go there."""
    if style == '"':
        return content.replace("\\", "\\\\").replace('"', '\\"') if "\n" not in content else None
    if style == "'":
        return content.replace("'", "''") if "\n" not in content else None
    if style == "|":
        return content
    if "\n" in content:
        return None
    if style == ">":
        return content
    # plain
    if ": " in content or " #" in content or content.endswith(":") or "\t" in content:
        return None
    return content


# -- substitutions ---------------------------------------------------------------------------------

_K8S_REFERENCE = re.compile(r"\$(\$|\(([^()\s]*)\))")
_COMPOSE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def k8s_expand(text: Text, env: Mapping[str, Any] | None, keep_unknown: bool = False) -> Text:
    """Kubernetes `$(VAR)` expansion (kubelet's expansion.go): known values are substituted,
    `$$` is one `$`, an unknown or undefined variable becomes a hole (or stays as written
    with `keep_unknown`, for shell scripts, where the shell then sees `$(VAR)`)."""
    if "$" not in text.value:
        return text
    parts: list[Text] = []
    cursor = 0
    substituted = 0
    for match in _K8S_REFERENCE.finditer(text.value):
        parts.append(text.slice(cursor, match.start()))
        cursor = match.end()
        a, b = text.region(match.start(), match.end())
        if match.group(1) == "$":
            parts.append(Text.filled("$", a, b, text.exact))
            continue
        name = match.group(2)
        value = None if env is None else env.get(name, None)
        if isinstance(value, str) and HOLE not in value:
            substituted += len(value)
            if substituted > VALUE_LIMIT:
                raise NotAnalysed(_TOO_LONG, a)
            spend(len(value), a, _TOO_MUCH)
            parts.append(Text.filled(value, a, b, text.exact))
        elif keep_unknown:
            parts.append(text.slice(match.start(), match.end()))
        else:
            parts.append(Text.filled(HOLE, a, b, text.exact))
    parts.append(text.slice(cursor, len(text)))
    return Text.join(parts)


def _compose_references(value: str) -> Iterator[tuple[int, int, str]]:
    r"""(start, end, what follows the `$`) of each `$$`, `${...}` (to the first `}`) and `$NAME`:
    the regex `\$(\$|\{[^}]*\}|NAME)`, in one pass (from every `${` it searched the rest of the
    value for a `}`: 4.5 s for 100 KB of `${`)."""
    close = -2  # the first `}` after the last `${` (-1: there is none)
    at = value.find("$")
    while at != -1:
        end = -1
        following = value[at + 1 : at + 2]
        if following == "$":
            end = at + 2
        elif following == "{":
            if close != -1 and close < at + 2:
                close = value.find("}", at + 2)
            end = close + 1 if close != -1 else -1
        else:
            name = _COMPOSE_NAME.match(value, at + 1)
            end = name.end() if name else -1
        if end == -1:
            at = value.find("$", at + 1)
        else:
            yield at, end, value[at + 1 : end]
            at = value.find("$", end)


def compose_interpolate(text: Text, keep_unknown: bool = False, known: Mapping[str, str] | None = None) -> Text:
    """docker-compose interpolation: every `${VAR}` / `$VAR` comes from the shell or `.env`,
    which we do not see (a default `${VAR:-x}` is only used when VAR is unset): a hole, or
    (`keep_unknown`, for shell scripts) the reference as written; `known`: the values the `.env`
    file beside the compose file gives, taken for a plain `${VAR}` / `$VAR` (the reference stands
    for the value as a whole)."""
    if "$" not in text.value:
        return text
    parts: list[Text] = []
    cursor = 0
    for start, end, reference in _compose_references(text.value):
        parts.append(text.slice(cursor, start))
        cursor = end
        a, b = text.region(start, end)
        if reference == "$":
            parts.append(Text.filled("$", a, b, text.exact))
        elif known is not None and reference.strip("{}") in known and reference.count("{") == reference.count("}"):
            parts.append(Text.filled(known[reference.strip("{}")], a, b, False))
        elif keep_unknown:
            parts.append(text.slice(start, end))
        else:
            parts.append(Text.filled(HOLE, a, b, text.exact))
    parts.append(text.slice(cursor, len(text)))
    return Text.join(parts)


def templated(value: str) -> bool:
    """A Helm/Go or KServe template placeholder (`{{ .Values.x }}`, `{{.Name}}`)."""
    return "{{" in value

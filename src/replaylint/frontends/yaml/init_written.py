"""A `--config` file an init container of the pod writes with a heredoc into an `emptyDir` volume the
serving container mounts (Kubernetes' "Init Containers": `command: ["/bin/sh", "-c"]`, a script of
`cat > /etc/vllm/config.yaml <<EOF ... EOF`): the heredoc's lines are the file, findings placed there.

Read only where it is the one way the file gets its text: one init container's `sh -c` script names
the path once, in `cat > PATH <<DELIM` (or `cat <<DELIM > PATH`), the delimiter quoted or the body free
of `$`, backquotes and backslashes (what the shell would expand), in a volume that starts empty.
Anything else (another write, an append, a second init container, a variable in the path) leaves it
unread, as any file of a volume the manifest does not fill."""

from __future__ import annotations

import posixpath
import re

from yaml.nodes import MappingNode, ScalarNode

from ...readers.yaml_nodes import get, get_str, items
from ...readers.yaml_text import Text, scalar_text
from ...source import SourceFile

_SHELLS = ("sh", "bash", "ash", "dash")
_REDIRECT = re.compile(r"(?<![>&\d])>[ \t]*(/[^\s;&|<>'\"$`]+)")
_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_]\w*)\2")
_EXPANDED = ("$", "`", "\\")


def written_config(source: SourceFile, pod: MappingNode, volume: str, inside: str) -> Text | None:
    """The text an init container's heredoc writes to `inside` of the `emptyDir` volume `volume`;
    None unless exactly one init container mounts the volume and writes the file that way."""
    volumes = [v for v in items(get(pod, "volumes")) if get_str(v, "name") == volume]
    if len(volumes) != 1 or get(volumes[0], "emptyDir") is None:
        return None
    writers = [
        init for init in items(get(pod, "initContainers")) if any(get_str(m, "name") == volume for m in items(get(init, "volumeMounts")))
    ]
    return _written(source, writers[0], volume, inside) if len(writers) == 1 and isinstance(writers[0], MappingNode) else None


def _written(source: SourceFile, init: MappingNode, volume: str, inside: str) -> Text | None:
    mounts = [get_str(m, "mountPath") for m in items(get(init, "volumeMounts")) if get_str(m, "name") == volume]
    script = _script(source, init)
    if len(mounts) != 1 or not mounts[0] or script is None:
        return None
    path = posixpath.join(posixpath.normpath(mounts[0]), inside)
    return _heredoc(script, path) if script.value.count(path) == 1 else None


def _script(source: SourceFile, init: MappingNode) -> Text | None:
    """The script of `command: [sh, -c]` with `args: [SCRIPT]`, or `command: [sh, -c, SCRIPT]`."""
    words = [*items(get(init, "command")), *items(get(init, "args"))]
    if len(words) != 3 or not all(isinstance(word, ScalarNode) for word in words):
        return None
    shell, flag, script = words
    if posixpath.basename(str(shell.value)) not in _SHELLS or flag.value != "-c":
        return None
    return scalar_text(source.text, script)  # type: ignore[arg-type]


def _heredoc(script: Text, path: str) -> Text | None:
    """The body of the one `cat > PATH <<DELIM` of the script."""
    lines = script.value.split("\n")
    offset = 0
    for number, line in enumerate(lines):
        redirect, heredoc = _REDIRECT.search(line), _HEREDOC.search(line)
        if redirect is None or redirect.group(1) != path:
            offset += len(line) + 1
            continue
        rest = _REDIRECT.sub("", _HEREDOC.sub("", line, count=1), count=1).split()
        if heredoc is None or heredoc.group(1) or rest != ["cat"]:
            return None  # another command, an append, or `<<-` (tabs stripped)
        start = offset + len(line) + 1
        body = lines[number + 1 :]
        if heredoc.group(3) not in body:
            return None
        text = "\n".join(body[: body.index(heredoc.group(3))]) + "\n"
        if not heredoc.group(2) and any(mark in text for mark in _EXPANDED):
            return None
        return script.slice(start, start + len(text))
    return None

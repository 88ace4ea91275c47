"""go-task Taskfiles (`Taskfile.yml`, `version: '3'`): each task's commands, run by task's own
shell, one command at a time, in the Taskfile's folder.

A document is a Taskfile when it has a `version` and a `tasks` mapping. A task is a mapping with
`cmds:` (strings, or `{cmd: ...}`; `{task: ...}` calls another task, read where that task is) or
`cmd:`, or, in the short forms, one string or a list of strings. Before the shell reads a
command, task renders its Go templates: `{{.NAME}}` is the task's `vars:` value, else the file's
(taken as written, as a Makefile's variable is: `task serve CKPT=...` on the command line is not
seen here); any other template (`{{.CLI_ARGS}}`, a var computed by `sh:`, a value that is itself
a template, a pipeline) stands for words not known here. The file's and the task's `env:` are
exported; `dotenv:` files leave the environment open. A task marked `internal: true` that no
other task calls is never run.
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ...model import Launch, LaunchKind
from ...readers.yaml_nodes import STR, entries, get, get_str, items
from ...readers.yaml_text import Text, scalar_text
from ...source import ExtractContext, SourceFile
from .command_lists import interpolated
from .container_launch import Env, container_context, script_launches
from .workflows import env_map

_TEMPLATE = re.compile(r"\{\{-?\s*(.*?)\s*-?\}\}", re.DOTALL)
_VARIABLE = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)")
_INT = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"[0-9]+")


def is_taskfile(document: Node) -> bool:
    return isinstance(document, MappingNode) and get(document, "version") is not None and isinstance(get(document, "tasks"), MappingNode)


def extract(source: SourceFile, context: ExtractContext, document: Node) -> list[Launch]:
    file_vars = _vars(source, get(document, "vars"), {})
    file_env = env_map(source, get(document, "env"), Env(), "{{")
    file_env.open = file_env.open or get(document, "dotenv") is not None
    tasks = entries(get(document, "tasks"))
    called = {name for _, task in tasks for name in _calls(task)}
    launches: list[Launch] = []
    for name, task in tasks:
        if _is_true(get(task, "internal")) and name.value not in called:
            continue
        task_vars = _vars(source, get(task, "vars"), file_vars)
        env = env_map(source, get(task, "env"), file_env, "{{")
        env.open = env.open or get(task, "dotenv") is not None
        launch_context = container_context(LaunchKind.CLI, env)
        for command in _commands(task):
            text = interpolated(scalar_text(source.text, command), _TEMPLATE, lambda found, known=task_vars: _value(found, known))
            launches.extend(script_launches(source, context, launch_context, text, command.style or "", False))
    return launches


def _is_true(node: Node | None) -> bool:
    return isinstance(node, ScalarNode) and node.value.lower() == "true"


def _vars(source: SourceFile, node: Node | None, base: dict[str, Text | None]) -> dict[str, Text | None]:
    """`base` with the values of a `vars:` mapping (None: not known here)."""
    found = dict(base)
    for key, value in entries(node) if isinstance(node, MappingNode) else ():
        literal = isinstance(value, ScalarNode) and (value.tag == STR or (value.tag == _INT and _DECIMAL.fullmatch(value.value)))
        text = scalar_text(source.text, value) if literal else None  # type: ignore[arg-type]
        found[str(key.value)] = text if text is not None and "{{" not in text.value else None
    return found


def _value(found: re.Match[str], known: dict[str, Text | None]) -> Text | None:
    variable = _VARIABLE.fullmatch(found.group(1))
    return known.get(variable.group(1)) if variable is not None else None


def _commands(task: Node) -> list[ScalarNode]:
    """The shell commands of a task, in order."""
    if isinstance(task, ScalarNode):
        listed: list[Node] = [task]
    elif isinstance(task, SequenceNode):
        listed = items(task)
    else:
        cmds = get(task, "cmds")
        listed = items(cmds) if isinstance(cmds, SequenceNode) else [n for n in (get(task, "cmd"),) if n is not None]
    commands = [get(item, "cmd") if isinstance(item, MappingNode) else item for item in listed]
    return [command for command in commands if isinstance(command, ScalarNode) and command.tag == STR]


def _calls(task: Node) -> list[str]:
    """The tasks a task calls (`cmds: [{task: NAME}]`, `deps: [NAME]`)."""
    if not isinstance(task, MappingNode):
        return []
    calls = [get_str(item, "task") for item in items(get(task, "cmds"))]
    calls += [item.value if isinstance(item, ScalarNode) else get_str(item, "task") for item in items(get(task, "deps"))]
    return [name for name in calls if isinstance(name, str)]

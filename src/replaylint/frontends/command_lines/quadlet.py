"""Podman Quadlet container units (`*.container`, podman-systemd.unit(5)): the `[Container]` section
becomes a `podman run` of `Image=` with `Exec=` as the arguments after the image.

- `Exec=` is written as a systemd command line (continuations, quotes, `%` specifiers, `$$`),
  read as `systemd` reads `ExecStart=`; `${VAR}` is a variable of the unit's `[Service]`
  `Environment=`, which systemd expands before podman runs.
- The image's entrypoint runs the words: a `vllm/vllm-openai` image's is `vllm serve`, which
  stands at the `Image=` value. `Entrypoint=`, another image, or `PodmanArgs=` (any podman option,
  `--entrypoint` among them) leave the unit unread.
- `Environment=` of `[Container]` is the server's environment (`--env`); `EnvironmentFile=` makes
  it open.
"""

from __future__ import annotations

from ...model import Setting
from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile
from ...vllm.images import is_vllm_image
from .systemd import assignments, command, entries

_UNREAD = ("Entrypoint", "PodmanArgs")


def scripts(source: SourceFile) -> list[Script]:
    container_env: dict[str, Setting] = {}
    service_env: dict[str, Setting] = {}
    env_open = False
    image: tuple[str, int, int] | None = None
    exec_at: tuple[int, int] | None = None
    for section, key, start, end in entries(source.text):
        if section == "Service" and key == "Environment":
            service_env.update(assignments(source, start, end))
        if section != "Container":
            continue
        if key in _UNREAD:
            return []
        if key == "Image":
            image = (source.text[start:end].strip(), start, end)
        elif key == "Environment":
            container_env.update(assignments(source, start, end))
        elif key == "EnvironmentFile":
            env_open = True
        elif key == "Exec":
            exec_at = (start, end)
    if image is None or exec_at is None or not is_vllm_image(image[0]) or exec_at[0] < image[1]:
        return []
    words = command(source.text, exec_at[0], exec_at[1], service_env)
    if words is None:
        return []
    expanded = Expanded()
    expanded.standing_for("vllm serve ", image[1], image[2])  # the image's entrypoint
    expanded.extend(words)
    # the shell text keeps `${VAR}` for the interpreter: the `[Service]` variables `Exec=` names
    # are given to it too (systemd substitutes them before podman runs; podman passes no others)
    named = {name: setting for name, setting in service_env.items() if f"${{{name}}}" in source.text[exec_at[0] : exec_at[1]]}
    return [Script(expanded, {**named, **container_env}, env_open=env_open)]

"""The shell interpreter (tree-sitter-bash): vLLM launches in shell scripts, whether a whole file
(`frontends.shell`) or a string another frontend finds (Dockerfile `RUN`, `sh -c` in YAML,
`os.system`: `extract_script`), and fixes written back as shell words (`render`).

Commands are read in the order bash runs them (see `interpreter`), so variables, arrays,
exports, functions and branches are known where a launch needs them. Launchers and their
wrappers are in `launchers`; word expansion and spans in `words`.

What a launch carries besides its settings:
- `label`: the launcher as written (`vllm serve`, `python3 -m vllm.entrypoints.openai.api_server`,
  `docker run vllm/vllm-openai:v0.31.0`);
- `condition`: "when `[ "$DEBUG" = 1 ]`", "when not `...`", "when `...` succeeds/fails",
  "when `"$MODE"` matches `a|b`" (joined with " and ") for a variant that only some paths
  produce; None when every path gives the same replay-relevant facts. Variants share `span`;
- `env`: `VLLM_*` and `DYN_*` variables as the command sees them (UNKNOWN when a plain,
  unexported assignment may or may not reach it, or `sudo` may reset it); `env_open` when
  something we cannot read may have set any variable (`source`, `eval "$X"`, a `--env-file`
  that is not next to the script nor where replaylint runs);
- `issues`: the parser's, plus `broken-continuation` for `--flag \\  # comment`;
- `version_hint`: the image tag of `docker run`, else the last `pip install vllm==X` before it;
- `forwarded`: the script's own arguments (`"$@"`, `$*`, `"${@:2}"`, `"$1"`) the launch hands
  on and was judged without, when it names what it starts (a script file only: `script_world`);
- `assumptions`: the defaults it was built with (`${MODEL:-m}`, `: "${BACKEND:=vllm}"`,
  `${1:-vllm}`, taken when nothing the script runs sets the variable) and what rests on them.
"""

from __future__ import annotations

from typing import Callable, Mapping

from ... import command
from ...command import EnvPlace
from ...model import UNKNOWN, Edit, Fix, Launch, LaunchKind, Setting, VersionHint
from ...source import ExtractContext, SourceFile
from .grammar import parse
from .interpreter import Interpreter
from .launch import ShellHandle
from .place import Place, identity, is_plain, mapped
from .values import Chunk, Scalar
from .world import ARGUMENTS, EnvEntry, World

__all__ = ["HostEnvironment", "extract_script", "render", "run_script", "script_world"]


def run_script(interpreter: Interpreter, place: Place, world: World) -> None:
    """Runs a script from its first statement, then what the interpreter keeps for the end.
    A script nested deeper than Python's stack raises RecursionError: the engine reports the
    file as not fully analysed (RPL902) rather than keep the launches read so far."""
    worlds = interpreter.run_script(place, [world])
    interpreter.finish(worlds)


def script_world(context: ExtractContext) -> World:
    """The shell a script file starts in: its own arguments are the positional parameters (a
    launch that hands them on is judged without them, unless `forwarded-arguments = "open"`),
    and a variable nothing in it sets is taken as unset for its default (`${X:-v}`)."""
    return World(positional=ARGUMENTS if context.forwarded_arguments == "as-written" else None, assigns=frozenset())


def extract_script(
    script: str,
    source: SourceFile,
    context: ExtractContext,
    to_offset: Callable[[int], int] | None = None,
    env: Mapping[str, Setting] | None = None,
    env_places: Mapping[str, EnvPlace] | None = None,
    version_hint: VersionHint | None = None,
    kind: LaunchKind = LaunchKind.CLI,
    escape: Callable[[str], str] | None = None,
    host: HostEnvironment | None = None,
    changed: list[str] | None = None,
    pieces: tuple[list[int], list[int], list[int]] | None = None,
) -> list[Launch]:
    """The launches of a shell script embedded in another file, with spans in that file.

    - `script`: the shell text (a Dockerfile `RUN` body, the string of `sh -c` in YAML, the
      argument of `os.system`), after the host format's own unescaping.
    - `to_offset(i)`: the offset in `source.text` of script offset `i`, for every `i` from 0 to
      `len(script)` inclusive; it must not decrease. For a character the host format escapes,
      return the start of its escape sequence. None: the script is `source.text` from offset 0.
    - `env` / `env_places`: variables the container already sets (Dockerfile `ENV`, Kubernetes
      `env:`), as settings with spans, and where to edit them. They are exported variables of
      the script.
    - `version_hint`: the release evidence of the container (its image); a `pip install vllm==`
      inside the script takes precedence for the launches after it.
    - `kind`: the `LaunchKind` of the launches.
    - `escape`: how text written into the script must be escaped for the host format (a YAML
      double-quoted string escapes `"` and `\\`); None: written as is.
    - `host`: where the host keeps the world its scripts start in, grown with `env` (the many
      `RUN`s of one Dockerfile); `changed`: the names of `env` set since its last script (None:
      any may have).
    - `pieces`: `(starts, ends, regions)` of each script character, for a script put together
      from several places of the file (a make variable's value in a recipe line): a character's
      file offsets and its region, whose characters are in file order. `to_offset` still gives
      where the script starts and ends.

    Syntax errors only make the commands they touch invisible. Raises `OverBudget` (and
    RecursionError) when the file's budget (or Python's stack) runs out.
    """
    parsed = parse(script, context.budget, to_offset(0) if to_offset is not None else 0)
    if pieces is not None and to_offset is not None:
        place: Place = Place(parsed, *pieces, outer=(to_offset(0), to_offset(len(script))))
    else:
        place = mapped(parsed, to_offset) if to_offset is not None else identity(parsed)
    place.budget = context.budget
    if escape is not None:
        place.layers = (escape,)
    if host is not None:
        world = host.world(env or {}, env_places or {}, changed)
    else:
        world = World(exported=frozenset(env or ()))
        for name, setting in (env or {}).items():
            _set_env(world, name, setting, (env_places or {}).get(name))
    interpreter = Interpreter(source, context, kind, version_hint)
    run_script(interpreter, place, world)
    return interpreter.launches


def _set_env(world: World, name: str, setting: Setting, place: EnvPlace | None) -> None:
    """An exported variable the host sets: in the environment and readable by the script."""
    world.env[name] = EnvEntry(setting, place)
    if isinstance(setting.value, str):
        span = setting.value_span or setting.span
        world.variables[name] = Scalar((Chunk(setting.value, span.start, span.end, False, True, False, None),))
    elif setting.value is not UNKNOWN and setting.value is not None:
        world.variables[name] = Scalar((Chunk(str(setting.value), setting.span.start, setting.span.end, False, True, False, None),))


class HostEnvironment:
    """The variables a host format sets around its scripts (a Dockerfile's `ENV`), as the world
    the scripts start in, built up as they grow: a script after the n-th variable costs a copy of
    the world, not n new entries (a Dockerfile with an `ENV` for each step was quadratic)."""

    def __init__(self) -> None:
        self._world = World()
        self._env: dict[str, tuple[Setting, EnvPlace | None]] = {}

    def world(self, env: Mapping[str, Setting], places: Mapping[str, EnvPlace], changed: list[str] | None = None) -> World:
        if changed is None:
            if any(name not in env for name in self._env):  # a variable gone (another stage): start again
                self.__init__()
            changed = [name for name, setting in env.items() if not _same(self._env.get(name), setting, places.get(name))]
        if changed:
            world = self._world.copy(exported=self._world.exported | frozenset(changed))
            for name in changed:
                _set_env(world, name, env[name], places.get(name))
                self._env[name] = (env[name], places.get(name))
            self._world = world
        return self._world.copy()


def _same(known: tuple[Setting, EnvPlace | None] | None, setting: Setting, place: EnvPlace | None) -> bool:
    return known is not None and known[0] is setting and known[1] is place


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """`command.render`, refusing words that would need quotes inside a quoted variable value."""
    if not isinstance(launch.handle, command.CommandHandle):
        return None  # an engine a Python program builds with the script's words (`script_programs`): not written here
    edits = command.render(launch, fix, source)
    handle = launch.handle
    if edits and isinstance(handle, ShellHandle) and (handle.mixed or handle.elsewhere):
        for edit in edits:
            guarded = handle.mixed or any(start < edit.span.end and edit.span.start < end for start, end in handle.elsewhere)
            if guarded and not is_plain(edit.content.replace("\\\n", " ")):
                return None
    return edits

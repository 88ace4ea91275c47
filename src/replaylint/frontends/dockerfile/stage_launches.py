"""The launches of a stage's commands: the entrypoint plus `CMD` (exec form, or a shell
script run by `sh -c`), `RUN` commands, init wrappers (`tini --`) in front, SageMaker
entrypoints, and `--config` files found through the stage's `COPY`s.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace
from typing import Callable

from ...command import CommandHandle, EnvPlace, WordSyntax
from ...edits import Sequence
from ...frameworks.commands import command_launch
from ...launch_context import LaunchContext
from ...model import Launch, LaunchKind, Setting, VersionHint
from ...programs import split_launcher, submits_a_job
from ...records import record
from ...shells import SHELLS as SHELLS, command_string_at, is_shell  # SHELLS: for .instructions
from ...source import ExtractContext, SourceFile
from ...vllm.command_line import ConfigLoader, Token
from ...vllm.releases import Release
from .exec_form import ExecForm, Word, json_characters, json_escape, json_quote
from .lines import Instruction, Logical
from .stages import Command, Stage, trace

try:
    from ...readers.shell import HostEnvironment, extract_script
except ImportError:  # the shell interpreter is optional: shell-form commands are then skipped
    extract_script = None

try:
    from ...readers.vllm_config import config_render, load_config_tokens
except ImportError:  # without PyYAML a `--config FILE` stays unread (open-ended)
    config_render = load_config_tokens = None


_INIT_WRAPPERS = ("tini", "tini-static", "dumb-init")


class StageLaunches:
    """The launches of a stage's commands: exec-form words go to `split_launcher` and the
    command-line dispatch, shell scripts to the shell interpreter, SageMaker entrypoints to
    `frameworks.sagemaker`."""

    def __init__(self, source: SourceFile, context: ExtractContext, escape: str) -> None:
        self.source = source
        self.context = context
        # `_environment`'s, by stage and whether ARGs are passed: the names seen, the environment, and
        # the world the `RUN`s start in
        self._environments: dict[tuple[int, bool], tuple[list[str], int, dict, dict, HostEnvironment]] = {}
        self.escape = escape

    def _config_loader(self, stage: Stage) -> ConfigLoader | None:
        """`--config PATH` names a file of the image: the latest COPY that put a file there
        (perhaps from an earlier stage) says which file of the build context it is (next to the
        Dockerfile or at the root)."""
        if load_config_tokens is None:
            return None

        def load(path_text: str, token: Token) -> list[Token] | None:
            if stage.workdir is None and not path_text.startswith("/"):
                return None
            target = posixpath.normpath(posixpath.join(stage.workdir or "/", path_text))
            candidates = [path for origin, path in trace(stage, target) if origin is None]
            loaded = (load_config_tokens(c, token, self.context, self.source.path) for c in candidates)
            return next((tokens for tokens in loaded if tokens is not None), None)

        return load

    def stage_launches(self, stage: Stage) -> list[Launch]:
        entrypoint, cmd = stage.entrypoint, stage.cmd
        sagemaker = self._sagemaker(stage)
        if sagemaker is not None:
            return sagemaker
        if isinstance(entrypoint, Command):
            if entrypoint.exec_form is None:
                # A shell-form ENTRYPOINT runs its text with `sh -c`; the CMD is never seen.
                return self.script_launches(stage, entrypoint.script, with_args=False)
            return self._with_cmd(stage, [Container.of(entrypoint.exec_form)], entrypoint.instruction, cmd)
        if entrypoint.words is None:
            return self._unknown_entrypoint(stage, cmd)
        if cmd is None:
            return []
        image = [Container(tuple(Word(text, text, -1, -1) for text in entrypoint.words), None)]
        return self._with_cmd(stage, image if entrypoint.words else [], cmd.instruction, cmd)

    def _sagemaker(self, stage: Stage) -> list[Launch] | None:
        """A SageMaker entrypoint (a script it names, or a SageMaker image's own) that turns the
        `SM_VLLM_*` variables into `vllm serve` flags (`frameworks.sagemaker`)."""
        from ...frameworks import sagemaker

        entrypoint = stage.entrypoint
        program = None
        if isinstance(entrypoint, Command):
            if entrypoint.exec_form is not None:
                program = entrypoint.exec_form.words[0].text if entrypoint.exec_form.words else None
            elif entrypoint.script is not None and entrypoint.script.text.split():
                program = entrypoint.script.text.split()[0]
        variant = sagemaker.variant_for(None if isinstance(entrypoint, Command) else stage.image, program)
        if variant is None:
            return None
        env, _ = _environment(stage, with_args=False)
        if isinstance(entrypoint, Command):
            anchor = self.source.index.span(entrypoint.instruction.start, entrypoint.instruction.end)
        else:
            first = next((setting for name, setting in env.items() if name.startswith(sagemaker.PREFIX)), None)
            if first is None:
                return None
            anchor = first.span
        launch = sagemaker.launch(env, variant, anchor, "Dockerfile", stage.hint, ("ENV the base image sets",) if stage.env_open else ())
        return [] if launch is None else [launch]

    def _with_cmd(self, stage: Stage, containers: list[Container], instruction: Instruction, cmd: Command | None) -> list[Launch]:
        """An exec-form entrypoint (written or the image's) with the CMD appended."""
        if cmd is not None and cmd.exec_form is None:
            if containers:
                # An exec entrypoint receives a shell-form CMD as the words `/bin/sh -c "..."`:
                # `vllm serve /bin/sh -c ...` starts nothing anyone meant.
                return []
            return self.script_launches(stage, cmd.script, with_args=False)
        if cmd is not None and cmd.exec_form is not None:
            containers = [*containers, Container.of(cmd.exec_form)]
            instruction = cmd.instruction
        return self.exec_launches(stage, containers, instruction, with_args=False)

    def _unknown_entrypoint(self, stage: Stage, cmd: Command | None) -> list[Launch]:
        """A base image whose entrypoint we do not know. A CMD that names the launcher is taken
        as the command (such images run a wrapper that execs its arguments, or nothing); a CMD
        of flags alone is not guessed at: split_launcher finds no launcher in it."""
        if cmd is None:
            return []
        if cmd.exec_form is None:
            return self.script_launches(stage, cmd.script, with_args=False)
        return self.exec_launches(stage, [Container.of(cmd.exec_form)], cmd.instruction, with_args=False)

    def exec_launches(self, stage: Stage, containers: list[Container], instruction: Instruction, with_args: bool) -> list[Launch]:
        words = [word for container in containers for word in container.words]
        groups = [number for number, container in enumerate(containers) for _ in container.words]
        texts = [word.text for word in words]
        skipped = _init_wrapper_length(texts)
        script = command_string_at(texts[skipped:])
        if script is not None:
            return self._embedded_script_launches(stage, words[skipped + script], with_args)
        found = split_launcher(texts[skipped:])
        if found is None:
            return []
        entrypoint, after = found
        first = skipped + after
        arguments = words[first:]
        if not arguments:
            return []
        used = sorted(set(groups[first:]))
        elements = Sequence(
            tuple((word.start, word.end) for word in arguments),
            separator=",",
            groups=tuple(used.index(group) for group in groups[first:]),
            closes=tuple(containers[group].close for group in used),
        )
        index = self.source.index
        tokens = [Token(word.text, index.span(word.start, word.end), word.raw) for word in arguments]
        job = submits_a_job(texts[skipped:])  # the cluster's environment, not the image's
        env, places = ({}, {}) if job else _environment(stage, with_args)
        context = LaunchContext(
            LaunchKind.DOCKERFILE,
            env=env,
            env_places=places,
            release=_release(stage.hint),
            load_config=self._config_loader(stage),
            version_hint=stage.hint,
            label=instruction.keyword,
        )
        syntax = WordSyntax(json_quote, separator=",", continuation=f" {self.escape}")
        launch = command_launch(context, index.span(instruction.start, instruction.end), tokens, elements, syntax, entrypoint)
        if launch is None:
            return []
        if isinstance(launch.handle, CommandHandle):
            launch.handle.config_render = config_render
        return [replace(launch, env_open=stage.env_open or job)]

    def script_launches(
        self, stage: Stage, script: Logical | None, with_args: bool, escape: Callable[[str], str] | None = None
    ) -> list[Launch]:
        if extract_script is None or script is None or not script.text.strip() or not _is_posix_shell(stage.shell):
            return []
        env, places, changed, host = self._environment(stage, with_args)
        launches = extract_script(
            script.text,
            self.source,
            self.context,
            to_offset=script.offset,
            env=env,
            env_places=places,
            version_hint=stage.hint,
            kind=LaunchKind.DOCKERFILE,
            escape=escape,
            host=host,
            changed=changed,
        )
        return [replace(launch, env_open=launch.env_open or stage.env_open) for launch in launches]

    def _environment(
        self, stage: Stage, with_args: bool
    ) -> tuple[dict[str, Setting], dict[str, EnvPlace], list[str] | None, HostEnvironment]:
        """`_environment`, kept up to date with the names the stage's ENV and ARG wrote since the
        last `RUN` (None: all may have changed), and the world the `RUN`s start in: each `RUN` of
        a long stage costs what changed."""
        key = (id(stage.written), with_args)
        known = self._environments.get(key)
        if known is None or known[0] is not stage.written or not self._appends(stage, with_args, known):
            settings, places = _environment(stage, with_args)
            host = known[4] if known is not None else HostEnvironment()  # it finds what changed itself
            self._environments[key] = (stage.written, len(stage.written), settings, places, host)
            return settings, places, None, host
        _, seen, settings, places, host = known
        changed = stage.written[seen:]
        for name in changed:
            variable = stage.env.get(name) or stage.args[name]
            settings[name], places[name] = variable.setting, variable.place
        self._environments[key] = (stage.written, len(stage.written), settings, places, host)
        return settings, places, changed, host

    @staticmethod
    def _appends(stage: Stage, with_args: bool, known: tuple) -> bool:
        """Whether the names written since keep `_environment`'s order when added at the end:
        an ARG new to it goes before the ENVs there, and one that is not passed stays out."""
        _, seen, settings, _, _ = known
        return all(name in stage.env or (with_args and name not in settings and not stage.env) for name in stage.written[seen:])

    def _embedded_script_launches(self, stage: Stage, word: Word, with_args: bool) -> list[Launch]:
        """`["/bin/sh", "-c", "vllm serve ..."]`: the JSON string is a shell script."""
        if word.literal is None:
            return []
        return self.script_launches(stage, json_characters(word.literal), with_args, escape=json_escape)


@record(unsafe_hash=True)
class Container:
    """The words of one JSON array (or of the image's entrypoint), and where it closes."""

    words: tuple[Word, ...]
    close: int | None

    @classmethod
    def of(cls, exec_form: ExecForm) -> Container:
        return cls(exec_form.words, exec_form.close)


def _init_wrapper_length(words: list[str]) -> int:
    """`tini --`, `dumb-init` in front of the real command."""
    if not words or words[0].rstrip("/").rsplit("/", 1)[-1] not in _INIT_WRAPPERS:
        return 0
    position = 1
    while position < len(words) and words[position].startswith("-"):
        position += 1
        if words[position - 1] == "--":
            break
    return position


def _is_posix_shell(shell: tuple[str, ...]) -> bool:
    return bool(shell) and is_shell(shell[0])


def _environment(stage: Stage, with_args: bool) -> tuple[dict[str, Setting], dict[str, EnvPlace]]:
    variables = {**(stage.args if with_args else {}), **stage.env}
    settings = {name: variable.setting for name, variable in variables.items()}
    places = {name: variable.place for name, variable in variables.items()}
    return settings, places


def _release(hint: VersionHint | None) -> Release | None:
    return Release.parse(hint.releases[-1]) if hint is not None and hint.releases else None

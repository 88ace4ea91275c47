"""The instructions a stage is built from, in order: `FROM` (a stage or an image, whose
entrypoint it inherits), `ARG`, `ENV`, `CMD`, `ENTRYPOINT`, `SHELL`, `WORKDIR`, `COPY`/`ADD`
and `RUN` (its `pip install vllm==X` pins and the launches its command starts). Each stage no
later stage builds on can be the image, so its command is a launch (`launches`).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace

from ...command import EnvPlace
from ...edits import Sequence, remove
from ...model import UNKNOWN, Launch, Setting, Span, VersionHint
from ...shells import command_string_at
from ...source import ExtractContext, ParseError, SourceFile
from ...vllm.images import is_vllm_image, release_from_image, release_from_pin
from .exec_form import ExecForm, Word, docker_quoter, json_characters, read_exec_form
from .installs import Installs, Packaging, script_commands, split_command
from .lines import HEREDOC_WORD, Dockerfile, Heredoc, Instruction, Logical, without_flags
from .sites import copied_installs, copied_venvs, visible_plugins
from .stage_launches import SHELLS, Container, StageLaunches
from .stages import NO_ENTRYPOINT, SERVE_IMAGE, UNKNOWN_IMAGE, Command, Copy, Stage, Variable
from .variables import UNKNOWN_PART, Lookup, Pair, ValueTooLong, expand, read_pairs

_PIP_INSTALL = re.compile(
    r"(?:^|[\s;&|(])(?:\S*/)?(?:uv\s+pip|pip3?(?:\.\d+)?|python3?(?:\.\d+)?\s+-m\s+pip)\s+install\b(?P<args>[^;&|\n]*)"
)
_SEARCH_PATHS = ("PATH", "PYTHONPATH")
_PIP_WORD = re.compile(r"""(?:(?<=\s)|^)(['"]?)(vllm(?:\[[^\]\s]*\])?==[^\s'";&|]+)\1""")


class Extractor:
    def __init__(self, source: SourceFile, context: ExtractContext, dockerfile: Dockerfile) -> None:
        self.source = source
        self.context = context
        self.escape = dockerfile.escape
        self.instructions = dockerfile.instructions
        self.global_args: dict[str, Variable] = {}
        self.stages: list[Stage] = []
        self.named: dict[str, Stage] = {}  # the last stage of each name (`FROM base AS name`)
        self.launches: list[Launch] = []
        self.commands = StageLaunches(source, context, dockerfile.escape)
        self.installs = Installs(source, context)

    def run(self) -> list[Launch]:
        handlers = {
            "FROM": self._from,
            "ARG": self._arg,
            "ENV": self._env,
            "CMD": self._cmd,
            "ENTRYPOINT": self._entrypoint,
            "SHELL": self._shell,
            "RUN": self._run,
            "WORKDIR": self._workdir,
            "COPY": self._copy,
            "ADD": self._copy,
            "USER": self._user,
        }
        for instruction in self.instructions:
            handler = handlers.get(instruction.keyword)
            if handler is not None and (self.stages or instruction.keyword in ("FROM", "ARG")):
                handler(instruction)
        for stage in self.stages:
            if not stage.built_on:
                self.launches.extend(_with_plugins(stage, self.commands.stage_launches(stage)))
        return sorted(self.launches, key=lambda launch: launch.span.start)

    @property
    def stage(self) -> Stage:
        return self.stages[-1]

    def _global(self, name: str) -> str | None:
        variable = self.global_args.get(name)
        return None if variable is None else variable.value

    def _line(self, instruction: Instruction) -> int:
        return self.source.index.position(instruction.start)[0]

    def _expand(self, text: str, lookup: Lookup, offset: int) -> str:
        """`expand`, its value charged to the file's budget (a character a unit: the value is
        kept); a value too long is unknown, and the file is not fully analysed (RPL902)."""
        try:
            value = expand(text, self.escape, lookup)
        except ValueTooLong as error:
            self.context.not_entered(str(error), offset)
            return UNKNOWN_PART
        self.context.budget.charge(len(value), offset)
        return value

    # FROM

    def _from(self, instruction: Instruction) -> None:
        _, rest = without_flags(instruction.args)
        words = rest.text.split()
        if not words:
            return
        name = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else None
        image = self._expand(words[0], self._global, rest.offset(0))
        base = self.named.get(image.lower())
        if base is not None:
            base.built_on = True
            self.stages.append(base.child(name))
        else:
            start = rest.offset(0)
            self.stages.append(self._image_stage(name, image, self.source.index.span(start, start + len(words[0]))))
        if name is not None:
            self.named[name] = self.stages[-1]

    def _image_stage(self, name: str | None, image: str, span: Span) -> Stage:
        if image == "scratch":
            return Stage(name, NO_ENTRYPOINT)
        repository = _repository(image)
        tag_known = UNKNOWN_PART not in image
        if repository is not None and is_vllm_image(image if tag_known else repository, tag_known):
            stage = Stage(name, SERVE_IMAGE)
        else:
            stage = Stage(name, UNKNOWN_IMAGE, env_open=True)
        release = release_from_image(image) if UNKNOWN_PART not in image else None
        if release is not None:
            stage.hint = VersionHint((str(release),), f"image {image}", span)
        stage.image = image
        return stage

    # ARG, ENV

    def _arg(self, instruction: Instruction) -> None:
        scope = self.stage.args if self.stages else self.global_args
        lookup = self.stage.lookup() if self.stages else self._global
        pairs = read_pairs(instruction, self.escape)
        for position, pair in enumerate(pairs):
            if pair.value is None:
                value = self._global(pair.name) if self.stages else None
            else:
                value = self._expand(pair.value, lookup, pair.value_start)
            scope[pair.name] = self._variable(instruction, pairs, position, value)
            if self.stages:
                self.stage.written.append(pair.name)

    def _env(self, instruction: Instruction) -> None:
        lookup = self.stage.lookup()
        pairs = read_pairs(instruction, self.escape)
        values = [self._expand(pair.value or "", lookup, pair.value_start) for pair in pairs]
        for position, (pair, value) in enumerate(zip(pairs, values)):
            self.stage.env[pair.name] = self._variable(instruction, pairs, position, value)
            self.stage.written.append(pair.name)
            if pair.name in _SEARCH_PATHS:
                self.stage.search_paths[pair.name] = tuple(entry for entry in value.split(":") if entry and UNKNOWN_PART not in entry)

    def _variable(self, instruction: Instruction, pairs: list[Pair], position: int, value: str | None) -> Variable:
        index = self.source.index
        pair = pairs[position]
        known = None if value is None or UNKNOWN_PART in value else value
        value_span = index.span(pair.value_start, pair.value_end) if pair.value is not None else None
        setting = Setting(pair.name, UNKNOWN if known is None else known, index.span(pair.start, pair.end), pair.raw, value_span)
        place = EnvPlace(self._pair_removal(instruction, pairs, position), value_span, docker_quoter(self.escape))
        return Variable(known, setting, place)

    def _pair_removal(self, instruction: Instruction, pairs: list[Pair], position: int) -> Span:
        """One pair of several goes with one separator; the only pair takes its instruction."""
        if len(pairs) == 1:
            return self._instruction_lines(instruction)
        sequence = Sequence(tuple((pair.start, pair.end) for pair in pairs), separator=" ")
        return remove(self.source.index, sequence, {position})[0].span

    def _instruction_lines(self, instruction: Instruction) -> Span:
        text = self.source.text
        start = text.rfind("\n", 0, instruction.start) + 1
        newline = text.find("\n", instruction.end)
        return self.source.index.span(start, len(text) if newline == -1 else newline + 1)

    # CMD, ENTRYPOINT, SHELL

    def _command(self, instruction: Instruction) -> Command:
        flags, rest = without_flags(instruction.args)
        if flags:
            name = flags[0][2:].partition("=")[0]
            col = self.source.index.position(instruction.start)[1]
            raise ParseError(
                f"{instruction.keyword}: unknown flag: {name} (Docker reads the leading `--` words of an instruction as its own "
                f'flags; write the arguments in exec form, {instruction.keyword} ["{flags[0]}", ...])',
                self._line(instruction),
                col,
            )
        exec_form = read_exec_form(rest, self._line(instruction))
        return Command(instruction, exec_form, None if exec_form is not None else rest)

    def _cmd(self, instruction: Instruction) -> None:
        self.stage.cmd = self._command(instruction)
        self.stage.cmd_set = True

    def _entrypoint(self, instruction: Instruction) -> None:
        command_ = self._command(instruction)
        if command_.exec_form is not None and not command_.exec_form.words:
            self.stage.entrypoint = NO_ENTRYPOINT
        else:
            self.stage.entrypoint = command_
        if not self.stage.cmd_set:
            self.stage.cmd = None

    def _shell(self, instruction: Instruction) -> None:
        exec_form = read_exec_form(instruction.args, self._line(instruction))
        if exec_form is not None and exec_form.words:
            self.stage.shell = tuple(word.text for word in exec_form.words)

    # WORKDIR, COPY, ADD: where a `--config FILE` of the command comes from

    def _workdir(self, instruction: Instruction) -> None:
        path = self._expand(instruction.args.text, self.stage.lookup(), instruction.args.offset(0))
        current = self.stage.workdir
        if UNKNOWN_PART in path or current is None:
            self.stage.workdir = None
        else:
            self.stage.workdir = posixpath.normpath(posixpath.join(current, path))

    def _user(self, instruction: Instruction) -> None:
        """`USER name[:group]`: whose home `pip install --user` writes to and Python reads."""
        user = self._expand(instruction.args.text.strip(), self.stage.lookup(), instruction.args.offset(0)).split(":")[0]
        self.stage.user = None if UNKNOWN_PART in user or not user else user

    def _copy(self, instruction: Instruction) -> None:
        flags, rest = without_flags(instruction.args)
        if instruction.heredocs:
            return
        origin = next((flag.partition("=")[2] for flag in flags if flag.startswith("--from=")), None)
        exec_form = read_exec_form(rest, self._line(instruction))
        raw = [word.text for word in exec_form.words] if exec_form is not None else rest.text.split()
        words = [self._expand(word, self.stage.lookup(), rest.offset(0)) for word in raw]
        if len(words) < 2 or any(UNKNOWN_PART in word for word in words):
            return
        *sources, destination = words
        if not destination.startswith("/"):
            if self.stage.workdir is None:
                return
            destination = posixpath.join(self.stage.workdir, destination)
        into_directory = destination.endswith("/") or len(sources) > 1
        if origin is None:
            local = tuple(source for source in sources if "://" not in source)
            self.stage.copies = (*self.stage.copies, Copy(local, posixpath.normpath(destination), into_directory))
            return
        stage = self._stage_named(origin)
        absolute = tuple(posixpath.normpath(posixpath.join("/", source)) for source in sources)
        copy = Copy(absolute, posixpath.normpath(destination), into_directory, stage, known=stage is not None)
        self.stage.copies = (*self.stage.copies, copy)
        how = f"copied by {self.source.path}:{self._line(instruction)} `COPY --from={origin} {' '.join(raw)}`"
        self.stage.installs = (*self.stage.installs, *copied_installs(copy, how))
        self.stage.venvs = (*self.stage.venvs, *copied_venvs(copy))

    def _stage_named(self, name: str) -> Stage | None:
        """The earlier stage `COPY --from=` names (its name, or its number); None for an image or
        a name with a variable in it (Docker does not substitute ARGs there either)."""
        if "$" in name:
            return None
        if name.isdigit():
            return self.stages[int(name)] if int(name) < len(self.stages) - 1 else None
        stage = self.named.get(name.lower())
        return stage if stage is not None and stage is not self.stage else None

    # RUN

    def _run(self, instruction: Instruction) -> None:
        flags, rest = without_flags(instruction.args)
        exec_form = read_exec_form(rest, self._line(instruction))
        copies = self.stage.copies
        self.stage.copies = (*copies, *filter(None, map(self._mount, flags)))  # for this RUN only
        try:
            self._run_command(instruction, rest, exec_form)
        finally:
            self.stage.copies = copies

    def _mount(self, flag: str) -> Copy | None:
        """`--mount=type=bind,from=build,source=/wheels,target=/mnt` as a COPY for the RUN's
        time; a cache, tmpfs or secret mount hides what was at its target."""
        if not flag.startswith("--mount="):
            return None
        options = dict(part.partition("=")[::2] for part in flag[len("--mount=") :].split(","))
        target = options.get("target") or options.get("dst") or options.get("destination")
        if not target or "$" in target:
            return None
        target = posixpath.normpath(posixpath.join(self.stage.workdir or "/", target))
        source = options.get("source") or options.get("src") or ""
        if options.get("type", "bind") != "bind" or "$" in source:
            return Copy((), target, False, known=False)
        origin = options.get("from")
        if origin is None:
            return Copy((posixpath.normpath(source or "."),), target, False)
        stage = self._stage_named(origin)
        return Copy((posixpath.normpath(posixpath.join("/", source)),), target, False, stage, known=stage is not None)

    def _run_command(self, instruction: Instruction, rest: Logical, exec_form: ExecForm | None) -> None:
        if exec_form is not None:
            self._note_exec_packaging(list(exec_form.words))
            self.launches.extend(
                _with_plugins(self.stage, self.commands.exec_launches(self.stage, [Container.of(exec_form)], instruction, with_args=True))
            )
            return
        script = _run_script(rest, instruction.heredocs)
        if script is None:
            return
        self._note_pins(script)
        self._note_packaging(script)
        self.launches.extend(_with_plugins(self.stage, self.commands.script_launches(self.stage, script, with_args=True)))

    def _note_pins(self, script: Logical) -> None:
        lookup = self.stage.lookup()
        for install in _PIP_INSTALL.finditer(script.text):
            for pin in _PIP_WORD.finditer(script.text, install.start("args"), install.end("args")):
                requirement = self._expand(pin.group(2), lookup, script.source_range(*pin.span(2))[0])
                release = release_from_pin(requirement) if UNKNOWN_PART not in requirement else None
                if release is not None:
                    span = self.source.index.span(*script.source_range(*pin.span(2)))
                    self.stage.hint = VersionHint((str(release),), f"pip install {requirement}", span)

    def _note_packaging(self, script: Logical) -> None:
        """The packaging commands of a shell script (`pip install`, `pip wheel`, `uv build`):
        their words substituted as the shell would with the stage's ARGs and ENVs."""
        lookup = self.stage.lookup()
        for words, bounds, start in script_commands(script.text):
            found = split_command(words)
            if found is None:
                continue
            verb, program, first = found
            values = tuple(self._expand(word, lookup, script.offset(bound[0])) for word, bound in zip(words, bounds))
            span = self.source.index.span(*script.source_range(bounds[program][0], bounds[-1][1]))
            command = Packaging(verb, tuple(words[program:first]), values[first:], span, script.text[:start])
            self.installs.run(self.stage, command)

    def _note_exec_packaging(self, words: list[Word]) -> None:
        """An exec-form `RUN ["pip", "install", "./ban"]`: its words are passed on as written
        (a `$` in one is no substitution, so it cannot be known); `["sh", "-c", "..."]` runs a script."""
        texts = [word.text for word in words]
        script = command_string_at(texts)
        if script is not None and words[script].literal is not None:
            self._note_packaging(json_characters(words[script].literal))
            return
        found = split_command(texts)
        if found is None:
            return
        verb, program, first = found
        values = tuple(UNKNOWN_PART if "$" in text else text for text in texts[first:])
        span = self.source.index.span(words[program].start, words[-1].end)
        self.installs.run(self.stage, Packaging(verb, tuple(texts[program:first]), values, span))


def _with_plugins(stage: Stage, launches: list[Launch]) -> list[Launch]:
    """The launches of a stage, with the plugins its installs put where its Python reads them."""
    plugins = visible_plugins(stage)
    return [replace(launch, plugins=plugins) for launch in launches] if plugins else launches


def _repository(image: str) -> str | None:
    """The image name without tag or digest, when the name itself is known."""
    name = image.split("@", 1)[0]
    slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > slash:
        name = name[:colon]
    return None if UNKNOWN_PART in name else name


def _run_script(rest: Logical, heredocs: tuple[Heredoc, ...]) -> Logical | None:
    """The text `RUN` gives the shell: the line, or a lone heredoc's body as the script."""
    if not heredocs:
        return rest
    if len(heredocs) == 1 and HEREDOC_WORD.match(rest.text.strip()):
        body = heredocs[0].body
        first_line = body.text.split("\n", 1)[0]
        if first_line.startswith("#!") and not any(first_line.rstrip().endswith(shell) for shell in SHELLS):
            return None
        return body
    pieces = [rest, *(part for heredoc in heredocs for part in (_newline(heredoc.body), heredoc.body, heredoc.terminator))]
    return _concat(pieces)


def _newline(body: Logical) -> Logical:
    """The line break before a heredoc body (Docker joins the instruction's lines first)."""
    return Logical("\n", (body.offset(0),), body.offset(0))


def _concat(parts: list[Logical]) -> Logical:
    return Logical("".join(part.text for part in parts), tuple(o for part in parts for o in part.offsets), parts[-1].end)

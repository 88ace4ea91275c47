"""Dockerfile frontend: the command each image starts, and `vllm serve` inside `RUN`.

Docker's own reading is followed (moby/buildkit `frontend/dockerfile/parser`, `instructions`
and `dockerfile2llb` dispatchers):

- Lines: parser directives (`# syntax=`, `# escape=`, `# check=`) count only at the top; the
  escape character (`\\`, or `` ` `` after `# escape=``) at the end of a line continues the
  instruction, and comment lines and blank lines inside a continued instruction are dropped;
  `#` starts a comment only at the start of a line. Heredocs (`RUN <<EOF`, `<<-EOF`, quoted
  names, several per line) take their lines along.
- Exec form: the arguments are a JSON array of strings, possibly over continued lines; any other
  text is shell form and runs as `SHELL` + text (`/bin/sh -c "..."`).
- Leading `--words` are Docker's own instruction flags (`RUN --mount=...`). `CMD` and
  `ENTRYPOINT` have none, so `CMD --model x` is an "unknown flag" error of `docker build`.
- Stages: `FROM image AS name`; `FROM name` starts from an earlier stage and keeps its ENV,
  entrypoint, command, shell and vLLM release. `ARG`s live in their stage and reach `RUN`
  only (global ARGs reach `FROM` lines and `ARG NAME` redeclarations); `ENV` stays in the
  image. Variables are substituted in `FROM`/`ARG`/`ENV` as Docker does (`$V`, `${V:-w}` ...);
  exec-form words are passed on literally. A variable we cannot know (an ARG without default,
  one the base image may set) makes the value unknown.
- The image's command is its last `ENTRYPOINT` plus its last `CMD`; an `ENTRYPOINT` drops the
  `CMD` inherited from the base. `vllm/vllm-openai` has `ENTRYPOINT ["vllm", "serve"]`, so its
  `CMD` holds arguments only. Every stage that no later stage builds on can be the image
  (`docker build --target`), so each one's command is a launch.

Why not the tree-sitter-dockerfile grammar (0.2.0 on tree-sitter 0.26): it reads line
continuations, exec-form JSON over continued lines, comment lines inside them, heredocs (also
`<<-"EOF"` and several per line) and `# syntax=` (a plain comment) as Docker does, but it
cannot represent several forms Docker accepts, and its error recovery then folds the rest of
the file into one ERROR node, so every launch below is lost (or the file would be reported
unparsable): the legacy `ENV TORCH_CUDA_ARCH_LIST 8.0 9.0` (a value with spaces, common in ML
images), `ARG A=1 B`, the `# escape=`` directive (backtick continuations are not known), a
bracket that is not JSON (`CMD ['a']`, shell form for Docker), and a file without a final
newline (a MISSING node). Docker's line reader is small, so it is followed here directly.
"""

from __future__ import annotations

import bisect
import functools

from ... import command
from ...edits import apply_edits
from ...model import Edit, Fix, Launch
from ...source import ExtractContext, ParseError, SourceFile
from .instructions import Extractor
from .lines import Instruction, is_json_array, read_dockerfile, without_flags

try:
    from ...readers.shell import render as _render
except ImportError:  # the shell interpreter is optional: shell-form commands are then skipped
    _render = command.render


def parses(text: str) -> bool:
    try:
        read_dockerfile(text)
    except ParseError:
        return False
    return True


def extract(source: SourceFile, context: ExtractContext) -> list[Launch]:
    context.budget.charge(len(source.text))  # Docker's line reader: about a character a microsecond
    dockerfile = read_dockerfile(source.text)
    return Extractor(source, context, dockerfile).run()


# -- fixes -----------------------------------------------------------------------------------------


def render(launch: Launch, fix: Fix, source: SourceFile) -> list[Edit] | None:
    """The shell interpreter's rendering (it is `command.render` for exec-form launches), kept
    only when the file still holds the same instructions afterwards."""
    edits = _render(launch, fix, source)
    if not edits:
        return edits
    local = [edit for edit in edits if edit.span.path == source.path]
    return edits if not local or _keeps_instructions(source.text, local) else None


def _shape(instructions: tuple[Instruction, ...]) -> list[tuple[str, bool]]:
    return [(instruction.keyword, is_json_array(without_flags(instruction.args)[1].text)) for instruction in instructions]


def _keeps_instructions(text: str, edits: list[Edit]) -> bool:
    """A fix leaves the instructions it does not delete, in the same forms (a lost line
    continuation would split one instruction into two).

    Only the instructions around the edits can change, so only they are read again: from the
    instruction before the first edit to the one after the last, behind the file's directives.
    A file of n launches is then fixed in time linear in n, not n times the file."""
    before, starts = _instructions(text)
    if not before or min(e.span.start for e in edits) < before[0].start:
        return _keeps_all(text, edits, before)
    first = max(0, _index_at(starts, min(e.span.start for e in edits)) - 1)
    last = min(len(before) - 1, _index_at(starts, max(e.span.end for e in edits)) + 1)
    start, end = text.rfind("\n", 0, before[first].start) + 1, before[last].end
    if max(e.span.end for e in edits) > end:
        return _keeps_all(text, edits, before)
    fixed, _ = apply_edits(text, edits)
    window = fixed[: before[0].start] + fixed[max(start, before[0].start) : end + len(fixed) - len(text)]
    return _same_shape(window, _kept(before[first : last + 1], edits))


def _keeps_all(text: str, edits: list[Edit], before: tuple[Instruction, ...]) -> bool:
    fixed, _ = apply_edits(text, edits)
    return _same_shape(fixed, _kept(before, edits))


def _kept(instructions: tuple[Instruction, ...], edits: list[Edit]) -> tuple[Instruction, ...]:
    deleted = [e.span for e in edits if not e.content]
    return tuple(i for i in instructions if not any(span.start <= i.start and i.end <= span.end for span in deleted))


def _same_shape(fixed: str, kept: tuple[Instruction, ...]) -> bool:
    try:
        return _shape(read_dockerfile(fixed).instructions) == _shape(kept)
    except ParseError:
        return False


def _index_at(starts: list[int], offset: int) -> int:
    """The last instruction that starts at or before `offset`."""
    return max(0, bisect.bisect_right(starts, offset) - 1)


@functools.lru_cache(maxsize=2)
def _instructions(text: str) -> tuple[tuple[Instruction, ...], list[int]]:
    """The instructions of a file's text and where they start, read once for all the fixes
    rendered into it."""
    instructions = read_dockerfile(text).instructions
    return instructions, [instruction.start for instruction in instructions]

"""Command lines that Python hands to another process: `subprocess.run(["vllm", "serve", ...])`.

Word lists are list/tuple literals of strings, names bound to them (also grown by `+=`,
`.extend(...)` and `.append(...)` before the call), `*other` inside a literal, `a + b`, and
`shlex.split("...")`. Strings run by a shell (`os.system`, `os.popen`, `shell=True`,
`asyncio.create_subprocess_shell`, the string of `["sh", "-c", ...]`; a literal, an f-string or a
name bound to one) go through the shell interpreter; `" ".join(cmd)` of words the shell keeps whole
is read as the list, an f-string's `{...}` as an unknown
expansion. `env={...}` (or the environment argument of `os.execve`, `os.execle`...) supplies the
runner variable; without one the child inherits `os.environ` as written before the call.
`--config FILE.yaml` is read next to the file.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import Callable, Iterator

import libcst as cst

from ...command import CommandHandle, EnvPlace, WordSyntax
from ...edits import Sequence, remove
from ...frameworks.commands import command_launch
from ...launch_context import LaunchContext
from ...model import UNKNOWN, Launch, LaunchKind, Setting, Span
from ...programs import split_launcher, submits_a_job
from ...records import record
from ...shells import command_string_at
from ...vllm.command_line import Token
from ...vllm.engine_fields import RUNNER_ENV
from .collect import ARGV_LIST_CALLS, ARGV_SPREAD_CALLS, SHELL_CALLS, Collector
from .environ_copies import copied_environ
from .scopes import Scope
from .static_values import Evaluator
from .strings import ShellString, decoded_script, joined_words, python_quote, shell_safe

# Calls that take the child's whole environment at this position (None: the last argument).
_ENV_ARGUMENTS = {
    **{f"os.{name}": 2 for name in ("execve", "execvpe")},
    **{f"os.{name}": 3 for name in ("spawnve", "spawnvpe")},
    **{f"os.{name}": None for name in ("execle", "execlpe", "spawnle", "spawnlpe")},
}
_MAX_DEPTH = 8


@record
class ArgvHandle(CommandHandle):
    """`command.render`'s handle, plus the words given alone to `.append(...)`: removing one
    would leave `cmd.append()`."""

    appended: frozenset[Span] = frozenset()


@record
class _Word:
    token: Token
    group: int
    close: int | None
    appended: bool = False  # the sole argument of `.append(...)`
    node: cst.BaseExpression | None = None  # the expression it was read from, when it is one


def _config_render() -> Callable | None:
    try:
        from ...readers.vllm_config import config_render
    except ImportError:
        return None
    return config_render


class ArgvLaunches:
    """Builds launches for the process-spawning calls one `Collector` saw."""

    def __init__(self, collector: Collector, evaluator: Evaluator) -> None:
        self.collector = collector
        self.evaluator = evaluator
        self.groups: dict[int, int] = {}
        self.leads: dict[int, int] = {}  # group: end of the `*X` before its first word
        self.wholes: dict[int, tuple[int, int]] = {}  # group: what goes when all its words go

    def build(self) -> Iterator[Launch]:
        for call, names, scope in self.collector.spawn_calls:
            if names & set(SHELL_CALLS) or self._shell_true(call):
                yield from self._shell_launches(call, names, scope)
                continue
            words = self._call_words(call, names, scope, self.collector.span(call).start)
            script = command_string_at([word.token.text for word in words])
            if script is not None:  # `["bash", "-c", "vllm serve ..."]`
                yield from self._script_launches(call, names, scope, words[script].node)
                continue
            launch = self._launch(call, names, scope, words)
            if launch is not None:
                yield launch

    # -- words -------------------------------------------------------------------------------

    def _group(self, node: cst.CSTNode) -> int:
        return self.groups.setdefault(id(node), len(self.groups))

    def _unknown(self, node: cst.CSTNode, spread: bool) -> _Word:
        span = self.collector.span(node)
        return _Word(Token(None, span, self.collector.text(span), spread=spread), self._group(node), None)

    def _word(self, node: cst.BaseExpression, scope: Scope | None, group: int, close: int | None) -> _Word:
        span = self.collector.span(node)
        raw = self.collector.text(span)
        value, keys = self.evaluator.evaluate(node, scope)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return _Word(Token(None, span, raw), group, close, node=node)
        return _Word(Token(str(value), span, raw, keys=keys if isinstance(value, str) else {}), group, close, node=node)

    def words(self, node: cst.BaseExpression, scope: Scope | None, before: int, depth: int = 0) -> list[_Word]:
        """The words a list expression holds; an unreadable part becomes one spread word."""
        if depth > _MAX_DEPTH:
            return [self._unknown(node, spread=True)]
        if isinstance(node, (cst.List, cst.Tuple)):
            group = self._group(node)
            close = self.collector.span(node).end - 1
            found: list[_Word] = []
            for element in node.elements:
                if isinstance(element, cst.StarredElement):
                    found.extend(self.words(element.value, scope, before, depth + 1))
                    if not any(word.group == group for word in found):
                        self.leads[group] = self.collector.span(element).end
                else:
                    found.append(self._word(element.value, scope, group, close))
            return found
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            if isinstance(node.right, (cst.List, cst.Tuple)):  # `BASE + ["--x"]`: ` + [...]` goes with its words
                self.wholes[self._group(node.right)] = (self.collector.span(node.left).end, self.collector.span(node.right).end)
            return self.words(node.left, scope, before, depth + 1) + self.words(node.right, scope, before, depth + 1)
        if isinstance(node, cst.Name) and scope is not None:
            return self._named_words(node, scope, before, depth)
        if _copy_of_list(node):  # `list(BASE)`, `tuple(BASE)`, `BASE.copy()`
            inner = node.args[0].value if node.args else node.func.value  # type: ignore[attr-defined]
            return self.words(inner, scope, before, depth + 1)
        returned = self.collector.returned(node, scope) if isinstance(node, cst.Call) and scope is not None else None
        if returned is not None:  # `build_command(args)`: the list its `return` gives, as it stands there
            value, inner, statement = returned
            return self.words(value, inner, statement.start, depth + 1)
        split = self._split_call(node, scope)
        return split if split is not None else [self._unknown(node, spread=True)]

    def _named_words(self, node: cst.Name, scope: Scope, before: int, depth: int) -> list[_Word]:
        bound = self.evaluator.resolve_name(node.value, scope, ignore_augmented=True)
        if bound is None:
            return [self._unknown(node, spread=True)]
        found = self.words(bound, scope, before, depth + 1)
        for statement, kind, argument in self.collector.list_growth.get((id(scope), node.value), ()):
            if statement.start >= before:
                continue
            if kind == "append":
                group = self._group(argument)
                found.append(replace(self._word(argument, scope, group, None), appended=True))
            else:
                removal = self.collector.statement_removal(statement)
                if isinstance(argument, (cst.List, cst.Tuple)) and removal != statement:
                    # `cmd += [...]` alone on its lines: the lines go with its words
                    self.wholes[self._group(argument)] = (removal.start, removal.end)
                found.extend(self.words(argument, scope, before, depth + 1))
        return found

    def _split_call(self, node: cst.BaseExpression, scope: Scope | None) -> list[_Word] | None:
        """`shlex.split("...")` and `"...".split()`: words inside one string literal."""
        if not isinstance(node, cst.Call):
            return None
        if "shlex.split" in self.collector.qualified(node.func, scope) and node.args:
            target, posix = node.args[0].value, True
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value == "split" and not node.args:
            target, posix = node.func.value, False
        else:
            return None
        value, _ = self.evaluator.evaluate(target, scope)
        if not isinstance(value, str):
            return [self._unknown(node, spread=True)]
        try:
            parts = shlex.split(value) if posix else value.split()
        except ValueError:
            return [self._unknown(node, spread=True)]
        span = self.collector.span(target)
        group = self._group(target)
        # Each word points at the whole string: the literal is edited as one piece.
        return [_Word(Token(part, span, part), group, None) for part in parts]

    # -- launches ----------------------------------------------------------------------------

    def _launch(self, call: cst.Call, names: set[str], scope: Scope | None, words: list[_Word]) -> Launch | None:
        call_span = self.collector.span(call)
        if not words:
            return None
        found = split_launcher([w.token.text for w in words], python_unknown_first=True)
        if found is None:
            return None
        entrypoint, after = found
        args = words[after:]
        tokens = [w.token for w in args]
        editable = len({t.span for t in tokens}) == len(tokens)  # shlex.split words share one span
        groups = {}
        for word in words:
            groups.setdefault(word.group, word.close)
        group_ids = list(groups)
        elements = Sequence(
            tuple((t.span.start, t.span.end) for t in tokens),
            separator=",",
            groups=tuple(group_ids.index(w.group) for w in args),
            closes=tuple(groups.values()),
            leads=tuple(self.leads.get(group) for group in group_ids),
            wholes=tuple(self.wholes.get(group) for group in group_ids),
        )
        quote = next(
            (self.collector.source.text[w.token.span.start] for w in words if self.collector.source.text[w.token.span.start] in "'\""), '"'
        )
        env, places, env_open = self._env(call, names, scope, call_span)
        if submits_a_job([w.token.text for w in words]):  # the cluster's environment, not the call's
            env, places, env_open = {}, {}, True
        label = self.collector.text(self.collector.span(call.func))
        context = LaunchContext(LaunchKind.CLI, env=env, env_places=places, load_config=self._config_loader(), label=f"{label}(...)")
        launch = command_launch(context, call_span, tokens, elements, WordSyntax(python_quote(quote), separator=","), entrypoint)
        if launch is None:
            return None
        handle = launch.handle
        if isinstance(handle, CommandHandle) and type(handle) is CommandHandle:
            appended = frozenset(w.token.span for w in args if w.appended)
            handle = ArgvHandle(**{**vars(handle), "config_render": _config_render()}, appended=appended)
        return replace(launch, env_open=env_open, handle=handle if editable else None)

    def _config_loader(self) -> Callable | None:
        """`--config FILE.yaml`: read by `words.vllm_config`, next to this file."""
        try:
            from ...readers.vllm_config import load_config_tokens
        except ImportError:
            return None
        collector = self.collector
        return lambda path, token: load_config_tokens(path, token, collector.context, collector.source.path)

    # -- strings run by a shell --------------------------------------------------------------

    def _shell_launches(self, call: cst.Call, names: set[str], scope: Scope | None) -> list[Launch]:
        keyword = "command" if "os.system" in names else "cmd" if names & set(SHELL_CALLS) else "args"
        node = _argument(call, keyword, 0)
        words = self._joined(node, scope, self.collector.span(call).start)
        if words is not None:  # `" ".join(cmd)`: the shell splits it back into the list's words
            return [launch] if (launch := self._launch(call, names, scope, words)) is not None else []
        return self._script_launches(call, names, scope, node)

    def _joined(self, node: cst.BaseExpression | None, scope: Scope | None, before: int) -> list[_Word] | None:
        """The words of `" ".join(cmd)` (or a name bound to it), when each known one is one word to
        the shell; a word not known here may be several (`*X`)."""
        if isinstance(node, cst.Name) and scope is not None:
            node = self.evaluator.resolve_name(node.value, scope)
        listed = joined_words(node)
        words = self.words(listed, scope, before) if listed is not None else None
        if words is None or any(word.token.text is not None and not shell_safe(word.token.text) for word in words):
            return None
        return [word if word.token.text is not None else replace(word, token=replace(word.token, spread=True)) for word in words]

    def _script_launches(self, call: cst.Call, names: set[str], scope: Scope | None, node: cst.BaseExpression | None) -> list[Launch]:
        script = None if node is None else self._script(node, scope)
        if script is None:
            return []
        try:
            from ...readers import shell
        except ImportError:
            return []
        env, places, env_open = self._env(call, names, scope, self.collector.span(call))
        offsets = script.offsets
        launches = shell.extract_script(
            script.text,
            self.collector.source,
            self.collector.context,
            to_offset=offsets.__getitem__,
            env=env,
            env_places=places,
            escape=script.escape,
        )
        return [
            replace(launch, env_open=launch.env_open or env_open, handle=launch.handle if script.escape else None) for launch in launches
        ]

    def _script(self, node: cst.BaseExpression, scope: Scope | None, depth: int = 0) -> ShellString | None:
        """A string literal, an f-string, implicitly joined literals, or a name bound to one."""
        if isinstance(node, cst.Name) and scope is not None and depth < _MAX_DEPTH:
            bound = self.evaluator.resolve_name(node.value, scope)
            return None if bound is None else self._script(bound, scope, depth + 1)
        if isinstance(node, cst.ConcatenatedString):
            left, right = self._script(node.left, scope, depth + 1), self._script(node.right, scope, depth + 1)
            if left is None or right is None:
                return None
            escape = left.escape if left.style == right.style and right.escape is not None else None
            return ShellString(left.text + right.text, left.offsets[:-1] + right.offsets, escape, left.style)
        if isinstance(node, cst.SimpleString):
            prefix = node.prefix.lower()
            if "b" in prefix:
                return None
            start = self.collector.span(node).start + len(node.prefix) + len(node.quote)
            return decoded_script([(node.raw_value, start)], "r" in prefix, node.quote, fstring=False)
        if isinstance(node, cst.FormattedString):
            prefix = node.prefix.lower()
            pieces: list[tuple[str, int] | tuple[None, int, int]] = []
            for part in node.parts:
                span = self.collector.span(part)
                if isinstance(part, cst.FormattedStringText):
                    pieces.append((part.value, span.start))
                else:  # `{expr}`: an unknown expansion (unquoted in the script, it may be many words)
                    pieces.append((None, span.start, span.end))
            return decoded_script(pieces, "r" in prefix, node.end, fstring=True)
        return None

    def _shell_true(self, call: cst.Call) -> bool:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "shell":
                return not (isinstance(arg.value, cst.Name) and arg.value.value == "False")
        return False

    def _call_words(self, call: cst.Call, names: set[str], scope: Scope | None, before: int) -> list[_Word]:
        for name in names:
            if name in ARGV_LIST_CALLS:
                position = ARGV_LIST_CALLS[name]
                keyword = "args" if name.startswith("subprocess.") else None
                node = _argument(call, keyword, position)
                return [] if node is None else self.words(node, scope, before)
            if name in ARGV_SPREAD_CALLS:
                positional = [arg for arg in call.args if arg.keyword is None]
                if name in _ENV_ARGUMENTS:
                    positional = positional[:-1]  # the environment
                found: list[_Word] = []
                for arg in positional[ARGV_SPREAD_CALLS[name] :]:
                    if arg.star:
                        found.extend(self.words(arg.value, scope, before))
                    else:
                        found.append(self._word(arg.value, scope, self._group(call), self.collector.span(call).end - 1))
                return found
        return []

    def _env(
        self, call: cst.Call, names: set[str], scope: Scope | None, call_span: Span
    ) -> tuple[dict[str, Setting], dict[str, EnvPlace], bool]:
        node = _argument(call, "env", None)
        for name in names & set(_ENV_ARGUMENTS):
            position = _ENV_ARGUMENTS[name]
            positional = [arg for arg in call.args if arg.keyword is None]
            if positional and any(arg.star for arg in positional):
                return {}, {}, True
            node = (
                positional[-1].value
                if position is None and positional
                else _argument(call, None, position)
                if position is not None
                else None
            )
            if node is None:
                return {}, {}, True
        if node is None:
            inherited = self.collector.env_before(call_span, scope, inherited=True)
            settings = {n: self.collector.env_setting(w) for n, w in inherited.items()}
            quote = python_quote('"')
            places = {n: w.place or EnvPlace(self.collector.statement_removal(w.span), w.value_span, quote) for n, w in inherited.items()}
            return settings, places, False
        copied = copied_environ(self.collector, self.evaluator, node, scope, call_span)
        if copied is not None:
            return copied
        dict_node = self.evaluator.dict_node(node, scope)
        if isinstance(dict_node, cst.Call):
            return self._env_of_dict_call(dict_node, scope, call_span)
        if not isinstance(dict_node, cst.Dict):
            return {}, {}, True
        inherits = False
        settings: dict[str, Setting] = {}
        places: dict[str, EnvPlace] = {}
        elements = tuple((self._entry_bounds(e)) for e in dict_node.elements)
        sequence = Sequence(elements, close=self.collector.span(dict_node).end - 1)
        for position, element in enumerate(dict_node.elements):
            if isinstance(element, cst.StarredDictElement):
                inherits = inherits or "os.environ" in self.collector.qualified(element.value, scope)
                continue
            key, _ = self.evaluator.evaluate(element.key, scope)
            if key != RUNNER_ENV:
                continue
            settings[RUNNER_ENV], places[RUNNER_ENV] = self._runner_entry(element.key, element.value, scope, sequence, position)
        return self._with_inherited(settings, inherits, call_span, scope), places, False

    def _env_of_dict_call(
        self, dict_call: cst.Call, scope: Scope | None, call_span: Span
    ) -> tuple[dict[str, Setting], dict[str, EnvPlace], bool]:
        """`env=dict(os.environ, VLLM_USE_V2_MODEL_RUNNER="0")`: the runner variable as a keyword
        writes it, the copied environment as written before the call; any other mapping is open."""
        inherits = False
        settings: dict[str, Setting] = {}
        places: dict[str, EnvPlace] = {}
        sequence = Sequence(tuple(self.collector.arg_bounds(arg) for arg in dict_call.args), close=self.collector.span(dict_call).end - 1)
        for position, arg in enumerate(dict_call.args):
            if arg.keyword is None:
                if not self._is_environ(arg.value, scope):
                    return {}, {}, True
                inherits = True
            elif arg.keyword.value == RUNNER_ENV:
                settings[RUNNER_ENV], places[RUNNER_ENV] = self._runner_entry(arg.keyword, arg.value, scope, sequence, position)
        return self._with_inherited(settings, inherits, call_span, scope), places, False

    def _runner_entry(
        self, key: cst.CSTNode, value_node: cst.BaseExpression, scope: Scope | None, sequence: Sequence, position: int
    ) -> tuple[Setting, EnvPlace]:
        """The runner variable written as entry `position` of an environment mapping (`key` to
        `value_node`), and how a fix removes it or rewrites its value."""
        value, _ = self.evaluator.evaluate(value_node, scope)
        span, value_span = self.collector.span(key, value_node), self.collector.span(value_node)
        setting = Setting(RUNNER_ENV, value if isinstance(value, str) else UNKNOWN, span, self.collector.text(span), value_span)
        removal = remove(self.collector.source.index, sequence, {position})[0]
        quote = self.collector.source.text[value_span.start]
        return setting, EnvPlace(removal.span, value_span, python_quote(quote if quote in "'\"" else '"'))

    def _with_inherited(self, settings: dict[str, Setting], inherits: bool, call_span: Span, scope: Scope | None) -> dict[str, Setting]:
        """A mapping that copies `os.environ` without writing the runner variable: the writes made
        before the call reach the process."""
        if inherits and RUNNER_ENV not in settings:
            for name, write in self.collector.env_before(call_span, scope).items():
                settings[name] = self.collector.env_setting(write)
        return settings

    def _is_environ(self, node: cst.BaseExpression, scope: Scope | None) -> bool:
        """`os.environ` or `os.environ.copy()`."""
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "copy" and not node.args:
            node = node.func.value
        return "os.environ" in self.collector.qualified(node, scope)

    def _entry_bounds(self, element: cst.BaseDictElement) -> tuple[int, int]:
        if isinstance(element, cst.DictElement):
            return self.collector.span(element.key, element.value).start, self.collector.span(element.value).end
        span = self.collector.span(element.value)
        return span.start - 2, span.end


def _copy_of_list(node: cst.BaseExpression) -> bool:
    if not isinstance(node, cst.Call):
        return False
    if isinstance(node.func, cst.Name) and node.func.value in ("list", "tuple"):
        return len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star
    return isinstance(node.func, cst.Attribute) and node.func.attr.value == "copy" and not node.args


def _argument(call: cst.Call, keyword: str | None, position: int | None) -> cst.BaseExpression | None:
    for arg in call.args:
        if keyword is not None and arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    if position is None:
        return None
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position].value if len(positional) > position else None

"""Values a program takes when it runs, read at the default it uses when run as written: an
environment variable read with a default (`os.environ.get("MODE", "raw_logprobs")`,
`os.getenv(...)`: "when `MODE` is unset"), the record a dataclass command line makes
(`tyro.cli(Args)`, `simple_parsing.parse(Args)`: its fields' defaults, each an option), and the
parameters of a function a command line runs (`fire.Fire(main)`, `typer.run(main)`,
`jsonargparse.CLI(main)`: each a flag with the parameter's default; also a function fire reaches
through a dict of commands, `fire.Fire({"evaluate": evaluate})` or a module-level name bound to one)."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import Setting
from .binding import parameter_defaults
from .click_words import click_dest, click_given, click_options, takes_arguments
from .dicts import as_val, entry
from .dotenv_values import dotenv_default
from .environment_defaults import loads_dotenv, may_be_written
from .environment_writes import environment_written
from .facts import NOTHING, Entry, Kwargs, Val
from .frames import Evaluates, Frame
from .module import FUNCTIONS, Module
from .objects import Class, Instance, defaults, is_record, last_name
from .parsers import shown
from .refs import Qualified
from .script_flags import parameter_names, script_flag, script_kwargs, script_runs

RECORD_CLIS = ("tyro.cli", "simple_parsing.parse", "jsonargparse.CLI", "jsonargparse.auto_cli")
_FUNCTION_CLIS = ("fire.Fire", "typer.run", "jsonargparse.CLI", "jsonargparse.auto_cli")


def environment_default(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`os.environ.get(NAME, default)` or `os.getenv(NAME, default)`: the default, resting on
    `NAME` being unset. Unknown where the module loads a dotenv file or names `NAME` again (it
    may write it first)."""
    key = node.args[0] if node.args else None
    fallback = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "default"), None)
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return NOTHING
    written = environment_written(reader, key.value, node, frame)
    if written is NOTHING and loads_dotenv(frame.module):
        return dotenv_default(reader, key.value, frame)
    if written is not NOTHING or fallback is None:
        return written
    if may_be_written(frame.module, key.value):
        return NOTHING
    read = reader.evaluate(fallback, frame)
    if not read.known or read.span is None:
        return NOTHING
    return replace(read, assumptions=(*read.assumptions, (f"`{key.value}` is unset", read.span)))


def record_cli(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`tyro.cli(Args)`: the record the command line makes, each field at its default."""
    if not node.args:
        return NOTHING
    made = reader.evaluate(node.args[0], frame).ref
    if not isinstance(made, Class) or not is_record(made):
        return NOTHING
    return Val(ref=Instance(made, defaults(reader, made, cli=True), cli=True), span=frame.module.span(node))


def run_by_command_line(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, module: Module) -> Val:
    """A parameter of a module-level function a command line runs (`fire.Fire(vllm_infer)`):
    its default, a flag of the same name; for fire, the flag the tree's scripts give it."""
    found = _handed_to_cli(reader, function, module) if function in module.tree.body else None
    if found is None:
        return NOTHING
    runner, command, within = found
    value = _option_default(parameter_defaults(function).get(name))
    default = (
        NOTHING
        if value is None
        else as_cli(entry(reader, Frame(module, module.tree), name, value, value, None), name, f"--{name}", module, value)
    )
    return script_flag(reader, module, name, default, command, within) if runner == "fire.Fire" else default


def run_kwargs(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, frame: Frame) -> Val:
    """`**name` of a module-level function fire runs, as the tree's scripts fill it; else (or passed
    by a caller) open: what the caller passes."""
    module = frame.module
    found = _handed_to_cli(reader, function, module) if frame.args is None and function in module.tree.body else None
    if found is not None and found[0] == "fire.Fire":
        given = script_kwargs(reader, module, parameter_names(function), found[1], found[2])
        if given is not None:
            return given
    return as_val(Kwargs(reasons=[f"**{name} (what the caller passes)"]))


Runner = tuple[str, "str | None", "str | None"]  # the runner, the function's key in fire's dict, the function calling it


def _handed_to_cli(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, module: Module) -> Runner | None:
    """The command-line runner given the function (`fire.Fire` of `fire.Fire(main)`), found once per reader."""
    text = module.source.text
    if f"({function.name}" not in text and not ("Fire(" in text and f": {function.name}" in text):
        return None
    known: dict = reader.__dict__.setdefault("_run_by_command_line", {})
    if id(function) not in known:
        known[id(function)] = (function, _runner_call(reader, function, module))  # the function held: its id stays its own
    return known[id(function)][1]


def _runner_call(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, module: Module) -> Runner | None:
    top = Frame(module, module.tree)
    for statement in module.tree.body:
        within = statement.name if isinstance(statement, FUNCTIONS) else None
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            given = node.args[0]
            direct = _named(given, function.name)
            command = None if direct or last_name(node.func) != "Fire" else _command(module, given, function.name)
            if not direct and command is None:
                continue
            runner = reader.evaluate(node.func, top).ref
            if isinstance(runner, Qualified) and runner.name in _FUNCTION_CLIS and (command is None or runner.name == "fire.Fire"):
                return runner.name, command, within
    return None


def _command(module: Module, given: ast.expr, name: str) -> str | None:
    """The key of the function `name` in the dict of commands fire is given (written there, or bound to a module-level name)."""
    if isinstance(given, ast.Name):
        bound = [s.value for s in module.tree.body if isinstance(s, ast.Assign) and any(_named(t, given.id) for t in s.targets)]
        given = bound[0] if len(bound) == 1 else given
    if not isinstance(given, ast.Dict):
        return None
    keys = [
        k.value for k, v in zip(given.keys, given.values) if _named(v, name) and isinstance(k, ast.Constant) and isinstance(k.value, str)
    ]
    return keys[0] if len(keys) == 1 else None


def _named(node: ast.expr | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def command_default(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, module: Module) -> Val:
    """A parameter of a function the command line runs: click's `@click.option(default=)`,
    typer's `typer.Option(default)` or the parameter's own default under `@app.command()`; click's
    `**kwargs`, the options no other parameter names."""
    if function.args.kwarg is not None and function.args.kwarg.arg == name and takes_options(function):
        return command_options(reader, function, module)
    frame = Frame(module, module.tree)
    for decorator in function.decorator_list:
        if not isinstance(decorator, ast.Call) or last_name(decorator.func) not in ("option", "argument"):
            continue
        flags = [a.value.split("/")[0] for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if click_dest(flags) != name:
            continue
        default = next((k for k in decorator.keywords if k.arg == "default"), None)
        if default is None:
            return NOTHING
        item = entry(reader, frame, name, default, default.value, None)
        return _scripts_give(
            reader,
            function,
            name,
            module,
            as_cli(item, name, next((f for f in flags if f.startswith("--")), f"--{name}"), module, decorator),
        )
    if not any(last_name(d.func if isinstance(d, ast.Call) else d) == "command" for d in function.decorator_list):
        return NOTHING
    value = _option_default(parameter_defaults(function).get(name))
    if value is None:
        return NOTHING
    item = entry(reader, frame, name, value, value, None)
    return as_cli(item, name, f"--{name.replace('_', '-')}", module, value)


def command_options(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, module: Module) -> Val:
    """click's `**kwargs` of a command: each option no parameter names, with its default."""
    named = {param.arg for param in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
    found = Kwargs()
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and last_name(decorator.func) in ("option", "argument"):
            flags = [a.value.split("/")[0] for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            name = click_dest(flags)
            read = command_default(reader, function, name, module) if name and name not in named else NOTHING
            if read.origin is None:  # no default written, or not a name click makes
                found.reasons.append(f"{module.text(decorator)[:40]} (an option not read)")
                continue
            setting = Setting(name, read.value, read.origin, module.text(decorator), read.span, read.keys)
            found.entries[name] = Entry(setting, assumptions=read.assumptions)
    return as_val(found)


def _scripts_give(reader: Evaluates, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, module: Module, default: Val) -> Val:
    """A click option's value as every run of the module by the tree's shell scripts gives it (`default` where none does)."""
    if not any(_last(d) in ("command", "group") for d in function.decorator_list) or "__main__" not in module.source.text:
        return default  # a command the module does not run as a program: its scripts' words are another's
    options = click_options(function)
    if options is None:
        return NOTHING if script_runs(reader, module) else default
    return script_flag(reader, module, name, default, reading=click_given(options, takes_arguments(function)))


def _last(decorator: ast.expr) -> str:
    return last_name(decorator.func if isinstance(decorator, ast.Call) else decorator)


def takes_options(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether click's `@option`/`@argument` decorate the function: calling the command
    (`if __name__ == "__main__": main()`) parses the command line, not the call's arguments."""
    return any(isinstance(d, ast.Call) and last_name(d.func) in ("option", "argument") for d in function.decorator_list)


def _option_default(value: ast.expr | None) -> ast.expr | None:
    """typer's `typer.Option("raw_logprobs")` (or `default=`): the default it stands for."""
    if not (isinstance(value, ast.Call) and last_name(value.func) in ("Option", "Argument")):
        return value
    if value.args:
        return None if isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis else value.args[0]
    return next((k.value for k in value.keywords if k.arg == "default"), None)


def as_cli(item: Entry, name: str, flag: str, module: Module, node: ast.AST) -> Val:
    setting = item.setting
    whose = f"{name} comes from {flag}, default {shown(setting.value)} ({module.line(node)})"
    span = setting.value_span or setting.span
    return Val(setting.value, setting.keys, span=setting.value_span, origin=setting.span, assumptions=((whose, span),))

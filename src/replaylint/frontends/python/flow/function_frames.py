"""A module-level function's request read where the function is called: with the arguments of each
call of it in its module, through a registry or a partial, in the modules near it that import it (when
its `**kwargs` or tested parameters decide the request), each turn of a loop around the call apart."""

from __future__ import annotations

import ast
from dataclasses import replace

from .callsites import Call, calls, decides_by_parameter
from .engines import MAX_SITES, caller_frame, caller_frames, elsewhere
from .facts import Val
from .frames import Frame
from .handed import registry_words
from .handed_engines import engines_handed
from .loop_turns import turn_frames
from .mapped_calls import mapped_sites
from .module import Module
from .partial_sites import partial_sites
from .ray_tasks import calls_function, task_sites
from .reader import Function, Reader
from .receivers import names_definition


def function_frames(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef, plain: Frame) -> list[Frame]:
    """A module-level function's request read with the arguments of each call of it in the module (`validate(llm,
    prompts)`: the engine handed over; `task.remote(...)` of a Ray task), else, for one whose `**kwargs` or tested
    parameters decide the request, in the modules near it that import it (`vllm_local_completions(prompts,
    **COMPLETIONS_KWARGS)`), else the function alone. A call made in another function is read with what that
    function's callers give it (`rollout_group(llm, prompts, **gen_kwargs)` calling `rollout(llm, ..., **gen_kwargs)`);
    a module read for another's engine is read with its importers' calls too (`handed`), and so is the checked
    module's function that only the modules importing it call (read once per function and check)."""
    kept = reader.tree.function_args.get(id(function))
    if kept is None or kept[0] is not function:
        kept = reader.tree.function_args[id(function)] = (function, _function_args(reader, module, function))
    return [replace(plain, args=dict(args)) for args in kept[1]] or [plain]


def _function_args(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[dict[str, Val]]:
    words = (f"{function.name}(",)
    sites = [(module, site) for site in calls(module, words) if _calls_by_name(site, function)]
    sites += [(module, site) for site in (*task_sites(reader, module, function), *mapped_sites(reader, module, function))]
    sites += _registry_sites(reader, module, function)  # `HANDLERS[kind](messages, config)` of `@register("openai")`
    if module is reader.tree.module and not sites:  # only the modules that import it call it (arena-hard's `utils.py`)
        sites += [(home, site) for home, site in elsewhere(reader, module, function, words) if _calls(reader, home, site, function)]
    if module is not reader.tree.module:  # the checked module is not among those near it
        checked = reader.tree.module
        others = [(checked, site) for site in calls(checked, (*words, *registry_words(checked, function.name)))]
        others += elsewhere(reader, module, function, words)
        sites += [(home, site) for home, site in others if _calls(reader, home, site, function)]
    elif not sites and (function.args.kwarg is not None or decides_by_parameter(function)):  # its callers' arguments decide
        sites += [(home, site) for home, site in elsewhere(reader, module, function, words) if _calls(reader, home, site, function)]
    through = list(partial_sites(reader, module, function))  # `short = partial(function, ...)`, then `short(...)`
    found = []
    for home, site, partial in [*((home, site, None) for home, site in sites), *through][:MAX_SITES]:
        for caller in turn_frames(reader, caller_frames(reader, home, site)):  # each turn's of `for task in TASKS: run(task)`
            args = engines_handed(reader, Function(module, function), site.node, caller, partial)
            found.append({name: value.via(home.span(site.node)) for name, value in args.items()})
    return found


def _registry_sites(reader: Reader, module: Module, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[Module, Call]]:
    """The calls of the function through a registry of the module, where the key picks it."""
    words = registry_words(module, function.name)
    found = [site for site in calls(module, words) if isinstance(site.node.func, ast.Subscript)] if words else []
    return [(module, s) for s in found if names_definition(reader, caller_frame(reader, module, s), s.node.func, function)]


def _calls_by_name(site: Call, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return isinstance(site.node.func, ast.Name) and site.node.func.id == function.name


def _calls(reader: Reader, home: Module, site: Call, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a call of another module calls `function` (by the name it imports it under, or `TABLE[key](...)` of a table
    of functions that holds it: `tabled_calls`)."""
    return calls_function(reader, home, site, function)

"""The value-flow reader: what an expression holds, through names, dicts and their writes, calls of the tree's functions (a parameter's
default where the call passes none) and their returns, `self` attributes set in another method, `partial`, config objects and command-line
parsers (`objects`), names imported from the tree's modules (`tree`); else UNKNOWN."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING

from .actor_lists import actor_made, appended_actors
from .anonymous import as_function
from .argv_runs import run_input
from .arithmetic import CONVERSIONS, PATH_JOINS, arithmetic, constant, converted, format_call, formatted, joined_path
from .attribute_views import viewed_mapping
from .binding import bind, computed, plain, positional_values
from .bodies import token_map
from .comprehensions import filtered
from .config_built_engines import config_built
from .declared_globals import unbound_global
from .dicts import as_val, call as dict_call, decided, from_keys, literal, spread, written
from .each_items import looped, made_each, sliced
from .engine_subclasses import keeps_engine_init
from .enum_members import enum_member
from .facts import NOTHING, Kwargs, Val
from .frames import Frame, enclosed, is_class_level, reaching
from .generators import entered, yielded
from .getattr_calls import attribute_named
from .grown_lists import grown_in_steps, grown_list, spelt_items
from .handed_configs import handed
from .imported_names import imported_module, in_tree, module_attribute, star_imported
from .ini_configs import PARSERS as INI_PARSERS, ini_parser, read_option
from .init_objects import init_object, item_call
from .joined_texts import comprehension_name, joined
from .logic import logic
from .lookups import dict_method
from .loop_turns import turn_value
from .loops import changed_in_place
from .members import (
    Member,
    app_state,
    class_member,
    instance_property,
    member_attribute,
    object_attribute,
    self_attribute,
    super_member,
    with_attributes,
)
from .memoized import returned_paths
from .merges import created, deep_merged, merged_in
from .method_calls import plain_method
from .module import FUNCTIONS, Module, Placed, global_writes, local_import
from .objects import Class, Instance, field, instance, is_record, library_call, method_result
from .parameter_writes import written_on_parameter
from .params_copies import params_copy, params_field
from .parsed_texts import parsed_text, text_parser, text_writer
from .partial_classes import partial_call
from .pydantic_models import model_validated
from .refs import ENGINE_CONFIGS, Bound, Engine, Function, Partial, Qualified, engine_name, is_params
from .registries import registered
from .returns import combined
from .run_inputs import RECORD_CLIS, command_default, environment_default, record_cli, run_by_command_line, run_kwargs, takes_options
from .unknown_receivers import called_on_unknown
from .yaml_configs import EXISTS_TESTS, FILE_LOADERS, PATH_CALLS, exists_test, file_loaded, loaded, named_file

__all__ = ["Engine", "Function", "Partial", "Qualified", "Reader", "bind", "engine_name"]

if TYPE_CHECKING:
    from ....model import Span
    from .tree import Tree

MAX_DEPTH = 6  # calls followed into one another
_MAX_NESTING = 120  # deeper values are unknown (each level takes a few of Python's frames)


class Reader:
    merged_in = merged_in  # `Evaluates.merged_in`, for `dicts`

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.nesting = 0  # expressions being read inside one another (Python's stack is the bound)
        self.importing: set[tuple[str, str]] = set()  # (module, name) imports being followed
        self.not_run: set[Span] = set()  # engine constructions on a branch the tree's own values never take

    def evaluate(self, node: ast.expr | None, frame: Frame) -> Val:
        if node is None or self.nesting > _MAX_NESTING:
            return NOTHING
        self.nesting += 1
        try:
            return self._evaluate(node, frame)
        finally:
            self.nesting -= 1

    def _evaluate(self, node: ast.expr, frame: Frame) -> Val:
        self.tree.charge(node, frame.module)
        module = frame.module
        if isinstance(node, ast.Constant):
            return constant(node, module)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            number = (inner := self.evaluate(node.operand, frame)).value
            if isinstance(number, (int, float)) and not isinstance(number, bool):
                return replace(inner, value=-number if isinstance(node.op, ast.USub) else number, span=module.span(node))
            return NOTHING
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return spelt_items(self, node, frame)
        if isinstance(node, ast.Dict):
            return token_map(self, node, frame) or literal(self, node, frame)
        if isinstance(node, ast.Name):
            return self.name(node.id, frame)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, frame)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, frame)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            left, right = spread(self, node.left, frame).copy(), spread(self, node.right, frame)
            left.merge(right)
            return as_val(left, module.span(node))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and isinstance(node.left, (ast.List, ast.Tuple)):
            items = self.evaluate(node.left, frame).ref  # `[params] * len(prompts)`: each item that construction
            if isinstance(items, tuple) and items and all(isinstance(item.ref, Engine) for item in items):
                return Val(ref=items)
        if isinstance(node, ast.BinOp):
            return arithmetic(self, node, frame)
        if isinstance(node, ast.JoinedStr):
            return formatted(self, node, frame)
        if isinstance(node, ast.Call):
            return self.call(node, frame)
        if isinstance(node, ast.NamedExpr):
            return self.evaluate(node.value, frame)
        if isinstance(node, ast.DictComp):
            return filtered(self, node, frame)
        if isinstance(node, ast.Lambda):  # a function of its own, its free names read here
            statement = frame.at.statement if frame.at is not None else None
            return Val(ref=Function(module, as_function(module, node, statement), outer=frame))
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return made_each(self, node, frame)
        if isinstance(node, (ast.BoolOp, ast.Compare, ast.IfExp)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            return logic(self, node, frame)
        return NOTHING

    def name(self, name: str, frame: Frame) -> Val:
        if enclosed(frame, name):
            assert frame.outer is not None
            return self.name(name, frame.outer)
        binding = reaching(frame, name, self.taken)
        if binding is None:
            held = comprehension_name(self, name, frame)  # a comprehension's name in a turn `joined_texts` reads
            if held is not None:
                return held
            star = star_imported(self, name, frame.module) if frame.module.star_imports else NOTHING
            if star is not NOTHING:
                return star
            return Val(ref=Qualified(name)) if name in _BUILTINS else unbound_global(self, name, frame)  # `global llm`, `globals()`
        if binding.kind == "parameter":
            read = self.parameter(name, frame)
            if read.kwargs is None:  # a literal a call site passes is decided there (`make("raw_logprobs")`)
                return replace(read, origin=read.span) if plain(replace(read, hops=())) else written_on_parameter(self, read, name, frame)
            mutated = written(self, read.kwargs, name, frame, None, frame.at, passed=True)
            return replace(as_val(mutated, read.span), hops=read.hops, origin=read.origin)
        if binding.kind == "definition":
            nested = frame.function is not None and binding.placed is not None and _same_scope(frame, binding.placed)
            return self._definition(binding.node, frame.module, frame if nested else None)
        if binding.kind == "import":
            local = binding.node is not frame.module.import_statements.get(name)  # `from vllm import LLM` in a function
            return self.imported(name, frame.module, local_import(binding.node, name) if local else None)
        if binding.kind not in ("value", "each", "entered") or binding.placed is None:
            return grown_in_steps(self, name, frame) if binding.kind == "opaque" else NOTHING  # `cmd += [...]` in a loop
        scope_frame = frame if _same_scope(frame, binding.placed) else replace(frame, scope=frame.module.tree, cls=None, args=None)
        if binding.kind == "entered":
            return entered(self, binding.value, scope_frame.reading(binding.placed))  # type: ignore[arg-type]
        if binding.kind == "each":
            held = turn_value(self, binding, name, frame)  # a turn of a loop spelt out (`loop_turns`)
            if held is not None:
                return held
            plain_target = isinstance(binding.node.target, ast.Name)  # type: ignore[union-attr]
            found = yielded(self, binding.value, scope_frame.reading(binding.placed)) if plain_target else NOTHING  # type: ignore[arg-type]
            return found if found is not NOTHING else looped(self, binding, name, scope_frame.reading(binding.placed), frame)
        read = self.evaluate(binding.value, scope_frame.reading(binding.placed))
        if read.value is None and frame.function is not None and scope_frame.scope is frame.module.tree:
            # `ENGINE = None`, set by one function's `global ENGINE`: a use in a function reads what it set
            writes = global_writes(frame.module, name)
            if len(writes) == 1 and writes[0][0] is not frame.function:  # the setter itself reads what it had
                function, placed = writes[0]
                return self.evaluate(placed.statement.value, Frame(frame.module, function, None, None, placed))  # type: ignore[attr-defined]
        if isinstance(read.ref, (Engine, Instance)) and binding.element is None:
            return with_attributes(self, read, name, scope_frame, binding.placed, frame.at if _same_scope(frame, binding.placed) else None)
        if binding.element is not None:
            items = read.ref if isinstance(read.ref, tuple) else ()
            return items[binding.element] if binding.element < len(items) else NOTHING
        if isinstance(read.value, list) and changed_in_place(frame.module.source.text, name):
            grown = grown_list(self, name, read, scope_frame, binding.placed, frame)  # `cmd.append(...)` somewhere
            return grown if grown is not NOTHING else appended_actors(self, name, read, scope_frame, binding.placed, frame)
        if read.kwargs is not None:
            until = frame.at if _same_scope(frame, binding.placed) else None
            mutated = written(self, read.kwargs, name, scope_frame, binding.placed, until)
            if scope_frame.scope is frame.module.tree:  # a registry its decorators fill, or written when a function runs
                mutated = registered(self, mutated, name, frame)
            return replace(as_val(mutated, read.span), hops=read.hops, origin=read.origin)
        # decided where a binding works it out (`top_k := cfg.get("top_k", -1)`), a constant where used
        return replace(read, origin=read.span) if plain(read) and computed(binding.value) else read

    def taken(self, placed: Placed, frame: Frame) -> bool | None:
        """Whether the branches `placed` is under (beyond the reader's own) are taken, each test
        read where its `if` is (`if kw is None: kw = {}` with `kw` known)."""
        use = frame.at.guards if frame.at is not None else ()
        for number, guard in enumerate(placed.guards):
            if guard in use:
                continue
            if guard.opaque or guard.node is None:
                return None
            at = Placed(guard.node, placed.guards[:number], placed.order)  # type: ignore[arg-type]  # read at the test
            left = decided(self, (guard,), frame.reading(at))
            if left is None:
                return False
            if left:
                return None
        return True

    def parameter(self, name: str, frame: Frame) -> Val:
        function = frame.function
        config = handed(self, function, name, frame)
        if config is not None:  # Hydra (pydra, Truss) hands the config over whatever the call passes (`main()`)
            return config
        if function is not None and takes_options(function):  # `main()` hands click the command line
            return command_default(self, function, name, frame.module)
        if frame.args is not None and name in frame.args:
            return frame.args[name]
        if function is not None and frame.cls is not None and is_class_level(function, name):
            return Val(ref=Class(frame.module, frame.cls))  # `cls` of a classmethod
        if frame.instance is not None and frame.cls is not None and function is not None and _is_self(function, name):
            return Val(ref=Instance(Class(frame.module, frame.cls), frame.instance))  # `asdict(self)` of the record read
        if function is not None and function.args.kwarg is not None and function.args.kwarg.arg == name:
            if frame.args is None and self._as_written(function, frame):
                return as_val(Kwargs(assumed=[f"the caller's `**{name}` does not set it"]))
            return run_kwargs(self, function, name, frame)
        if function is not None and frame.args is None and function.decorator_list:
            return command_default(self, function, name, frame.module)
        return run_by_command_line(self, function, name, frame.module) if function is not None and frame.args is None else NOTHING

    def _as_written(self, function: ast.FunctionDef | ast.AsyncFunctionDef, frame: Frame) -> bool:
        """Whether a function's `**kwargs` are judged as written, as a script's `"$@"` is: no
        caller in the tree passes them (callers are followed where there are some), and none
        outside it is in sight. A method, a decorated function (a framework calls it) or one
        handed around by name (`pool.submit(make_llm, **cfg)`) keeps them open, as does
        `forwarded-arguments = "open"`; so does a method of a class the tree never makes."""
        module = frame.module
        if self.tree.context.forwarded_arguments == "open" or function.decorator_list:
            return False
        if function not in module.tree.body:  # `Engine.start(self, **kw)` of an `Engine(cfg)` no call passes more
            if frame.init is None or not plain_method(module, function):
                return False
            return not called_on_unknown(self, module, function, self.tree.nearby_texts(module.path), self.tree.open_file)
        return not module.referenced(function.name)

    def imported(self, name: str, module: Module, qualified: str | None = None) -> Val:
        qualified = qualified or module.imports.get(name, name)
        read = in_tree(self, qualified, module)
        statement = module.import_statements.get(name)
        member = not isinstance(read.ref, (Module, Qualified))
        return read.via(module.span(statement)) if statement is not None and member else read

    def _definition(self, node: ast.AST | None, module: Module, frame: Frame | None) -> Val:
        """A function or class defined in the tree (`frame`: the function that defines it, for a closure)."""
        if isinstance(node, FUNCTIONS):
            return Val(ref=Function(module, node, outer=frame))
        if isinstance(node, ast.ClassDef):
            return Val(ref=Class(module, node))
        return NOTHING

    def attribute(self, node: ast.Attribute, frame: Frame) -> Val:
        base = node.value
        if isinstance(base, ast.Name) and base.id == "self" and frame.cls is not None:
            return self_attribute(self, node.attr, frame)
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super" and not base.args:
            return super_member(frame.module, frame.cls, frame.scope, node.attr) if frame.cls is not None else NOTHING
        held = app_state(self, frame.module, node.attr) if isinstance(base, ast.Attribute) and base.attr == "state" else None
        if held is not None:
            return held
        owner = self.evaluate(base, frame)
        if isinstance(owner.ref, Qualified) and owner.ref.name.partition(".")[0] in _BUILTINS:
            return Val(ref=Qualified(f"{owner.ref.name}.{node.attr}"))
        if isinstance(owner.ref, (Qualified, Module)):  # `settings.PORT` of `import settings`, a module of the tree
            return module_attribute(self, owner.ref, node.attr, frame.module)
        if isinstance(owner.ref, Class):
            exact = isinstance(base, ast.Name) and base.id == owner.ref.node.name  # named, not `cls`: no subclass's
            return class_member(self, owner.ref.module, owner.ref.node, node.attr, exact=exact)
        if isinstance(owner.ref, Member):
            return member_attribute(owner.ref, node.attr)  # `LogprobsMode.PROCESSED.value`
        if isinstance(owner.ref, Engine) and node.attr == "llm_engine":
            return owner  # `llm.llm_engine`: the engine `LLM` runs, built from the same arguments
        if isinstance(owner.ref, Engine) and (written := params_field(self, owner, node.attr)) is not None:
            return written  # `params.temperature` of a `SamplingParams(...)`
        if isinstance(owner.ref, Instance) and node.attr not in owner.ref.fields.entries:
            return instance_property(self, owner.ref, node, frame)
        if owner.ref is None and isinstance(base, ast.Name):
            held = object_attribute(self, base, node.attr, frame)  # `r = Rollout(...)`, then `r.llm`
            if held is not NOTHING:
                return held
        return field(self, owner, node.attr, frame)

    def subscript(self, node: ast.Subscript, frame: Frame) -> Val:
        owner = self.evaluate(node.value, frame)
        key = node.slice.value if isinstance(node.slice, ast.Constant) else self._key(node.slice, owner, frame)
        if owner.kwargs is not None and isinstance(key, str) and key in owner.kwargs.entries:
            return field(self, owner, key, frame)  # a nested mapping stays one (`cfg["engine"]`)
        if isinstance(owner.ref, Qualified) and (given := run_input(self, owner.ref.name, key, node, frame)) is not None:
            return given  # `os.environ[key]`, `sys.argv[1]`
        if isinstance(owner.ref, tuple) and type(key) is int and -len(owner.ref) <= key < len(owner.ref):
            return owner.ref[key]  # `parser.parse_args_into_dataclasses()[0]`
        if isinstance(owner.ref, Class):  # `Preset["VIDEO"]` of an Enum
            return enum_member(self, owner.ref, node.slice, frame) or sliced(owner, node)
        return item_call(self, node, owner.ref, frame) if isinstance(owner.ref, Instance) and owner.ref.plain else sliced(owner, node)

    def _key(self, node: ast.expr, owner: Val, frame: Frame) -> object:
        """A key spelt by an expression (`ENGINES[kind]`, `HANDLERS[cfg["type"]]`) of a mapping the reader knows."""
        keyed = owner.kwargs is not None and isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))
        return self.evaluate(node, frame).value if keyed else None

    # calls

    def call(self, node: ast.Call, frame: Frame) -> Val:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("get", "copy", "pop", "items", "values"):
            return dict_method(self, node, func, frame)
        if isinstance(func, ast.Attribute) and (option := read_option(self, node, func, frame)) is not None:
            return option  # `section.getboolean("return_sampling_mask", fallback=False)`
        if isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(func.value, (ast.Constant, ast.Name)):
            return format_call(self, node, frame)
        if isinstance(func, ast.Attribute) and func.attr == "join" and (text := joined(self, node, frame)) is not None:
            return text  # `" ".join(f"--{k} {v}" for k, v in ARGS.items())`
        if isinstance(func, ast.Attribute) and func.attr in EXISTS_TESTS and (exists := exists_test(self, node, frame)) is not None:
            return exists  # `config_path.exists()` of a file the tree holds
        if isinstance(func, ast.Attribute) and (copied := params_copy(self, node, func, frame)) is not None:
            return copied  # `params.clone()`, `llm.get_default_sampling_params()`
        if (made := config_built(self, node, frame)) is not None:
            return made  # `AsyncLLM.from_engine_args(engine_args)`, `AsyncLLM(vllm_config=engine_args.create_engine_config())`
        if isinstance(func, ast.Attribute) and func.attr == "remote" and (actor := actor_made(self, node, frame)) is not None:
            return actor  # `LLMActor.options(num_gpus=1).remote(...)` of a class of the tree
        callee = self.evaluate(func, frame)
        ref = callee.ref
        if isinstance(ref, Qualified):
            return self._library_call(ref.name, node, frame)
        if isinstance(ref, Function):
            return self.returned(ref, node, frame, callee.hops)
        if isinstance(ref, Bound):  # `cfg.to_engine_kwargs()`: the method with the record's fields as `self`'s
            return self.returned(ref.function, node, frame, callee.hops, instance=ref.fields)
        if isinstance(ref, Partial):  # `build(model)` of `partial(engine_kwargs, ...)`, `make()` of `partial(Chat, ...)`
            return partial_call(self, ref, node, frame, callee.hops)
        if isinstance(ref, Class) and keeps_engine_init(ref.module, ref.node):
            return Val(ref=Engine(node, frame))  # `class Model(LLM)` that keeps the engine's `__init__`
        if isinstance(ref, Class):
            made = instance(self, ref, node, frame)
            plain = init_object(self, ref, node, frame) if made is NOTHING and not is_record(ref) else None
            return Val(ref=plain, span=frame.module.span(node)) if plain is not None else made
        validated = model_validated(self, func, node, frame)  # `Cfg.model_validate({...})`
        return validated if validated is not None else method_result(self, callee, func, node, frame)

    def _library_call(self, name: str, node: ast.Call, frame: Frame) -> Val:
        if name in ("dict",) and not any(isinstance(a, ast.Starred) for a in node.args):
            return dict_call(self, node, frame)
        if name == "dict.fromkeys":
            return from_keys(self, node, frame)
        if name in CONVERSIONS and len(node.args) == 1 and not node.keywords:
            return converted(name, self.evaluate(node.args[0], frame))
        if name in _SEQUENCES and len(node.args) == 1 and not node.keywords:
            read = self.evaluate(node.args[0], frame)  # `list(extra_processors)` of a known tuple: the same items
            return read if isinstance(read.value, list) else NOTHING
        if name in ("functools.partial", "partial") and node.args:
            keywords = dict_call(self, node, frame, positional=False).kwargs or Kwargs()
            given = positional_values(self, node.args[1:], frame)
            return Val(ref=Partial(self.evaluate(node.args[0], frame), keywords, frame.module.span(node), given))
        if name in _VIEWS and node.args:  # a copy, or a read-only view, reads as the mapping
            return self.evaluate(node.args[0], frame)
        if (parser := text_parser(name)) is not None and len(node.args) == 1:
            parsed = parsed_text(self.evaluate(node.args[0], frame), parser)
            if parsed is not NOTHING or name not in FILE_LOADERS:
                return parsed  # else `json.loads(path.read_text())`: the file, read below
        if (writer := text_writer(name)) is not None and node.args:
            return writer(self.evaluate(node.args[0], frame))  # `json.dumps(spec)`, `shlex.quote(text)`
        if name in ("omegaconf.OmegaConf.load", "OmegaConf.load"):
            return loaded(self, node, frame)
        if name in ("omegaconf.OmegaConf.merge", "OmegaConf.merge"):
            return deep_merged(self, node, frame)
        if name in ("omegaconf.OmegaConf.create", "OmegaConf.create") and len(node.args) == 1 and not node.keywords:
            return created(self, node.args[0], frame)
        if (from_file := file_loaded(self, name, node, frame)) is not None:
            return from_file
        if engine_name(name) or is_params(name) or name in ENGINE_CONFIGS:
            return Val(ref=Engine(node, frame))  # an engine, or the params of a request
        if name in INI_PARSERS:
            return ini_parser(self, node, frame)
        if name in PATH_CALLS and (named := named_file(node, frame)) is not None:
            return named  # `os.path.join(os.path.dirname(__file__), "config.yaml")`
        if name in PATH_JOINS:  # `os.path.join(base_url, endpoint)`: a URL
            return joined_path(self, node, frame, name)
        if name == "getattr":
            return attribute_named(self, node, frame)
        if name == "importlib.import_module":
            return imported_module(self, node, frame)
        if name == "os.getenv":
            return environment_default(self, node, frame)
        return record_cli(self, node, frame) if name in RECORD_CLIS else library_call(self, name, node, frame)

    def returned(
        self,
        function: Function,
        node: ast.Call | None,
        frame: Frame,
        hops: tuple = (),
        instance: Kwargs | None = None,
        partial: Partial | None = None,
    ) -> Val:
        """What a call of a function of the tree returns: its `return`s (`returns`), read with
        the call's arguments bound to the parameters."""
        if frame.depth >= MAX_DEPTH:
            self.tree.too_deep(node, frame.module)
            return NOTHING
        if id(function.node) in frame.stack:
            return NOTHING
        if node is not None and (viewed := viewed_mapping(function, node)) is not None:  # `dict_to_namedtuple(cfg)`: `cfg`
            return self.evaluate(viewed, frame).via(frame.module.span(node), *hops)
        paths = returned_paths(function.module, function.node)  # its returns, or what fills a cache's key (`get_model`)
        if not paths:
            return NOTHING
        args = bind(self, function, node, frame, partial=partial) if node is not None else None
        inner = Frame(function.module, function.node, function.cls, args, None, frame.depth + 1, (*frame.stack, id(function.node)))
        same_object = function.cls is not None and function.cls is frame.cls  # `self.args` of the object being read
        if instance is None:
            instance = frame.instance if same_object else None
        inner = replace(
            inner, outer=function.outer, init=frame.init if same_object else function.init, instance=instance, returned_to=frame
        )
        read = combined(self, paths, inner)
        call_span = frame.module.span(node) if node is not None else None
        return read.via(*(s for s in (call_span,) if s is not None), *hops)


_SEQUENCES = ("list", "tuple")
_BUILTINS = ("dict", "vars", "getattr", "hasattr", "isinstance", "len", "any", "all", *CONVERSIONS, *_SEQUENCES)
_VIEWS = ("copy.deepcopy", "copy.copy", "types.MappingProxyType")


def _is_self(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    first = [*function.args.posonlyargs, *function.args.args][:1]
    return bool(first) and first[0].arg == name and not function.decorator_list


def _same_scope(frame: Frame, placed: Placed) -> bool:
    return frame.module.in_scope(placed, frame.scope)

"""Config objects and command-line parsers as the value-flow reader sees them.

- dataclasses, attrs, pydantic models and NamedTuples: a field is what the constructor call
  passes, else the class's default (`cfg.field`, `asdict(cfg)`, `cfg.model_dump()`, `vars(cfg)`);
- argparse: `parser.parse_args()` gives each option's `default=`, and the message says where it
  comes from (`logprobs_mode comes from --logprobs-mode, default 'raw_logprobs' (serve.py:7)`);
  so do HfArgumentParser's dataclass fields, click's `@click.option(default=)` and typer's
  parameters, for the function the command line runs.
"""

from __future__ import annotations

import ast
from dataclasses import field, replace
from typing import Any

from ....model import UNKNOWN, Setting, Span
from ....records import record
from .argv_changes import argv_options
from .arithmetic import TEXT_METHODS, text_method, text_split
from .dicts import as_val, call as dict_call, entry, nested, spread
from .dotlists import from_dotlist
from .each_items import RANDOM_PICKS, picked
from .facts import NOTHING, Entry, Kwargs, Val, read_from
from .frames import Evaluates, Frame
from .hydra_compose import composed
from .known_args import leftover_words
from .logic import builtin_types, length, text_test, type_test
from .memberships import has_attribute
from .merges import chained, merges, reduced
from .module import FUNCTIONS, Module
from .namedtuples import named_tuple_class
from .parsers import HfParser, Parser, options, parser_default, shown, written_command_line
from .post_inits import after_init
from .quantifiers import QUANTIFIERS, quantified
from .record_dumps import with_options
from .record_fields import class_attributes, updated, with_keywords
from .refs import Engine, Qualified, engine_name
from .run_options import run_options
from .script_options import script_options

_RECORD_DECORATORS = ("dataclass", "define", "frozen", "mutable", "s", "attrs", "pydantic_dataclass")
_RECORD_BASES = ("BaseModel", "BaseSettings", "NamedTuple", "TypedDict", "Struct")  # `Struct`: msgspec's
_AS_DICT = (
    "dataclasses.asdict",
    "asdict",
    "attr.asdict",
    "attrs.asdict",
    "vars",
    "OmegaConf.to_container",
    "omegaconf.OmegaConf.to_container",
)
_REPLACES = ("dataclasses.replace", "replace", "copy.replace", "attrs.evolve", "attr.evolve", "evolve", "msgspec.structs.replace")
_DUMP_METHODS = ("model_dump", "dict", "_asdict", "to_dict")
_PARSERS = ("argparse.ArgumentParser", "ArgumentParser", "FlexibleArgumentParser")


@record(unsafe_hash=True)
class Class:
    module: Module
    node: ast.ClassDef


@record(unsafe_hash=True)
class Instance:
    """A record built by a call the reader saw (or by a command-line parser: `cli`)."""

    cls: Class
    fields: Kwargs
    cli: bool = False
    plain: bool = False  # an object of a plain class that only holds class attributes: no record
    parser: Any = field(default=None, compare=False)  # argparse's namespace: the parser, for its options with no default


def is_record(cls: Class) -> bool:
    node = cls.node
    names = [last_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
    return any(name in _RECORD_DECORATORS for name in names) or any(last_name(base) in _RECORD_BASES for base in node.bases)


def last_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def defaults(reader: Evaluates, cls: Class, cli: bool = False, hooked: bool = True) -> Kwargs:
    """The fields a class declares with a default, in order (`cli`: HfArgumentParser makes
    each an option `--name`, and the message says so), as the post-init hook leaves them
    (not `hooked`: as the constructor gives them to the hook)."""
    module = cls.module
    frame = Frame(module, module.tree)
    found = Kwargs()
    for base in record_bases(reader, cls):  # a subclass's fields follow its bases' (`class Replay(EngineConfig)`)
        found.merge(defaults(reader, base, cli, hooked))
    for statement in cls.node.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name) or statement.value is None:
            continue
        name = statement.target.id
        value, writer = _field_default(statement.value)
        if value is None:
            made = _factory_record(reader, statement.value, frame)
            if made is None:
                found.reasons.append(f"{name} (a default made at run time)")
            else:
                setting = Setting(name, UNKNOWN, module.span(statement), module.text(statement), module.span(statement.value))
                found.entries[name] = Entry(setting, ref=made)
            continue
        first = writer if writer.lineno != statement.lineno else statement  # `field(\n  default=...)`: the line that writes it
        item = entry(reader, frame, name, first, value, None)
        whose = (
            f"{name} comes from --{name.replace('_', '-')}, default {shown(item.setting.value)} ({module.line(statement)})" if cli else ""
        )
        if whose and item.setting.value_span is not None:
            item = replace(item, assumptions=(*item.assumptions, (whose, item.setting.value_span)))
        found.entries[name] = item
    return after_init(reader, cls.module, cls.node, found) if hooked else found


def record_bases(reader: Evaluates, cls: Class) -> list[Class]:
    frame = Frame(cls.module, cls.module.tree)
    bases = [reader.evaluate(base, frame).ref for base in reversed(cls.node.bases)]
    return [base for base in bases if isinstance(base, Class) and base.node is not cls.node and is_record(base)]


def field_names(reader: Evaluates, cls: Class) -> list[str]:
    """The fields in the constructor's positional order: the bases' first."""
    names = [name for base in reversed(record_bases(reader, cls)) for name in field_names(reader, base)]
    own = [s.target.id for s in cls.node.body if _is_field(cls.node, s)]  # type: ignore[union-attr]
    return [*(name for name in names if name not in own), *own]


def _is_field(cls: ast.ClassDef, statement: ast.stmt) -> bool:
    """Whether a statement of a record's body declares a field the constructor takes: not a
    `ClassVar`, nor a pydantic model's private attribute (`_model: Any = PrivateAttr(None)`, or
    any name with a leading underscore)."""
    if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
        return False
    annotation = statement.annotation.value if isinstance(statement.annotation, ast.Subscript) else statement.annotation
    if last_name(annotation) == "ClassVar":
        return False
    private = isinstance(statement.value, ast.Call) and last_name(statement.value.func) == "PrivateAttr"
    pydantic = any(last_name(base) in ("BaseModel", "BaseSettings") for base in cls.bases)
    return not (private or (pydantic and statement.target.id.startswith("_")))


def _factory_record(reader: Evaluates, value: ast.expr, frame: Frame) -> Instance | None:
    """`field(default_factory=VllmConfig)` of a record class: that class with its defaults."""
    if not (isinstance(value, ast.Call) and last_name(value.func) in ("field", "Field", "ib", "attrib")):
        return None
    factory = next((k.value for k in value.keywords if k.arg in ("default_factory", "factory")), None)
    made = reader.evaluate(factory, frame).ref if factory is not None else None
    if not isinstance(made, Class) or not is_record(made):
        return None
    return Instance(made, defaults(reader, made))


def _field_default(value: ast.expr) -> tuple[ast.expr | None, ast.AST]:
    """The default and the node that writes it: `x: int = 3` -> 3; `field(default=3)`, `Field(3)`,
    `attr.ib(default=3)` -> 3 (its keyword); `field(default_factory=lambda: {...})` -> `{...}`;
    another factory -> None."""
    if isinstance(value, ast.Call) and last_name(value.func) in ("field", "Field", "ib", "attrib"):
        for keyword in value.keywords:
            if keyword.arg == "default":
                return keyword.value, keyword
            made = keyword.value
            if keyword.arg in ("default_factory", "factory") and isinstance(made, ast.Lambda) and not made.args.args:
                return made.body, keyword
            if keyword.arg in ("default_factory", "factory") and isinstance(made, ast.Name) and made.id in ("dict", "list"):
                return ast.copy_location(ast.Dict(keys=[], values=[]) if made.id == "dict" else ast.List(elts=[]), made), keyword
        if last_name(value.func) == "Field" and value.args:
            return value.args[0], value.args[0]
        return None, value
    return value, value


def instance(reader: Evaluates, cls: Val | Class, node: ast.Call, frame: Frame) -> Val:
    cls = cls.ref if isinstance(cls, Val) else cls
    if not is_record(cls):  # a plain class of class attributes: an object with those
        found = class_attributes(reader, cls.module, cls.node, node)
        return Val(ref=Instance(cls, found, plain=True), span=frame.module.span(node)) if found is not None else NOTHING
    typed_dict = any(last_name(base) == "TypedDict" for base in cls.node.bases)  # calling one makes a plain dict: no defaults
    fields = defaults(reader, cls, hooked=False).copy() if not typed_dict else Kwargs()
    names = field_names(reader, cls)
    given: set[str] = set()  # the fields the call passes: keys a spread cannot pass again
    for argument, name in zip(node.args, names):
        if isinstance(argument, ast.Starred):
            _hidden(fields, set(names) - given, "*args")
            break
        fields.entries[name] = entry(reader, frame, name, argument, argument, None)
        given.add(name)
    for keyword in node.keywords:
        if keyword.arg is None:
            spread_in = spread(reader, keyword.value, frame)
            for reason in spread_in.reasons:
                _hidden(fields, set(names) - given, reason)
            fields.merge(spread_in, overwrites=not spread_in.reasons)  # `_hidden` opened the fields it may set
            given |= set(spread_in.entries)
        else:
            fields.entries[keyword.arg] = entry(reader, frame, keyword.arg, keyword, keyword.value, None)
            given.add(keyword.arg)
    if typed_dict:
        return as_val(fields, frame.module.span(node))
    return Val(ref=Instance(cls, after_init(reader, cls.module, cls.node, fields)), span=frame.module.span(node))


def _hidden(fields: Kwargs, open_names: set[str], reason: str) -> None:
    """Arguments nobody can read (`**cfg` of a loaded file, `*args`) may set any field the call does
    not pass itself (`open_names`): its default no longer decides."""
    for name in [name for name in fields.entries if name in open_names]:
        del fields.entries[name]
    if reason not in fields.reasons:
        fields.reasons.append(reason)


def field(reader: Evaluates, owner: Val, name: str, frame: Frame) -> Val:
    """`owner.name`: a record's field, a parsed option, a key of a mapping read as an attribute."""
    ref = owner.ref
    fields = ref.fields if isinstance(ref, Instance) else owner.kwargs
    if isinstance(ref, Parser):
        return NOTHING
    if fields is None or name not in fields.entries:
        return NOTHING
    item = fields.entries[name]
    if item.guards:
        return NOTHING
    mapping = nested(item)  # a mapping of a config file (`cfg.vllm`)
    if mapping is not None:
        return mapping
    return read_from(item.setting, item.assumptions, item.ref)


def as_kwargs(owner: Val, *at: Span) -> Val:
    """The fields of a record as keyword arguments (`asdict(cfg)`, `cfg.model_dump()`), each
    passing through the places the record did (an import) and `at` (the call that turns it into a dict)."""
    ref = owner.ref
    if isinstance(ref, Instance) and ref.plain:
        return NOTHING  # `vars(obj)` of class attributes is empty; `asdict` refuses it
    if isinstance(ref, Instance):
        hops = (*at, *owner.hops)
        fields = ref.fields
        if hops or owner.assumptions:  # each field passes where the record did, and rests on what it rests on
            fields = fields.rebuilt(
                {
                    name: replace(
                        e, setting=replace(e.setting, via=(*e.setting.via, *hops)), assumptions=(*e.assumptions, *owner.assumptions)
                    )
                    for name, e in fields.entries.items()
                }
            )
        return as_val(fields)
    return owner if owner.kwargs is not None else NOTHING


def library_call(reader: Evaluates, name: str, node: ast.Call, frame: Frame) -> Val:
    short = name.rsplit(".", 1)[-1]
    if (name in _AS_DICT or short == "asdict") and node.args:
        return as_kwargs(reader.evaluate(node.args[0], frame), frame.module.span(node))
    if short == "ChainMap" and name in ("collections.ChainMap", "ChainMap"):
        return chained(reader, node, frame, reverse=True)
    if name in ("functools.reduce", "reduce") and len(node.args) in (2, 3) and merges(node.args[0]):
        return reduced(reader, node, frame)
    if name in _REPLACES and len(node.args) == 1:
        return _replaced(reader, node, frame)
    if name in ("hydra.compose", "hydra.experimental.compose"):
        return composed(reader, node, frame)
    if name in ("omegaconf.OmegaConf.from_dotlist", "OmegaConf.from_dotlist"):
        return from_dotlist(reader, node, frame)
    if name in ("omegaconf.OmegaConf.structured", "OmegaConf.structured") and len(node.args) == 1 and not node.keywords:
        return _structured(reader, node, frame)
    if name in ("types.SimpleNamespace", "SimpleNamespace", "argparse.Namespace", "Namespace") and not node.args:
        return dict_call(reader, node, frame)  # its attributes are the keywords; `vars(ns)` gives them
    if name in _PARSERS or short in ("ArgumentParser", "FlexibleArgumentParser"):
        return Val(ref=Parser(node, frame))
    if short == "add_cli_args" and engine_name(name.rsplit(".", 1)[0]) and len(node.args) == 1:
        return reader.evaluate(node.args[0], frame)  # vLLM's `EngineArgs.add_cli_args(parser)` returns the parser
    if short == "from_cli_args" and engine_name(name.rsplit(".", 1)[0]) and len(node.args) == 1:
        return Val(ref=Engine(node, frame))  # the engine arguments `engines` reads from the namespace: `from_engine_args` builds it
    if name in ("typing.cast", "typing_extensions.cast") and len(node.args) == 2 and not node.keywords:
        return reader.evaluate(node.args[1], frame)  # `cast(Args, parser.parse_args_into_dataclasses()[0])`: the value itself
    if short == "HfArgumentParser" and node.args:
        classes = reader.evaluate(node.args[0], frame)
        items = classes.ref if isinstance(classes.ref, tuple) else (classes,)
        return Val(ref=HfParser(tuple(items), Parser(node, frame)))
    if name in ("collections.namedtuple", "namedtuple") and (made := named_tuple_class(node)) is not None:
        return Val(ref=Class(frame.module, made))
    if name == "isinstance" and len(node.args) == 2 and not node.keywords:
        read = reader.evaluate(node.args[0], frame)
        if isinstance(read.ref, Instance) and builtin_types(node.args[1]) and _own_class(reader, read.ref.cls):
            return Val(False, assumptions=read.assumptions)  # `isinstance(params, dict)` of the library's own record
        return type_test(reader, node, frame, read)
    if name == "hasattr" and len(node.args) == 2 and not node.keywords:
        return has_attribute(reader, node, frame)
    if name in QUANTIFIERS:
        return quantified(reader, name, node, frame)  # `any(s.startswith(prefix) for s in args)`
    if name == "len" and len(node.args) == 1 and not node.keywords:
        return length(reader.evaluate(node.args[0], frame))  # `if len(kwargs) == 0:`
    if name in RANDOM_PICKS:
        return picked(reader, name, node, frame)
    if name in ("ray.remote",) and len(node.args) == 1:
        return reader.evaluate(node.args[0], frame)
    if name in ("ray.remote",) and not node.args:
        return Val(ref=Qualified(name))  # `ray.remote(num_gpus=1)(Actor)`: the same, with resources
    return NOTHING


def _own_class(reader: Evaluates, cls: Class, depth: int = 0) -> bool:
    """Whether a class written in the tree derives only from classes written there (no `dict`,
    `BaseModel` or metaclass of a library): none of its objects is of a built-in type."""
    if depth > 4 or cls.node not in cls.module.tree.body or cls.node.keywords:
        return False
    frame = Frame(cls.module, cls.module.tree)
    bases = [reader.evaluate(base, frame).ref for base in cls.node.bases]
    return all(isinstance(base, Class) and base.node is not cls.node and _own_class(reader, base, depth + 1) for base in bases)


def _structured(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`OmegaConf.structured(EngineConfig)`: a config of the record class's defaults (as
    `EngineConfig()` would make); of a record (`OmegaConf.structured(EngineConfig(...))`), its fields.
    A DictConfig is a mapping too: its fields are its keys (`OmegaConf.merge(structured, loaded)`, `**cfg`)."""
    made = reader.evaluate(node.args[0], frame)
    if not (isinstance(made.ref, Instance) and not made.ref.plain):
        if not (isinstance(made.ref, Class) and is_record(made.ref)):
            return NOTHING
        made = instance(reader, made.ref, ast.copy_location(ast.Call(node.args[0], [], []), node), frame)
    return replace(made, kwargs=made.ref.fields) if isinstance(made.ref, Instance) else made


def _replaced(reader: Evaluates, node: ast.Call, frame: Frame) -> Val:
    """`dataclasses.replace(cfg, field=v)`: a copy of the record with those fields written."""
    return _with_keywords(reader, reader.evaluate(node.args[0], frame), node, frame)


def _with_keywords(reader: Evaluates, owner: Val, node: ast.Call, frame: Frame) -> Val:
    """A copy of the record `owner` with the fields the call's keywords write (`replace`, `_replace`)."""
    if not isinstance(owner.ref, Instance) or owner.ref.plain:
        return NOTHING
    return Val(ref=replace(owner.ref, fields=with_keywords(reader, owner.ref.fields, node, frame)), span=frame.module.span(node))


def _copied(reader: Evaluates, owner: Val, node: ast.Call, frame: Frame) -> Val:
    """`cfg.model_copy(update={...})` of a pydantic record."""
    fields = updated(reader, owner.ref.fields, node, frame)
    return Val(ref=replace(owner.ref, fields=fields), span=frame.module.span(node)) if fields is not None else NOTHING


def method_result(reader: Evaluates, callee: Val, func: ast.expr, node: ast.Call, frame: Frame) -> Val:
    if not isinstance(func, ast.Attribute):
        return NOTHING
    owner = reader.evaluate(func.value, frame)
    ref = owner.ref
    if func.attr in _DUMP_METHODS:
        return with_options(reader, as_kwargs(owner, frame.module.span(node)), func.attr, node, frame)
    if func.attr in ("startswith", "endswith") and isinstance(owner.value, str):
        return text_test(reader, owner, func.attr, node, frame)
    if func.attr in TEXT_METHODS and isinstance(owner.value, str):
        return text_method(reader, owner, node, frame)
    if func.attr in ("split", "rsplit") and isinstance(owner.value, str):
        return text_split(reader, owner, node, frame)
    if func.attr == "model_copy" and isinstance(ref, Instance) and not ref.plain and not node.args:
        return _copied(reader, owner, node, frame)
    if func.attr == "_replace" and not node.args:  # a NamedTuple's copy with fields written
        return _with_keywords(reader, owner, node, frame)
    if isinstance(ref, Parser):
        if func.attr in ("add_argument_group", "add_mutually_exclusive_group", "add_subparsers"):
            return owner
        if func.attr == "add_parser":  # a subcommand: its own options, after the parser's
            return Val(ref=Parser(node, frame, parent=ref))
        if func.attr in ("parse_args", "parse_known_args") and not node.args:
            changed = argv_options(reader, ref, frame)  # `sys.argv.extend([...])` before it
            changed = run_options(reader, ref, frame) if changed is None else changed
            scripted = script_options(reader, ref, frame) if changed is None else None
            changed = scripted if changed is None else changed
            given = options(reader, ref) if changed is None else changed
            namespace = Val(ref=Instance(Class(frame.module, ast.ClassDef()), given, cli=True, parser=ref if changed is None else None))
            if func.attr != "parse_known_args":
                return namespace
            return Val(ref=(namespace, leftover_words(reader, ref, frame) if scripted is not None else NOTHING))
        if func.attr == "get_default":
            return parser_default(reader, ref, node, frame)
        if func.attr == "parse_args" and len(node.args) == 1 and (given := written_command_line(reader, ref, node.args[0], frame)):
            return Val(ref=Instance(Class(frame.module, ast.ClassDef()), given, cli=True))
    if isinstance(ref, HfParser) and func.attr in ("parse_yaml_file", "parse_json_file", "parse_dict"):
        return _parsed_file(reader, ref, node, frame)
    if isinstance(ref, HfParser) and func.attr == "parse_args" and not node.args:
        return _parsed_namespace(reader, ref)
    if isinstance(ref, HfParser) and func.attr == "parse_args_into_dataclasses":
        if node.args:
            return NOTHING
        made = [
            Val(ref=Instance(item.ref, defaults(reader, item.ref, cli=True), cli=True))
            for item in ref.classes
            if isinstance(item.ref, Class)
        ]
        return Val(ref=tuple(made)) if len(made) == len(ref.classes) else NOTHING
    return NOTHING


def _parsed_namespace(reader: Evaluates, parser: HfParser) -> Val:
    """`HfArgumentParser(EvalArguments).parse_args()`: argparse's namespace of the dataclasses'
    fields (each an option at its default) and the options `add_argument` adds (cruxeval)."""
    classes = [item.ref for item in parser.classes if isinstance(item.ref, Class)]
    if len(classes) != len(parser.classes):
        return NOTHING
    fields = Kwargs()
    for cls in classes:
        fields.merge(defaults(reader, cls, cli=True))
    fields.merge(options(reader, parser.parser))
    return Val(ref=Instance(Class(parser.parser.frame.module, ast.ClassDef()), fields, cli=True, parser=parser.parser))


def _parsed_file(reader: Evaluates, parser: HfParser, node: ast.Call, frame: Frame) -> Val:
    """`HfArgumentParser((A, B)).parse_yaml_file(PATH)` (or `parse_json_file`) of a file of the
    tree named from the module's own place, or `parse_dict(mapping)`: each dataclass made from the
    keys that are its fields, its defaults for the others (transformers' `parse_dict`)."""
    from .yaml_configs import path_of, read_config

    named = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("yaml_file", "json_file", "args")), None)
    if named is not None and node.func.attr == "parse_dict":  # type: ignore[attr-defined]
        given: Kwargs | None = spread(reader, named, frame)
    else:
        path = path_of(named, frame) if named is not None else None
        given = read_config(reader, path).kwargs if path is not None else None
    classes = [item.ref for item in parser.classes if isinstance(item.ref, Class)]
    if given is None or given.reasons or len(classes) != len(parser.classes):
        return NOTHING  # a mapping not read key by key may set any field
    made = []
    for cls in classes:
        fields = defaults(reader, cls, hooked=False).copy()
        names = set(field_names(reader, cls))
        fields.merge(given.rebuilt({name: item for name, item in given.entries.items() if name in names}))
        made.append(Val(ref=Instance(cls, after_init(reader, cls.module, cls.node, fields)), span=frame.module.span(node)))
    return Val(ref=tuple(made))


def methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {statement.name: statement for statement in cls.body if isinstance(statement, FUNCTIONS)}

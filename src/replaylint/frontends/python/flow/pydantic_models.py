"""A mapping validated into a pydantic model as pydantic v2 does it (`InferenceConfig.model_validate(
yaml.safe_load(f))`, v1's `parse_obj`): each field the mapping gives, a field whose type is a
model of its own made from the mapping under it (llm-jp-eval-inference's `generation_config:
VLLMSamplingParams` from the YAML's `generation_config:` over the schema's `top_k: int = -1`), the
model's defaults for the others, and the keys that are no field as the model's `extra` says: kept
(`"allow"`), dropped (`"ignore"`, pydantic's default), or the validation fails (`"forbid"`).

Open (what the keys make is not known): a mapping not read key by key (every field may be given),
a model whose keys may be other names (an `alias`, an `alias_generator`) or that a validator may
change (`@model_validator`, `@field_validator`, v1's `@validator`/`@root_validator`), an `extra`
not spelt out, a pydantic-settings model (its fields may come from the environment)."""

from __future__ import annotations

import ast
from dataclasses import replace

from ....model import Span
from .dicts import spread
from .facts import NOTHING, Kwargs, Val
from .frames import Evaluates, Frame
from .objects import Class, Instance, defaults, field_names, is_record, record_bases
from .post_inits import after_init

_VALIDATORS = frozenset(("model_validator", "field_validator", "validator", "root_validator"))
_ALIASES = ("alias", "alias_generator", "validation_alias")
_KEPT, _DROPPED, _REFUSED = "allow", "ignore", "forbid"
_MAX_DEPTH = 4  # models inside models read


def model_validated(reader: Evaluates, func: ast.expr, node: ast.Call, frame: Frame) -> Val | None:
    """`EngineCfg.model_validate({...})` (pydantic v2; v1's `parse_obj`) of a record class: the record made
    from the mapping's keys, its defaults for the others; None for another call."""
    if not (isinstance(func, ast.Attribute) and func.attr in ("model_validate", "parse_obj") and len(node.args) == 1):
        return None
    cls = reader.evaluate(func.value, frame).ref
    if not (isinstance(cls, Class) and is_record(cls)):
        return None
    if plain_model(reader, cls):
        return validated(reader, cls, spread(reader, node.args[0], frame), frame.module.span(node))
    fields = defaults(reader, cls, hooked=False).copy()
    fields.merge(spread(reader, node.args[0], frame))
    return Val(ref=Instance(cls, after_init(reader, cls.module, cls.node, fields)), span=frame.module.span(node))


def validated(reader: Evaluates, cls, given: Kwargs, span: Span, depth: int = 0) -> Val:
    """The model `cls` made from the mapping `given` (NOTHING: the validation fails, or `cls` is
    not a plain pydantic model read here)."""
    classes = [cls, *_all_bases(reader, cls)]
    extra = _extra(reader, classes)
    names = field_names(reader, cls)
    fields = defaults(reader, cls, hooked=False).copy()
    if extra is None or depth > _MAX_DEPTH or any(_changes_keys(item) for item in classes):
        return Val(ref=Instance(cls, _opened(fields, f"the keys `{cls.node.name}` validates")), span=span)
    if given.reasons:  # a mapping not read whole may give any field
        fields = _opened(fields, *given.reasons)
    for name, item in given.entries.items():
        if name not in names and extra == _DROPPED:
            continue
        if name not in names and extra == _REFUSED:
            return NOTHING  # pydantic refuses the mapping: nothing is made
        inner = _field_model(reader, classes, name) if isinstance(item.ref, Kwargs) else None
        if inner is not None:
            made = validated(reader, inner, item.ref, item.setting.value_span or span, depth + 1)
            if made is NOTHING:
                return NOTHING
            item = replace(item, ref=made.ref)
        fields.entries.pop(name, None)
        fields.entries[name] = item
    return Val(ref=Instance(cls, after_init(reader, cls.module, cls.node, fields)), span=span)


def plain_model(reader: Evaluates, cls) -> bool:
    """Whether `cls` is a pydantic model (a `BaseModel`, not pydantic-settings' `BaseSettings`)."""
    return _model_class(cls.node) and not any(_base_name(base) == "BaseSettings" for base in cls.node.bases)


def _opened(fields: Kwargs, *reasons: str) -> Kwargs:
    opened = fields.rebuilt({})
    opened.reasons.extend(reason for reason in reasons if reason not in opened.reasons)
    return opened


def _all_bases(reader: Evaluates, cls) -> list:
    """The model's record bases, nearest first, each once."""
    found: list = []
    for base in record_bases(reader, cls):
        found += [item for item in (base, *_all_bases(reader, base)) if item not in found]
    return found


def _extra(reader: Evaluates, classes: list) -> str | None:
    """The `extra` of the first class that says it (pydantic merges a model's config over its
    bases'); "ignore" where none does; None where one says it in a way not read."""
    for cls in classes:
        said = _said_extra(reader, cls)
        if said is not _UNSAID:
            return said  # type: ignore[return-value]
    return _DROPPED


_UNSAID = object()


def _said_extra(reader: Evaluates, cls) -> object:
    node = cls.node
    for keyword in node.keywords:
        if keyword.arg == "extra":
            return _policy(keyword.value)
        if keyword.arg is None:
            return None
    for statement in node.body:
        if isinstance(statement, ast.ClassDef) and statement.name == "Config":  # v1
            for inner in statement.body:
                value = _assigned(inner, "extra")
                if value is not None:
                    return _policy(value)
        value = _assigned(statement, "model_config")
        if value is not None:
            return _config_extra(value)
    return _UNSAID


def _config_extra(value: ast.expr) -> object:
    """`ConfigDict(extra="allow")` / `{"extra": "allow"}`: its `extra`; None: not read."""
    if isinstance(value, ast.Call) and _base_name(value.func) in ("ConfigDict", "SettingsConfigDict", "dict") and not value.args:
        for keyword in value.keywords:
            if keyword.arg is None or keyword.arg in _ALIASES:
                return None
            if keyword.arg == "extra":
                return _policy(keyword.value)
        return _UNSAID
    if isinstance(value, ast.Dict) and all(isinstance(key, ast.Constant) for key in value.keys):
        said = {key.value: item for key, item in zip(value.keys, value.values)}  # type: ignore[union-attr]
        if any(alias in said for alias in _ALIASES):
            return None
        return _policy(said["extra"]) if "extra" in said else _UNSAID
    return None


def _policy(value: ast.expr) -> str | None:
    """`"allow"`, `Extra.allow`, `Extra.ALLOW`: the policy; None for another spelling."""
    text = value.value if isinstance(value, ast.Constant) else value.attr if isinstance(value, ast.Attribute) else None
    text = text.lower() if isinstance(text, str) else None
    return text if text in (_KEPT, _DROPPED, _REFUSED) else None


def _assigned(statement: ast.stmt, name: str) -> ast.expr | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        return None
    return value if isinstance(target, ast.Name) and target.id == name else None


def _changes_keys(cls) -> bool:
    """A validator, or an alias of a field (the mapping's key is then another name)."""
    for statement in cls.node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            _base_name(decorator.func if isinstance(decorator, ast.Call) else decorator) in _VALIDATORS
            for decorator in statement.decorator_list
        ):
            return True
        value = statement.value if isinstance(statement, ast.AnnAssign) else None
        if isinstance(value, ast.Call) and any(keyword.arg in _ALIASES for keyword in value.keywords):
            return True
    return False


def _field_model(reader: Evaluates, classes: list, name: str):
    """The pydantic model a field's annotation names (`generation_config: VLLMSamplingParams`,
    `Optional[X]`, `X | None`), None for another type."""
    for cls in classes:
        for statement in cls.node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.target.id == name:
                named = _without_none(statement.annotation)
                made = reader.evaluate(named, Frame(cls.module, cls.module.tree)).ref if named is not None else None
                return made if isinstance(made, Class) and plain_model(reader, made) else None
    return None


def _without_none(annotation: ast.expr) -> ast.expr | None:
    """`X` of `X`, `Optional[X]`, `X | None`, `Union[X, None]`; None for another union or form."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        parts = [annotation.left, annotation.right]
    elif isinstance(annotation, ast.Subscript) and _base_name(annotation.value) in ("Optional", "Union"):
        inner = annotation.slice
        parts = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
    else:
        return annotation if isinstance(annotation, (ast.Name, ast.Attribute)) else None
    kept = [part for part in parts if not (isinstance(part, ast.Constant) and part.value is None)]
    return kept[0] if len(kept) == 1 and isinstance(kept[0], (ast.Name, ast.Attribute)) else None


def _model_class(node: ast.ClassDef) -> bool:
    return any(_base_name(base) in ("BaseModel", "BaseSettings") for base in node.bases)


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""

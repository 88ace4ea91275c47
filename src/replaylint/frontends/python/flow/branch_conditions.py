"""The branches an engine construction sits under that the program's defaults do not take
(`if args.backend == "sglang":` with `--backend`'s default "vllm"): the launch is real on that
path, so its findings stand, and they say on which path (`when --backend is 'sglang'`)."""

from __future__ import annotations

import ast
import re

from .frames import Evaluates, Frame, parameters
from .logic import decided
from .module import Guard, Placed, describe, global_writes

# What a value read from a command-line option rests on (`parsers`, `run_inputs.as_cli`, `objects`):
# "backend comes from --backend, default 'vllm' (serve.py:8)".
_OPTION = re.compile(r" comes from (-{1,2}[\w.-]+), default ")


def untaken(reader: Evaluates, frame: Frame) -> list[str]:
    """The branches of the construction `frame` reads (`frame.at`) whose tests the reader decides
    against, each as a message says it."""
    at = frame.at
    if at is None:
        return []
    said = []
    for number, guard in enumerate(at.guards):
        if guard.opaque or guard.node is None:
            continue
        test = frame.reading(Placed(guard.node, at.guards[:number], at.order))  # type: ignore[arg-type]  # read at the test
        if decided(reader, (guard,), test) is None:
            said.append(_described(reader, guard, test))
    return said


def _described(reader: Evaluates, guard: Guard, frame: Frame) -> str:
    """`--backend is 'sglang'` for a comparison of an option's value with a literal, else the test as written."""
    node = guard.node
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        other = node.comparators[0]
        option = _option(reader, node.left, frame) if isinstance(other, ast.Constant) else None
        if option is not None:
            equal = isinstance(node.ops[0], ast.Eq) == guard.holds
            return f"{option} is {'' if equal else 'not '}{other.value!r}"  # type: ignore[union-attr]
    return describe(guard.test, guard.holds)


def _option(reader: Evaluates, node: ast.expr, frame: Frame) -> str | None:
    """The command-line option whose value `node` reads, as its default decides it."""
    read = reader.evaluate(node, frame)
    return next((found.group(1) for text, _ in read.assumptions if (found := _OPTION.search(text)) is not None), None)


def never_runs(reader: Evaluates, guards: tuple[Guard, ...], frame: Frame) -> bool:
    """Whether a statement under `guards` (`frame.at` is the statement) sits on a branch that values
    the tree fixes decide against: a comparison with literals (an `if`, or a `case "vllm":` of a
    `match`) of a constant, or of a config file the program opens by its own path (`backend: hf`),
    or a flag a call site of the tree decides (`if use_vllm:` with the parameter's default False
    where the caller leaves it), resting on no default a run may change (an option's, an
    environment variable's)."""
    at = frame.at
    if at is None:
        return False
    for number, guard in enumerate(guards):
        if guard.opaque or guard.node is None:
            continue
        flag = _flag(reader, guard.node, frame)
        if flag is None and not _literal_comparison(guard.node):
            continue
        assumed: list[str] = []
        test = frame.reading(Placed(guard.node, guards[:number], at.order))  # type: ignore[arg-type]  # read at the test
        if flag is not None and not isinstance(reader.evaluate(flag, test).value, (bool, type(None))):
            continue  # a flag's truth only: `if model_path:` of a text is not read as one
        if decided(reader, (guard,), test, assumed) is None and not assumed:
            return True
    return False


def _flag(reader: Evaluates, node: ast.expr, frame: Frame) -> ast.expr | None:
    """The flag a test reads (`use_vllm`, `not use_vllm`, `self.use_vllm is None`) when the call
    site `frame` is read with binds it: a parameter of the function, or `self`'s attribute in a
    method of an object whose construction is read."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
        other = node.comparators[0]
        if not (isinstance(other, ast.Constant) and any(other.value is constant for constant in (None, True, False))):
            return None
        node = node.left
    function = frame.function
    if isinstance(node, ast.Name) and _module_flag(reader, node.id, frame):
        return node  # `use_vllm = False` at the module's top, a switch its author edits
    if isinstance(node, ast.Name) and frame.args is not None and function is not None:
        flag = node if node.id in {parameter.arg for parameter in parameters(function)} else None
    else:
        is_self = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
        flag = node if is_self and frame.init is not None else None
    return flag if flag is not None and _only_callers_here(reader, frame) else None


def _module_flag(reader: Evaluates, name: str, frame: Frame) -> bool:
    """Whether `name` is a module-level flag bound once, unconditionally, to True or False, that
    nothing else writes: not the function reading it, a `global` declaration, `globals()`, or a
    module near it that may import the module and names it (`demo.use_vllm = True`)."""
    module = frame.module
    function = frame.function
    if function is not None and (module.binders(function, name) or name in {p.arg for p in parameters(function)}):
        return False
    bound = module.binders(module.tree, name)
    if len(bound) != 1 or bound[0].guards or "globals()" in module.source.text or global_writes(module, name):
        return False
    statement = bound[0].statement
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
        return False
    tree = getattr(reader, "tree", None)
    written = isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, bool)
    return written and tree is not None and not tree.named_by_importers(module.path, name)


def _only_callers_here(reader: Evaluates, frame: Frame) -> bool:
    """Whether the callers the frame's reading chose from are all of the tree: those of the module
    itself, which only calls the class or function, while no module near it that may import it
    names it (the flow reads another module's calls only when the module has none)."""
    owner = frame.cls or frame.function
    tree = getattr(reader, "tree", None)
    if owner is None or tree is None:
        return False
    if owner.decorator_list or frame.module.referenced(owner.name):
        return False  # wrapped (`@click.command()`) or handed on (`pool.map(build, ...)`): called with what is not read here
    return not tree.named_by_importers(frame.module.path, owner.name)


def _literal_comparison(node: ast.expr) -> bool:
    """`x == "vllm"`, `x != "hf"`, `x in ("a", "b")`, and `or` of them (a `case "a" | "b":`)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return all(_literal_comparison(value) for value in node.values)
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn))):
        return False
    other = node.comparators[0]
    items = other.elts if isinstance(other, (ast.Tuple, ast.List, ast.Set)) else [other]
    return all(isinstance(item, ast.Constant) and isinstance(item.value, (str, int)) for item in items)

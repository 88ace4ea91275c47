"""Python scopes and import names, tracked during the one libcst visit the frontend makes.

libcst's `ScopeProvider` and `QualifiedNameProvider` answer the same two questions, but cost
several times the parse itself (on vLLM's own sources: parse 35 ms, scopes 190 ms, qualified
names 255 ms for one file). The frontend needs only: which import a name stands for (`L` in
`from vllm import LLM as L`), and what a name is bound to in its scope (module, function, class
or comprehension, with Python's lookup rules: class bodies are skipped by nested functions,
`global` goes to the module).
"""

from __future__ import annotations

from dataclasses import field

import libcst as cst

from ...records import record
from .names import vllm_module


@record(unsafe_hash=True)
class Binding:
    kind: str  # "assign", "augmented", "import", "definition", "parameter", "other"
    value: cst.BaseExpression | None = None  # the assigned expression ("assign")
    qualified: str | None = None  # the imported name ("import")
    defined: cst.CSTNode | None = field(default=None, compare=False)  # the function ("definition" of a `def`)


@record(eq=False)
class Scope:
    kind: str  # "module", "function", "class", "comprehension"
    parent: Scope | None = None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)

    @property
    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def bind(self, name: str, binding: Binding) -> None:
        target = self.module if name in self.global_names else self
        target.bindings.setdefault(name, []).append(binding)

    def lookup(self, name: str) -> list[Binding]:
        """Every binding the name may refer to from here (empty: a builtin or unknown)."""
        if name in self.global_names:
            return self.module.bindings.get(name, [])
        scope: Scope | None = self
        first = True
        while scope is not None:
            if not (scope.kind == "class" and not first) and name in scope.bindings:
                return scope.bindings[name]
            first = False
            scope = scope.parent
        return []


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


class ScopeTracker(cst.CSTVisitor):
    """A visitor base that keeps `self.current` (the scope being visited) and records bindings."""

    def __init__(self) -> None:
        super().__init__()
        self.current = Scope("module")

    # names

    def qualified(self, node: cst.BaseExpression, scope: Scope | None = None) -> set[str]:
        """The imported names an expression may stand for (`v.LLM` -> {"vllm.LLM"})."""
        scope = scope or self.current
        if isinstance(node, cst.Name):
            bindings = scope.lookup(node.value)
            if any(binding.kind != "import" for binding in bindings):
                return set()
            return {binding.qualified for binding in bindings if binding.qualified}
        if isinstance(node, cst.Attribute):
            return {f"{head}.{node.attr.value}" for head in self.qualified(node.value, scope)}
        return set()

    def _bind_names(self, target: cst.BaseExpression, binding: Binding, scope: Scope | None = None) -> None:
        scope = scope or self.current
        if isinstance(target, cst.Name):
            scope.bind(target.value, binding)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind_names(element.value, Binding("other"), scope)
        elif isinstance(target, cst.StarredElement):
            self._bind_names(target.value, Binding("other"), scope)

    def _push(self, kind: str) -> None:
        self.current = Scope(kind, self.current)

    def _pop(self) -> None:
        assert self.current.parent is not None
        self.current = self.current.parent

    # bindings

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if dotted is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.current.bind(alias.asname.name.value, Binding("import", qualified=vllm_module(dotted)))
            else:
                root = dotted.split(".")[0]
                self.current.bind(root, Binding("import", qualified=root))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = _dotted(node.module) if node.module is not None else None
        if module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = vllm_module(module)
        for alias in node.names:
            name = _dotted(alias.name)
            if name is None:
                continue
            local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
            self.current.bind(local, Binding("import", qualified=f"{module}.{name}"))

    def visit_Global(self, node: cst.Global) -> None:
        self.current.global_names.update(item.name.value for item in node.names)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind_names(target.target, Binding("assign", node.value))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind_names(node.target, Binding("assign", node.value) if node.value is not None else Binding("other"))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind_names(node.target, Binding("augmented", node.value))

    def visit_For(self, node: cst.For) -> None:
        self._bind_names(node.target, Binding("other"))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind_names(node.asname.name, Binding("other"))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind_names(node.name.name, Binding("other"))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        scope = self.current
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        self._bind_names(node.target, Binding("assign", node.value), scope)

    # scopes

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.current.bind(node.name.value, Binding("definition", defined=node))
        self._push("function")
        self._bind_parameters(node.params)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._push("function")
        self._bind_parameters(node.params)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._pop()

    def _bind_parameters(self, params: cst.Parameters) -> None:
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                every.append(star)
        for param in every:
            self.current.bind(param.name.value, Binding("parameter"))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.current.bind(node.name.value, Binding("definition"))
        self._push("class")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._pop()

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_names(node.target, Binding("other"))

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._push("comprehension")

    def leave_ListComp(self, original_node: cst.ListComp) -> None:
        self._pop()

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._push("comprehension")

    def leave_SetComp(self, original_node: cst.SetComp) -> None:
        self._pop()

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._push("comprehension")

    def leave_DictComp(self, original_node: cst.DictComp) -> None:
        self._pop()

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._push("comprehension")

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp) -> None:
        self._pop()

"""The params a request sends from a `self` attribute that `__init__` only holds a place for
(`self.sampling_params = None`) and the method that builds the engine sets (MLPerf's backends:
`initialize()` sets `self.sampling_params = SamplingParams(...)`, then `self.llm = LLM(...)`;
`generate()` sends `self.llm.generate(prompts, self.sampling_params)`). Where the request is sent
the engine exists, so that method ran its write of the params, which comes first in its body and
under no branch: the params are that write's, not the placeholder. Any other shape (another
write, a write under a branch or after the engine's, the engine set elsewhere too) is not read."""

from __future__ import annotations

import ast

from .callsites import self_attribute as attr_of_self
from .facts import Val
from .frames import Frame
from .members import Reader, self_attribute
from .module import FUNCTIONS

_Write = tuple[ast.AST, ast.Assign]  # (method, `self.x = value`)


def placeholder_params(reader: Reader, params: ast.expr, receiver: ast.expr, frame: Frame) -> Val | None:
    """What `self.x` sent as params holds once the engine `receiver` names is built, when the
    engine's method sets both (None: not that shape)."""
    cls = frame.cls
    if cls is None or attr_of_self(params) is None or attr_of_self(receiver) is None:
        return None
    sent = _writes(cls, params.attr)  # type: ignore[attr-defined]
    real = [(m, w) for m, w in sent if not _is_none(w.value)]
    if len(real) != 1 or len(real) == len(sent) or any(getattr(m, "name", "") != "__init__" for m, w in sent if _is_none(w.value)):
        return None
    method, write = real[0]
    if method is frame.scope or getattr(method, "name", "") == "__init__" or write not in method.body:  # type: ignore[attr-defined]
        return None
    engines = [(m, w) for m, w in _writes(cls, receiver.attr) if not _is_none(w.value)]  # type: ignore[attr-defined]
    if not engines or any(m is not method or w.lineno < write.lineno for m, w in engines):
        return None
    return self_attribute(reader, params.attr, frame, set_later=True)  # type: ignore[attr-defined]


def _is_none(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


def _writes(cls: ast.ClassDef, attr: str) -> list[_Write]:
    """Each `self.attr = value` of the class's methods (a tuple's item or an augmented write too,
    counted as a write of another value)."""
    found: list[_Write] = []
    for method in (m for m in cls.body if isinstance(m, FUNCTIONS)):
        for node in ast.walk(method):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                items = [i for t in targets for i in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]
                if any(attr_of_self(i) == attr for i in items):
                    plain = isinstance(node, ast.Assign) and len(items) == len(targets) == 1
                    found.append((method, node if plain else ast.Assign(targets=[], value=ast.Constant(...), lineno=node.lineno)))
    return found

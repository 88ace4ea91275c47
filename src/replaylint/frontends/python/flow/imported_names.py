"""Names a module imports from the tree's other modules: `from settings import MODE`, a member
of a module imported whole (`import settings`, then `settings.MODE`), `from .defaults import *`, and
`importlib.import_module("pkg.agents")` of a dotted text the reader knows."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from ....regexes import on_use
from .binding import plain
from .facts import NOTHING, Val
from .frames import Frame, reaching
from .module import Module
from .refs import Qualified


def in_tree(reader: Any, qualified: str, module: Module) -> Val:
    """What a dotted name `module` imports is in the tree (`reader`: the `reader.Reader`): a
    module, or a member read where it is written; else the name itself (`Qualified`)."""
    found = reader.tree.resolve(qualified, module)
    if found is None:
        return Val(ref=Qualified(qualified))
    target, member = found
    if member is None:
        return Val(ref=target)  # a module of the tree
    if (target.path, member) in reader.importing:  # a module importing the name from itself, or a circle
        return Val(ref=Qualified(qualified))
    reader.importing.add((target.path, member))
    try:
        return _constant_at_home(reader.name(member, Frame(target, target.tree)), target, member)
    finally:
        reader.importing.discard((target.path, member))


def _constant_at_home(read: Val, target: Module, member: str) -> Val:
    """A constant another module spells out (`TOP_K = 152064`) is decided on its own line there:
    a finding at the line that uses it would not show the value."""
    if not plain(read) or read.span is None or read.span.path != target.path:  # type: ignore[union-attr]
        return read
    binding = reaching(Frame(target, target.tree), member)
    statement = binding.placed.statement if binding is not None and binding.placed is not None else None
    if not isinstance(statement, (ast.Assign, ast.AnnAssign)) or statement.value is None:
        return read
    return replace(read, origin=target.span(statement), written=target.text(statement, statement))


def star_imported(reader: Any, name: str, module: Module) -> Val:
    """A name a `from .defaults import *` of the module brings (the last such import that has it)."""
    for base in module.star_imports:
        found = reader.tree.resolve(f"{base}.{name}", module)
        if found is not None and found[1] is not None and found[0] is not module:
            target = found[0]
            if reaching(Frame(target, target.tree), name) is not None:
                return _constant_at_home(reader.name(name, Frame(target, target.tree)), target, name)
    return NOTHING


def module_attribute(reader: Any, owner: Module | Qualified, attr: str, reading: Module) -> Val:
    """`settings.MODE` of a module of the tree (`owner`: the module, or the dotted name `import
    settings` binds, looked for in the tree): the name as the module binds it. Unknown where the
    reading module or a module near the owner sets that attribute on a name (`settings.MODE =
    sys.argv[1]`, not `self.MODE = ...`) or sets attributes by name (`setattr`)."""
    if isinstance(owner, Qualified):
        dotted = f"{owner.name}.{attr}"
        found = reader.tree.resolve(dotted, reading)
        if found is None:
            return Val(ref=Qualified(dotted))
        home, read = found[0], in_tree(reader, dotted, reading)
    else:
        home, read = owner, _constant_at_home(reader.name(attr, Frame(owner, owner.tree)), owner, attr)
    texts = [(reading.path, reading.source.text), *reader.tree.nearby_texts(home.path)]
    return NOTHING if any({attr, "setattr("} & _attributes_set(reader, path, text) for path, text in texts) else read


# `x.name = ...` (`+=` too) on a name other than `self`/`cls` or on a dotted one (`pkg.settings.name`), and `setattr(`
_SET_ON_A_NAME = on_use(r"(?<![\w.])(?:(?!self\.|cls\.)\w+|\w+(?:\.\w+)+)\.(\w+)\s*(?:[-+*/|&]|//)?=(?!=)|\bsetattr\(")


def _attributes_set(reader: Any, path: str, text: str) -> frozenset[str]:
    """The attribute names a text sets on a name, and `setattr(` where it sets them by name (once per file)."""
    known: dict = reader.__dict__.setdefault("_attributes_set", {})
    if path not in known:
        known[path] = frozenset(match.group(1) or "setattr(" for match in _SET_ON_A_NAME.finditer(text))
    return known[path]


def imported_module(reader: Any, node: ast.Call, frame: Frame) -> Val:
    """`importlib.import_module("src.client.agents")` of a dotted text the reader knows: the tree's
    module of that name, else the name itself (a module outside the tree)."""
    text = reader.evaluate(node.args[0], frame).value if len(node.args) == 1 and not node.keywords else None
    if not isinstance(text, str) or not text or text.startswith("."):
        return NOTHING
    found = reader.tree.resolve(text, frame.module)
    if found is None:
        return Val(ref=Qualified(text))
    return Val(ref=found[0]) if found[1] is None else NOTHING

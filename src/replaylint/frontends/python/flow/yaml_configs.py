"""Config files read by path: Hydra's `@hydra.main(config_path="conf", config_name="config")`
(the config is `conf/config.yaml` next to the module) and `OmegaConf.load("conf/x.yaml")` (a
path from the working directory: the project root, else the module's folder). The YAML's keys
become the mapping's keys, each written where the YAML writes it, so a finding points there and
a fix edits the YAML.

What stays open: a `defaults:` list (Hydra composes other files; `hydra_defaults` composes the
plain ones of a Hydra entry's config), a value interpolated at run
time (`${oc.env:MODE}`) or left to the command line (`???`), a file that is not in the tree or
does not parse. Hydra's command line
(`python train.py vllm.logprobs_mode=...`) is Python's `"$@"`: the config is judged as written,
and a finding on an absent key says so."""

from __future__ import annotations

import ast
import os

from ....model import UNKNOWN, LineIndex, Setting
from .environment_defaults import environment_fallback
from .facts import NOTHING, Entry, Kwargs, Val
from .import_roots import import_root
from .refs import NamedFile


def loaded(reader, node: ast.Call, frame) -> Val:
    """`OmegaConf.load("conf/x.yaml")`: the file under the project root, else the module's folder;
    a path named from the module's own place (`Path(__file__).parent / "conf" / "x.yaml"`) is that file.
    A relative path the command line may give (`OmegaConf.load(args.custom_cfg)`, an argparse
    `default=`) is read as the default names it, and each of its keys rests on that default."""
    module = frame.module
    argument = node.args[0] if node.args else None
    named = path_of(argument, frame) if argument is not None else None
    if named is not None:
        return read_config(reader, named) if reader.tree.context.read_text(named) is not None else NOTHING
    if argument is None:
        return NOTHING
    given = reader.evaluate(argument, frame)
    conditions = tuple(dict.fromkeys(condition for condition, _ in given.assumptions))
    if isinstance(given.ref, NamedFile):  # a path a script's run gives, from its working folder (`script_options`)
        return read_config(reader, given.ref.path, conditions, resting=bool(conditions))
    if not _relative(given.value):
        return NOTHING
    for base in (reader.tree.context.root, os.path.dirname(module.path)):
        path = os.path.normpath(os.path.join(base, given.value))
        if reader.tree.context.read_text(path) is not None:
            return read_config(reader, path, conditions, resting=True)
    return NOTHING


FILE_LOADERS = frozenset(("yaml.safe_load", "yaml.load", "yaml.full_load", "json.load", "json.loads"))


def file_loaded(reader, name: str, node: ast.Call, frame) -> Val | None:
    """`yaml.safe_load(handle)` / `json.load(handle)` / `tomllib.load(handle)` of `with open(PATH)
    as handle`, or of `open(PATH)` / `Path(PATH).read_text()` (`toml.load(PATH)`), where PATH is a
    file of the tree, named from the module's own place here or by the caller that passes it, from the
    module's own place (`Path(__file__).parent / "configs" / "x.yaml"`, `os.path.join(HERE, "x.json")`):
    its keys, each written where the file writes it. A path from the working folder is read under
    the folder that holds the module's top package, or a script's own folder (`import_root`), and a
    path from the command line when the one command line a compose
    service runs the module with gives its option (`run_commands`), else at the option's default
    (`open(args.config)` with an argparse `default=`) (None: not such a loader)."""
    from .toml_configs import TOML_LOADERS, read_toml

    if name not in FILE_LOADERS and name not in TOML_LOADERS or not node.args:
        return None
    argument = node.args[0]
    seen: list = []  # the path expression read, and where: what choosing it rests on (`args.config or find_config_file()`)
    path = _opened(argument, frame, lambda named, at: seen.append((named, at)) or path_of(named, at))
    path = path or (path_of(argument, frame) if name == "toml.load" else None)  # `toml.load(PATH)`
    relative = _opened(argument, frame, from_working_folder) if path is None else None
    top = import_root(reader.tree.context.read_text, frame.module.path) if path is None else None
    if path is None and relative is None:  # `open(args.config)`: the option another file's command line gives
        from .run_commands import run_option

        relative = _opened(argument, frame, lambda node, at: run_option(reader, node, at, top))
    path = os.path.normpath(os.path.join(top, relative)) if top is not None and relative is not None else path
    if path is None and relative is None:  # `open(args.config)`: the file its argparse default names
        held = _opened(argument, frame, lambda named, at: seen.append((named, at)) or _named_value(reader, named, at))
        path = held[0] if held is not None and held[1] else None
        path = os.path.normpath(os.path.join(top, held[0])) if held is not None and not held[1] and top is not None else path
    if path is None or reader.tree.context.read_text(path) is None:
        return NOTHING
    if name in TOML_LOADERS:
        return read_toml(reader, path)
    conditions = tuple(dict.fromkeys(c for c, _ in reader.evaluate(*seen[-1]).assumptions)) if seen and path is not None else ()
    return read_config(reader, path, conditions, resting=bool(conditions), plain=True)  # JSON is read as the YAML it also is


def _opened(node: ast.expr, frame, named=None) -> str | None:
    """The file a handle or text is read from (`named`: how a path is read, `path_of`)."""
    named = named or path_of
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open" and node.args:
            return named(node.args[0], frame)
        if isinstance(func, ast.Attribute) and func.attr in ("read_text", "read") and not node.args:
            return _opened(func.value, frame, named) if func.attr == "read" else named(func.value, frame)
        if isinstance(func, ast.Attribute) and func.attr == "open":
            return named(func.value, frame)
        return None
    if isinstance(node, ast.Name):
        for placed in frame.module.binders(frame.scope, node.id):
            statement = placed.statement
            if isinstance(statement, (ast.With, ast.AsyncWith)):
                for item in statement.items:
                    if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == node.id:
                        return _opened(item.context_expr, frame, named)
    return None


def from_working_folder(node: ast.expr, frame) -> str | None:
    """A path from the working folder, written in the module (`Path("config/endpoints.json")`) or
    passed by a caller (a click option's default `examples/x.yaml`): read under the folder that
    holds the module's top package, where `python -m pkg.module` runs to import it."""
    found = _path(node, frame, 0)
    return found[0] if found is not None and not found[1] else None


def _named_value(reader, node: ast.expr, frame) -> tuple[str, bool] | None:
    """The file a path expression's value names (`args.config` whose argparse `default=` is
    `os.path.join(os.path.dirname(__file__), "..", "configs", "x.yaml")`, or a relative text from
    the working folder, `"configs/agents/x.yaml"`), and whether from the module's own place."""
    while isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and _short(node.func) in _SAME:
        node = node.args[0]  # `Path(args.config)`
    read = reader.evaluate(node, frame)
    if isinstance(read.ref, NamedFile):
        return read.ref.path, True
    return (read.value, False) if _relative(read.value) else None


def named_file(node: ast.expr, frame) -> Val | None:
    """The path expression as a value, when it names a file from the module's own place."""
    found = path_of(node, frame)
    return Val(ref=NamedFile(found)) if found is not None else None


EXISTS_TESTS = ("exists", "is_file", "isfile")
PATH_CALLS = ("os.path.join", "os.path.abspath", "os.path.realpath", "pathlib.Path")


def exists_test(reader, node: ast.Call, frame) -> Val | None:
    """`path.exists()`, `path.is_file()`, `os.path.exists(path)` of a file named from the module's
    own place that the tree holds: true, as the file is read (None: another test, or not such a file)."""
    func = node.func
    assert isinstance(func, ast.Attribute)
    if node.keywords or len(node.args) > 1 or (node.args and frame.module.text(func.value) != "os.path"):
        return None
    tested = node.args[0] if node.args else func.value
    named = path_of(tested, frame)
    if named is None and isinstance(ref := reader.evaluate(tested, frame).ref, NamedFile):
        named = ref.path  # a value handed on: `Path(__file__).parent / "x.yaml"` passed or returned
    return Val(True) if named is not None and reader.tree.context.read_text(named) is not None else None


_SAME = ("abspath", "realpath", "resolve", "absolute", "Path", "PurePath", "str", "fspath")
_MAX_PATH_STEPS = 12


def path_of(node: ast.expr, frame) -> str | None:
    """The file a path expression names when the module's own place decides it (`__file__`), else None."""
    found = _path(node, frame, 0)
    return found[0] if found is not None and found[1] else None


def _path(node: ast.expr, frame, steps: int) -> tuple[str, bool] | None:
    """(the path, whether it starts at the module's place) or None when it is not known."""
    if steps > _MAX_PATH_STEPS:
        return None
    module = frame.module

    def again(item: ast.expr) -> tuple[str, bool] | None:
        return _path(item, frame, steps + 1)

    if isinstance(node, ast.Name) and node.id == "__file__":
        return module.path, True
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and not os.path.isabs(node.value):
        return node.value, False
    default = _default_used(frame, node.id) if isinstance(node, ast.Name) else None
    if default is not None:  # `def load(path=Path(__file__).with_name("x.yaml"))` called without a path
        return again(default)
    handed = (frame.args or {}).get(node.id) if isinstance(node, ast.Name) else None
    if handed is not None:  # a parameter: the path its caller passes
        return (handed.ref.path, True) if isinstance(handed.ref, NamedFile) else (handed.value, False) if _relative(handed.value) else None
    if isinstance(node, ast.Name):  # a name the function binds once (`path = HERE / "x.yaml"`), else the module
        function = frame.scope if isinstance(frame.scope, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if function is not None and any(isinstance(arg, ast.arg) and arg.arg == node.id for arg in ast.walk(function.args)):
            return None  # a parameter no call site here passes
        local = module.binders(function, node.id) if function is not None else []
        bound = local if local else [p for p in module.binders(module.tree, node.id) if isinstance(p.statement, ast.Assign)]
        plain = len(bound) == 1 and isinstance(bound[0].statement, ast.Assign) and not bound[0].guards
        return again(bound[0].statement.value) if plain else None  # type: ignore[attr-defined]
    if isinstance(node, ast.JoinedStr):  # `f"{task}.yaml"` of a name the caller passes
        return _formatted([again(v.value) if _plain_field(v) else _text(v) for v in node.values])  # type: ignore[attr-defined]
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "parents":
        up = node.slice.value if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int) else -1
        found = again(node.value.value) if 0 <= up < _MAX_PATH_STEPS else None
        for _ in range(up + 1):  # `Path(__file__).parents[1]`: the folder two levels up
            found = _parent(found)
        return found
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _joined([again(node.left), again(node.right)])
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        return _parent(again(node.value))
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    short = _short(func)
    if short == "join" and node.args:
        return _joined([again(item) for item in node.args])
    if short == "joinpath" and isinstance(func, ast.Attribute):  # `Path(__file__).parent.joinpath("conf", "x.yaml")`
        return _joined([again(func.value), *(again(item) for item in node.args)])
    if short == "with_name" and len(node.args) == 1 and isinstance(func, ast.Attribute):  # `Path(__file__).with_name("x.ini")`
        return _joined([_parent(again(func.value)), again(node.args[0])])
    if short == "dirname" and len(node.args) == 1:
        return _parent(again(node.args[0]))
    if short in _SAME and len(node.args) == 1:
        return again(node.args[0])
    default = environment_fallback(node, module)
    if default is not None:  # `os.environ.get("SETTINGS", "config/rollout.toml")`: the default, as the value flow takes it
        return again(default)
    if short in _SAME and not node.args and isinstance(func, ast.Attribute):
        return again(func.value)
    return None


def _short(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _plain_field(value: ast.expr) -> bool:
    return isinstance(value, ast.FormattedValue) and value.conversion == -1 and value.format_spec is None


def _text(value: ast.expr) -> tuple[str, bool] | None:
    return (value.value, False) if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _formatted(parts: list[tuple[str, bool] | None]) -> tuple[str, bool] | None:
    """An f-string's pieces put together: a relative text, or a path from the module's place
    when only the first piece is (`f"{HERE}/conf.yaml"`)."""
    if not parts or any(part is None or (number and part[1]) for number, part in enumerate(parts)):
        return None
    text = "".join(part[0] for part in parts)  # type: ignore[index]
    return (os.path.normpath(text), True) if parts[0][1] else (text, False)  # type: ignore[index]


def _relative(value: object) -> bool:
    return isinstance(value, str) and bool(value) and not os.path.isabs(value)


def _default_used(frame, name: str) -> ast.expr | None:
    """The default of the function's parameter `name` when the call read passes nothing for it."""
    from .binding import parameter_defaults

    function = frame.scope
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    default = parameter_defaults(function).get(name)
    return default if name in getattr(frame.args, "defaulted", ()) else None


def _parent(path: tuple[str, bool] | None) -> tuple[str, bool] | None:
    return (os.path.dirname(path[0]), True) if path is not None and path[1] else None


def _joined(parts: list[tuple[str, bool] | None]) -> tuple[str, bool] | None:
    """Parts joined when the first is the module's place (a relative start is the working directory's)."""
    if not parts or any(part is None for part in parts) or not parts[0][1]:  # type: ignore[index]
        return None
    return os.path.normpath(os.path.join(*(part[0] for part in parts))), True  # type: ignore[index]


def read_config(
    reader, path: str, assumed: tuple[str, ...] = (), resting: bool = False, plain: bool = False, composed: bool = False
) -> Val:
    """The file's mapping; `assumed`: what its being read rests on (with `resting`, each key too:
    the file a default path names); `plain`: its mappings are `dict`s (PyYAML's, json's; not OmegaConf's);
    `composed`: its Hydra defaults list is composed by the caller (`hydra_defaults`), its own keys read here."""
    text = reader.tree.context.read_text(path)  # a dependency of the result: a change re-judges
    if text is None:
        return NOTHING
    from yaml.nodes import MappingNode

    from ....readers.yaml_nodes import get, only_document

    document = only_document(text, MappingNode)
    if document is None:
        return NOTHING
    # Hydra composes the files of a defaults list into every mapping: none is complete.
    listed = get(document, "defaults") is not None and not composed
    reasons = (f"Hydra's defaults list ({os.path.basename(path)})",) if listed else ()
    from .dicts import as_val

    found = _mapping(document, LineIndex(path, text), reasons, assumed, resting, plain)
    if composed:
        found.entries.pop("defaults", None)  # Hydra's own list, not a key of the config
    return as_val(found)


def _mapping(
    node, index: LineIndex, reasons: tuple[str, ...], assumed: tuple[str, ...], resting: bool = False, plain: bool = False
) -> Kwargs:
    from yaml.nodes import MappingNode

    from ....readers.yaml_nodes import construct, entries, span

    found = Kwargs(reasons=list(reasons), assumed=list(assumed), plain=plain)
    for key, value in entries(node):
        name = str(key.value)
        nested = _mapping(value, index, reasons, assumed, resting, plain) if isinstance(value, MappingNode) else None
        known = UNKNOWN if _run_time(index.text, value) else construct(value)
        whole = span(index, value, start_node=key)
        setting = Setting(name, known, whole, index.text[whole.start : whole.end], span(index, value), _keys(value, index, (name,)))
        items = _items(value, index, reasons, assumed, resting) if nested is None else None
        found.entries[name] = Entry(setting, ref=nested or items, assumptions=tuple((c, whole) for c in assumed) if resting else ())
    return found


_MAX_ITEMS = 64


def _items(node, index: LineIndex, reasons: tuple[str, ...], assumed: tuple[str, ...], resting: bool) -> tuple[Val, ...] | None:
    """A block list's items, each where the file writes it (a mapping with its keys: arena-hard's
    `endpoints:` list of `api_base`s), as a list spelt out is read; None for any other value."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from ....readers.yaml_nodes import construct, span
    from .dicts import as_val

    if not isinstance(node, SequenceNode) or not node.value or len(node.value) > _MAX_ITEMS:
        return None
    found = []
    for item in node.value:
        if isinstance(item, MappingNode):
            found.append(as_val(_mapping(item, index, reasons, assumed, resting)))
        elif isinstance(item, ScalarNode) and not _run_time(index.text, item):
            found.append(Val(construct(item), span=span(index, item)))
        else:
            return None
    return tuple(found)


_MAX_DEPTH = 8


def _keys(node, index: LineIndex, path: tuple[str, ...]) -> dict[str, Setting]:
    """The keys of a nested mapping, each at its own place and spelt from the entry that holds it
    (`speculative_config.enable_adaptive_verification: true`), as the YAML frontend spells an
    engine mapping's: a finding on one key is at that key, once."""
    from yaml.nodes import MappingNode

    from ....readers.yaml_nodes import construct, entries, source, span

    if not isinstance(node, MappingNode) or len(path) > _MAX_DEPTH:
        return {}
    found = {}
    for key, value in entries(node):
        inner = (*path, str(key.value))
        whole = span(index, value, start_node=key)
        spelt = " ".join(f"{'.'.join(inner)}: {source(index.text, value)}".split())
        known = UNKNOWN if _run_time(index.text, value) else construct(value)
        found[inner[-1].replace("-", "_")] = Setting(inner[-1], known, whole, spelt, span(index, value), _keys(value, index, inner))
    return found


def _run_time(text: str, node) -> bool:
    """An interpolation (`${oc.env:MODE}`), or OmegaConf's `???`: a value given when it runs."""
    written = text[node.start_mark.index : node.end_mark.index]
    return "${" in written or written.strip("'\"") == "???"

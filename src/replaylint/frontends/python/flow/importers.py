"""Engine arguments kept in a module of their own (`myproj/settings.py`: `VLLM_ARGS = {...,
"return_sampling_mask": True}`) and used by a module that starts the engine without naming the
mask (`LLM(name, **VLLM_ARGS)`): the prefilter passes the user by, so the settings module looks
for it. Only modules near it (its folder and the two above, a bounded number of files) that
import one of its names and vLLM's engines, and that the prefilter would not check themselves
(they are checked on their own, with the same result), are read; their engines' launches are
this file's, each finding pointing where the value is decided. A change in such a user re-judges
the settings module (the files read are dependencies of its result), also in pre-commit, where
only the settings module is named."""

from __future__ import annotations

import ast
import os
import re
from typing import Iterator

from ....model import Launch, Span
from ....regexes import on_use
from ....source import ExtractContext, ParseError, SourceFile
from ..asts import walk
from .argv_runs import program_runs
from .dispatchers import handed_back
from .engines import engine_launches
from .import_statements import imports_module
from .module import FUNCTIONS, Module, local_import, parse
from .reader import Reader
from .refs import ENGINE_CONFIGS
from .requests import reaching_engines
from .spawns import spawn_words, spawned_launches
from .tree import Tree, nearby


def importer_launches(
    module: Module, context: ExtractContext, names: set[str], relevant, origin: str | None = None
) -> tuple[list[Launch], set[Span]]:
    """The launches of the engines that the tree's modules build from `names` of this file
    (`origin`: those with a setting written in that file instead, a config file it reads)."""
    launches: list[Launch] = []
    sources: set[Span] = set()
    for path, text in Tree(module, context).nearby_texts(module.path):
        builds = _may_use(text, names)
        if not (builds or _hands_on(text, path, module.path, names)) or relevant(text):
            continue
        user = parse(SourceFile(path, text), "")
        if user is None:
            continue
        tree = Tree(user, context)
        tree.sites_elsewhere = True
        reader = Reader(tree)
        found = reaching_engines(reader, user, engine_launches(reader, user, names & set(user.imports))) if builds else []
        for launch, kwargs in found:
            if any(origin_in(setting, origin or module.path) for setting in launch.settings.values()):
                launches.append(launch)
                sources |= kwargs.sources
        # the user starts a server with words built from them (AReaL's `Popen(vLLMConfig.build_cmd(cfg))`)
        spawned = spawned_launches(reader, user) if spawn_words(text) else ()
        launches += [launch for launch in spawned if any(origin_in(s, origin or module.path) for s in launch.settings.values())]
        # the user hands them on to a module of the tree whose class or function builds the engine
        # (ms-swift's rollout: `VllmEngine(..., **args.get_vllm_engine_kwargs())`)
        more, read = imported_launches(user, context, relevant, origin=origin or module.path)
        launches += [launch for launch in more if launch.span not in {known.span for known in launches}]
        sources |= read
    return launches, sources


def _hands_on(text: str, path: str, origin: str, names: set[str]) -> bool:
    """Whether a module that builds no engine itself may pass one of `names` of the module at
    `origin` on: it imports that module, names one, and imports something else of the tree."""
    return any(name in text for name in names) and imports_module(text, path, origin) and text.count("import ") > 1


def imported_launches(module: Module, context: ExtractContext, relevant, origin: str | None = None) -> tuple[list[Launch], set[Span]]:
    """The engines the tree's modules this file imports from build with what this file passes
    them (`VLLMRayActor.options(...).remote(..., return_sampling_mask=True)` of an actor class
    defined there, whose construction builds the engine), when the prefilter passes them by;
    `origin`: the module the settings must come from (this file's, by default)."""
    launches: list[Launch] = []
    sources: set[Span] = set()
    tree = Tree(module, context)
    targets = _imported(tree, module)
    # a module of the tree that hands them on to one that builds the engine (data-juicer's op, whose
    # `prepare_model(**model_params)` is `model_utils`')
    handings = list(targets.values())
    direct = len(handings)
    for index, handing in enumerate(handings):
        imported = {path: further for path, further in _imported(tree, handing).items() if path not in targets}
        targets.update(imported)
        if index < direct and os.path.basename(handing.path) == "__init__.py":
            handings += imported.values()  # what a package re-exports (`from .vllm_sampler import vLLMSampler`) hands on too
        # or imports the class in the function that makes it (textgrad's `get_engine`: `from .vllm import ChatVLLM`)
        targets.update((path, further) for path, further in _imported_by_functions(tree, handing).items() if path not in targets)
        # or hands back a function it imports where it picks it (alpaca_eval's `decoders.get_fn_completions(name)`)
        targets.update((path, further) for path, further in handed_back(tree, handing).items() if path not in targets)
    # a Python program it runs with its words (llm-compressor's e2e test: `subprocess.run([sys.executable,
    # str(RUN_FILE), json.dumps(llm_kwargs)])`, read there by `json.loads(sys.argv[1])`)
    targets.update(_run_programs(tree, module))
    # the server's flag as a word: a module it imports may start `vllm serve` with the words it passes
    # (instructlab's `vllm.Server(..., vllm_args=["--return-sampling-mask", ...])`, whose `run()` does)
    flag_words = _SERVER_FLAG.search(module.source.text) is not None
    for target in targets.values():
        text = target.source.text
        engines = builds_engine(text)
        spawns = flag_words and spawn_words(text)
        if target.path in (module.path, origin) or not (engines or spawns) or relevant(text):
            continue
        own = Tree(target, context)
        own.sites_elsewhere = True
        own.add_user(module)  # it imports the target, wherever it is (a script beside a monorepo's member)
        reader = Reader(own)
        for launch, kwargs in reaching_engines(reader, target, engine_launches(reader, target)) if engines else ():
            if any(origin_in(setting, origin or module.path) for setting in launch.settings.values()):
                launches.append(launch)
                sources |= kwargs.sources
        spawned = spawned_launches(reader, target) if spawns else ()
        launches += [launch for launch in spawned if any(origin_in(s, origin or module.path) for s in launch.settings.values())]
    return launches, sources


def _run_programs(tree: Tree, module: Module) -> dict[str, Module]:
    if not spawn_words(module.source.text):
        return {}
    scripts = {os.path.normpath(script) for script, _ in program_runs(Reader(tree), module)}
    return {script: program for script in scripts if (program := tree.open_file(script)) is not None}


def _imported(tree: Tree, module: Module) -> dict[str, Module]:
    """The tree's modules a module imports from, by path."""
    return {found[0].path: found[0] for qualified in set(module.imports.values()) if (found := tree.resolve(qualified, module))}


_INDENTED_IMPORT = on_use(r"^[ \t]+from[ \t]+\S+[ \t]+import[ \t]", re.MULTILINE)


def _imported_by_functions(tree: Tree, module: Module) -> dict[str, Module]:
    """The tree's modules the module-level functions of a module, and its classes' methods, import from inside
    (`from .vllm import ChatVLLM`; twinkle's sampler: `from .vllm_engine import VLLMEngine` in `__init__`)."""
    found = {}
    if _INDENTED_IMPORT.search(module.source.text) is None:
        return found  # no import inside a function or method (most modules): nothing walked
    methods = (m for cls in module.classes.values() for m in cls.body if isinstance(m, FUNCTIONS))
    for function in (*module.functions.values(), *methods):
        for node in walk(function):
            for alias in node.names if isinstance(node, ast.ImportFrom) else ():
                qualified = local_import(node, alias.asname or alias.name)
                if qualified is not None and (resolved := tree.resolve(qualified, module)) is not None:
                    found[resolved[0].path] = resolved[0]
    return found


# the library configs that build an engine, by the name a module imports (`vLLMEngineProcessorConfig`)
_CONFIG_NAMES = tuple(qualified.rpartition(".")[2] for qualified in ENGINE_CONFIGS)


def builds_engine(text: str) -> bool:
    return ("vllm" in text and ("LLM" in text or "EngineArgs" in text)) or any(name in text for name in _CONFIG_NAMES)


def notebook_launches(module: Module, context: ExtractContext, names: set[str], relevant) -> list[Launch]:
    """The launches of the notebooks near this file that build an engine from its `names`
    (`from rollout_config import ENGINE_ARGS` in a cell): the prefilter passes such a notebook by
    when it names no mask itself. Each is read by the notebook frontend, as it would read it."""
    from ... import load  # the notebook frontend hands its cells' Python back to this frontend

    found: list[Launch] = []
    for path in nearby(module.path, ".ipynb", context.near):
        text = context.read_text(path)
        if text is None or not _may_use(text, names) or relevant(text):
            continue
        reader = load("notebook")  # imported only for a notebook that may use the names (16 ms)
        if reader is None:
            break
        own = ExtractContext(
            context.read_text, context.list_folder, context.root, budget=context.budget, forwarded_arguments=context.forwarded_arguments
        )
        try:
            launches = reader.extract(SourceFile(path, text), own)
        except ParseError:
            continue  # reported when the notebook is checked on its own
        found += [launch for launch in launches if any(origin_in(setting, module.path) for setting in launch.settings.values())]
    return found


def turns_mask_on(text: str) -> bool:
    """Whether a module's text turns the mask on somewhere, by a key, keyword or config class
    field (not a mention: vLLM's own `return_sampling_mask: bool = False`), or by the server's
    flag as a word of its own (`["--return-sampling-mask", ...]`, spliced into a command line
    elsewhere); a file that does not has no name another module could start a replay engine with."""
    if "--return" in text and any(text[max(0, m.start() - 200) : m.start()].rstrip()[-1:] != "(" for m in _SERVER_FLAG.finditer(text)):
        return True  # not a call's first argument (vLLM's own `add_argument("--return-sampling-mask", ...)`)
    if "return_sampling_mask" not in text:
        return False
    from ... import turns_mask_on as written  # the prefilter's pattern

    return written(text.encode("utf-8", "surrogateescape"))


_SERVER_FLAG = re.compile(r"""["']--return[-_]sampling[-_]mask["']""")
_MASK_FIELD = re.compile(r"^[ \t]+return_sampling_mask[ \t]*:[ \t]*bool\b", re.MULTILINE)


def mask_field(text: str, path: str) -> bool:
    """Whether a module of the tree (not vLLM's own) declares a config class's bool field for the
    mask, whatever its default: a launcher that turns each bool field into its bare flag
    (verl-tool's `ModelService.load_model`) gives `--return-sampling-mask` even for False."""
    own = "/vllm/" in "/" + path.replace("\\", "/") or re.search(r"^[ \t]*(?:from|import)[ \t]+vllm\b", text, re.MULTILINE)
    return _MASK_FIELD.search(text) is not None and not own


def mask_outside_parametrize(module: Module) -> bool:
    """Whether the module turns the mask on outside a `pytest.mark.parametrize(...)` decorator: a test
    module whose only mask is a parametrized server's argument list (vLLM's own tests) gives no name or
    value another module could start a replay engine with, since no reading follows pytest's parameters."""
    text = module.source.text
    if "parametrize" not in text:
        return True
    lines = text.splitlines(keepends=True)
    for node in _definitions(module.tree.body):
        for decorator in node.decorator_list:  # type: ignore[attr-defined]
            if isinstance(decorator, ast.Call) and _is_parametrize(decorator.func):
                for number in range(decorator.lineno - 1, decorator.end_lineno or decorator.lineno):
                    lines[number] = "\n"  # blanked: a decorator spans whole lines of its own
    blanked = "".join(lines)
    return turns_mask_on(blanked) or mask_field(blanked, module.path)


def _is_parametrize(function: ast.expr) -> bool:
    """`pytest.mark.parametrize` or `mark.parametrize` (`from pytest import mark`)."""
    if not isinstance(function, ast.Attribute) or function.attr != "parametrize":
        return False
    marks = function.value
    return (isinstance(marks, ast.Attribute) and marks.attr == "mark") or (isinstance(marks, ast.Name) and marks.id == "mark")


def _definitions(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The functions and classes defined in `body`, at any depth, found through statements only (a walk of
    every expression of a 5,000-line test module costs more than the rest of its reading)."""
    for statement in body:
        if isinstance(statement, (*FUNCTIONS, ast.ClassDef)):
            yield statement
        for field in ("body", "orelse", "finalbody"):
            yield from _definitions(getattr(statement, field, []))
        for part in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
            yield from _definitions(part.body)


def mask_names(module: Module) -> set[str]:
    """Module-level names that carry the mask to another module: a dict or call that turns it on
    (the mask written in it), a function that returns one, a config class with the mask among
    its fields, and a config class that nests such a class (`field(default_factory=...)`), and
    what uses one of those (a function that merges such a dict into what it returns)."""
    found = set()
    classes = {}
    values = {}  # module-level names bound to a dict or call, with the text of the value
    tests = _pytest_module(module.path)
    for statement in module.tree.body:
        if tests and isinstance(statement, FUNCTIONS) and statement.name.startswith("test"):
            continue  # a test pytest runs (`scheduler.return_sampling_mask = True` in it) returns nothing another module uses
        if (written := _written_name(statement)) is not None:
            if turns_mask_on(module.text(statement)):
                found.add(written)  # `CONFIGS.update({...})`, `CONFIGS["replay"] = {...}` after `CONFIGS = {}`
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(statement.value, (ast.Dict, ast.Call, ast.List, ast.Tuple)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names = {target.id for target in targets if isinstance(target, ast.Name)}
            if turns_mask_on(module.text(statement.value)):
                found |= names
            else:
                values.update(dict.fromkeys(names, module.text(statement.value)))
        elif isinstance(statement, FUNCTIONS) and turns_mask_on(module.text(statement)):
            found.add(statement.name)
        elif isinstance(statement, FUNCTIONS):
            values[statement.name] = module.text(statement)  # one that returns a name carrying it (`kw |= REPLAY`)
        elif isinstance(statement, ast.ClassDef):
            classes[statement.name] = module.text(statement)
    # config classes that nest one, and objects made from one (`ROLLOUT = EngineConfig()`,
    # `EVAL = replace(ROLLOUT, ...)`)
    carrying = {name for name, text in classes.items() if turns_mask_on(text) or mask_field(text, module.path)}
    return users_of(found | carrying, {**classes, **values})


def _pytest_module(path: str) -> bool:
    """Whether pytest collects the module's `test*` functions as tests (`test_*.py`, `*_test.py`)."""
    name = os.path.basename(path)
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _written_name(statement: ast.stmt) -> str | None:
    """The module-level name a statement writes into: `NAME[key] = ...`, `NAME |= ...`, `NAME.update(...)`."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        base = target.value if isinstance(target, ast.Subscript) else None
    elif isinstance(statement, ast.AugAssign):
        base = statement.target
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and isinstance(statement.value.func, ast.Attribute):
        base = statement.value.func.value if statement.value.func.attr in ("update", "setdefault") else None
    else:
        base = None
    return base.id if isinstance(base, ast.Name) else None


def users_of(names: set[str], definitions: dict[str, str]) -> set[str]:
    """`names` and the module-level names whose definition (its text) uses one of them, at any remove."""
    found: set[str] = set()
    nesting = set(names)
    while nesting:
        found |= nesting
        # a definition left out so far does not use the names found before: only the newest can add one
        uses = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(nesting))) + r")\b")
        nesting = {name for name, text in definitions.items() if name not in found and uses.search(text)}
    return found


def _may_use(text: str, names: set[str]) -> bool:
    """An engine built there, or one of the names called (a `partial` of vLLM's engine)."""
    if "import" not in text or not any(name in text for name in names):
        return False
    return builds_engine(text) or any(name + "(" in text for name in names)


def origin_in(setting, path: str) -> bool:
    return setting.span.path == path or any(hop.path == path for hop in setting.via)

"""A SkyRL fork in the checked tree (`frameworks/skyrl.py`): the engine arguments its own
`build_vllm_cli_args` builds, read in place of the edition's.

`skyrl/backends/skyrl_train/inference_servers/utils.py` `build_vllm_cli_args` (0.4.0) builds
`overrides = dict(model=..., tensor_parallel_size=ie_cfg.tensor_parallel_size, ...,
generation_config="vllm", trust_remote_code=True)`, adds the sample-support capture's
`max_logprobs` and `logprobs_mode` under `if ie_cfg.enable_return_sample_support_set:`, then
`setattr`s each on vLLM's parsed defaults; `generator.inference_engine.engine_init_kwargs` are
set after them and win. Read with `built_dicts`: a key the fork writes with a literal is what
vLLM gets unless `engine_init_kwargs` sets it; a typed key whose value is no longer
`ie_cfg.<key>` is the fork's, one it no longer passes leaves vLLM's default. A replay key the
fork writes with a value not read here or under an `if` of its own keeps the launch open.
`skyrl/train/config/config.py`: the field defaults of its `SamplingParams` dataclass (`temperature`,
`top_k`) are the requests' (and the sample-support capture's) in place of SkyRL's, and the literal
default of `engine_init_kwargs` is the engine's when the launch writes none, and the
`SamplingParams(temperature=...)` it assigns to an unset `eval_sampling_params` gives the eval
requests'. Values set on vLLM's namespace itself (`args.return_sampling_mask = True`, or each key
of a dict the module names: `for k, v in replay_kwargs().items(): setattr(args, k, v)`; of each dict
merged there, `dict(overrides, **replay_overrides).items()`, one not read keeping the launch open) count as
the overrides' keys do (a helper that gives its dict only under a test, `if os.environ.get("X",
"0") != "1": return {}` then `return {...}`, under that test: `fork_source.switched_dicts`), and so do those of a function of the module it hands the namespace to
(`_apply_sampling_mask(args, ie_cfg)`), under that function's `if` (an early `if not X: return`
too) spelt in the caller's names. A write under `if ie_cfg.<key>:` is decided by the launch's value of
`generator.inference_engine.<key>`, else the fork's `InferenceEngineConfig` default
(`fork_conditions.decided`; a field default read from the environment, `field(default_factory=lambda:
os.getenv("X", "0") == "1")`, by what the launch exports); one under a test of an environment variable (`if os.environ.get(
"SKYRL_SAMPLING_REPLAY", "0") == "1":`) by what the launch exports, at the export's line (a
variable it does not export is not known); a test not read here keeps the launch open. A replay key SkyRL passes
from its config (`speculative_config`) that the launch does not write is the fork's
`InferenceEngineConfig` default when that is a literal other than None (`field(default_factory=
lambda: {...})`; `built_dicts.class_defaults`), each of a dict's keys at its line. A key the fork
passes as `ie_cfg.<key>` beside SkyRL's own (`return_sampling_mask=ie_cfg.return_sampling_mask`,
with a field `return_sampling_mask: bool = True`) is read the same way: the launch's
`generator.inference_engine.<key>`, else the field's literal default at its line. A dict the
function builds and copies onto the namespace (`engine_kwargs = {"return_sampling_mask": True,
**get_config_as_dict(ie_cfg.engine_init_kwargs)}`): its keys before the pass-through are under the
launch's `engine_init_kwargs`, those after it over them; another `**` keeps the launch open. A value
set on the namespace after `engine_init_kwargs` was copied onto it (`for k, v in engine_kwargs.items():
setattr(args, k, v)`, then `args.logprobs_mode = "processed_logprobs"`) wins over the launch's, under
its `if` decided as above; one not read here there leaves the key unknown.
A `dataclasses.replace` of the engine config before that copy (`ie_cfg = dataclasses.replace(cfg.generator.
inference_engine, engine_init_kwargs={**...engine_init_kwargs, "return_sampling_mask": True})`, `config_replacements`)
gives the copied dict its keys: those before the launch's under them, those after over them, each under the replace's `if`.
So do the writes of `InferenceEngineConfig.__post_init__` into `self.engine_init_kwargs` (`skyrl_config.post_init`), each
at its line of config.py, its `if` spelt on `ie_cfg`.
"""

from __future__ import annotations

import ast
from dataclasses import field, replace
from typing import Any, Callable, Iterable, Mapping

from ..model import UNKNOWN, Setting, Span
from ..records import record
from .built_dicts import BuiltDict, Written, read
from .config_replacements import Replacement, replaced_writes, replacement
from .declared_values import class_defaults
from .default_spelling import WrittenDefault
from .fork_conditions import (
    after_early_returns,
    both,
    config_read,
    config_value,
    decided,
    declared_from_env,
    env_test,
    env_variable,
    exported,
    guarded,
    tested,
)
from .fork_source import (
    attribute_write,
    literal,
    merged_parts,
    named_dict,
    named_dicts,
    parse,
    renamed,
    snippet,
    spread_source,
    spread_writes,
    switched_dicts,
)
from .nearby import found_upward
from .skyrl_config import PostInit, engine_defaults, eval_default, post_init

ENGINE_ARGS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
CONFIG = "skyrl/train/config/config.py"
OWNER = "the forked SkyRL"
FRAMEWORK = "SkyRL"
_CAPTURE = "ie_cfg.enable_return_sample_support_set"  # SkyRL's own branch, which the 0.4.0 edition reads
_REPLAY_KEYS = frozenset(("return_sampling_mask", "logprobs_mode", "logits_processors", "speculative_config", "max_logprobs"))
_ENGINE_CONFIG = ("ie_cfg", "cfg.generator.inference_engine")  # how the fork spells its `inference_engine` config
_PASS_THROUGH = "engine_init_kwargs"
_OVERRIDES = "overrides"  # SkyRL's own dict of engine arguments (`read` as such)


@record
class LaunchReading:
    """What decides an `if` a fork writes under: `value_of` (an `inference_engine` key's value in the
    launch, by its key and the config's default) an `if ie_cfg.key:`, `env` (what the launch exports)
    an `if os.environ.get("X", "0") == "1":` (a variable it does not export is not known);
    `written_at` (the launch's word for a key, None: not written) is where such a write sits when
    the launch turns on a switch that is off by default."""

    value_of: Callable[[str, Any], Any]
    written_at: Callable[[str], Setting | None] = lambda key: None
    env: Mapping[str, Setting] = field(default_factory=dict)


@record(unsafe_hash=True)
class Fork:
    """The engine arguments of a SkyRL fork's `build_vllm_cli_args` (an empty dict without a path
    when its `utils.py` is not in the tree) and the defaults of its `SamplingParams` config."""

    built: BuiltDict
    sampling: BuiltDict | None = None
    engine_defaults: BuiltDict | None = None  # the literal default of `engine_init_kwargs`
    engine_fields: BuiltDict | None = None  # the field defaults of its `InferenceEngineConfig`
    eval_defaults: BuiltDict | None = None  # the config's `SamplingParams(...)` for unset eval requests
    last: Mapping[str, Written] = field(default_factory=dict)  # set on the namespace after `engine_init_kwargs`: they win

    def passed(self, typed: Mapping[str, str]) -> dict[str, str]:
        """The keys the fork passes from its `inference_engine` config beside SkyRL's own (`typed`:
        config key -> engine argument), by `ie_cfg.<key>` always: the config key -> the argument.
        Only a key whose `InferenceEngineConfig` field has a literal default is listed (the
        launch's value or that default is then what vLLM gets)."""
        fields = self.engine_fields.entries if self.engine_fields is not None else {}
        found = {}
        for written in self.built.entries.values():
            key = _config_key(written.text)
            default = fields.get(key) if key is not None else None
            if key and not written.condition and written.key not in typed.values() and default is not None and default.value is not UNKNOWN:
                found[key] = written.key
        return found

    def last_settings(self, anchor: Span, reading: LaunchReading) -> tuple[dict[str, Setting], list[str]]:
        """The literal keys set on vLLM's namespace after `engine_init_kwargs` (`{**engine_init_kwargs,
        "k": v}` copied onto it, `args.k = v` after that copy): over the launch's, each `if` decided
        as `settings` decides it; and why the launch is open."""
        return self._decided(list(self.last.values()), anchor, reading, over_launch=True)

    def engine_settings(self, anchor: Span) -> dict[str, Setting]:
        """The keys of the fork's `engine_init_kwargs` default, for a launch that writes none."""
        if self.engine_defaults is None:
            return {}
        return {key: self.engine_defaults.setting(written, anchor, OWNER) for key, written in self.engine_defaults.entries.items()}

    def field_settings(self, typed: Mapping[str, str], written: Callable[[str], bool], anchor: Span) -> dict[str, Setting]:
        """The replay keys SkyRL passes from its config (`typed`: config key -> engine argument)
        that the launch leaves to the fork's `InferenceEngineConfig` default (`written(key)`:
        whether the launch writes it), where that default is a literal other than None
        (`speculative_config: ... = field(default_factory=lambda: {...})`)."""
        fields = self.engine_fields.entries if self.engine_fields is not None else {}
        found = {}
        for key, name in typed.items():
            default = fields.get(key)
            if name in _REPLAY_KEYS and default is not None and default.value not in (None, UNKNOWN) and not written(key):
                found[name] = self.engine_fields.setting(replace(default, key=name), anchor, OWNER)  # type: ignore[union-attr]
        return found

    def sampling_defaults(self, built_in: Mapping[str, Any]) -> dict[str, Any]:
        """The request keys' defaults: the fork's `SamplingParams` field defaults where it writes them."""
        fields = self.sampling.entries if self.sampling is not None else {}
        return {key: fields[key].value if key in fields else value for key, value in built_in.items()}

    def sampling_places(self, keys: Iterable[str]) -> dict[str, WrittenDefault]:
        """Where the fork's config writes the request defaults among `keys` (`top_k: int = -1`)."""
        fields = self.sampling.entries if self.sampling is not None else {}
        return {key: WrittenDefault(FRAMEWORK, CONFIG, fields[key].line) for key in keys if key in fields}

    def _field_default(self, key: str, default: Any, env: Mapping[str, Any] | None = None) -> Any:
        """An `inference_engine` key's default: its `InferenceEngineConfig` field's (one read from
        the environment, `field(default_factory=lambda: os.getenv(...) == "1")`, by what the launch
        exports, `env`), else the code's."""
        declared = self.engine_fields.entries.get(key) if self.engine_fields is not None else None
        if declared is not None and declared.value is UNKNOWN and env:
            return declared_from_env(declared.text, env)
        return declared.value if declared is not None else default

    def typed(self, skyrl_key: str, name: str) -> str:
        """The way the fork passes a typed key: "config" (`ie_cfg.<key>`, as SkyRL does), "fork"
        (another value) or "dropped"."""
        if not self.built.path:
            return "config"  # only the config module is the fork's here
        written = self.built.always(name)
        if written is None:
            return "dropped"
        return "config" if _config_key(written.text) == skyrl_key else "fork"

    def evaluation(self, sampling: Mapping[str, Any]) -> dict[str, Any]:
        """The eval requests' keys when the launch writes no `eval_sampling_params`: the fork's
        config's `SamplingParams(temperature=...)` over the field defaults (SkyRL's: 0.0)."""
        given = {k: w.value for k, w in self.eval_defaults.entries.items()} if self.eval_defaults is not None else {"temperature": 0.0}
        return {**sampling, **given}

    def evaluation_places(self, sampling: Mapping[str, WrittenDefault]) -> dict[str, WrittenDefault]:
        """Where the fork's config writes the eval requests' keys when the launch writes no
        `eval_sampling_params` (SkyRL's own `temperature=0.0` is written nowhere in the tree)."""
        given = self.eval_defaults.entries if self.eval_defaults is not None else {"temperature": None}
        places = {key: place for key, place in sampling.items() if key not in given}
        return {**places, **{key: WrittenDefault(FRAMEWORK, CONFIG, w.line) for key, w in given.items() if w is not None}}

    def settings(self, anchor: Span, reading: LaunchReading) -> tuple[dict[str, Setting], list[str]]:
        """The literal keys the fork sets (under `engine_init_kwargs`) and why the launch is open,
        each `if` it writes under decided by the launch (`reading`)."""
        passed = set(self.passed({}).values())  # read from the launch or the config's defaults
        written = [w for w in self.built.every() if w.key not in passed]
        found, reasons = self._decided(written, anchor, reading)
        reasons += [
            f"{w.text} (written into SkyRL's engine arguments at {self.built.where(w.line)}, not read here)" for w in self.built.unread
        ]
        return found, reasons

    def _decided(
        self, writes: list[Written], anchor: Span, reading: LaunchReading, over_launch: bool = False
    ) -> tuple[dict[str, Setting], list[str]]:
        """The writes whose `if` holds in the launch (a test not decided keeps a replay key open;
        `over_launch`: such a write, set after the launch's own keys, leaves the key's value unknown)."""
        found, reasons = {}, []
        values = exported(reading.env)

        def test_value(node: ast.expr) -> Any:
            value = config_value(node, _ENGINE_CONFIG, reading.value_of, lambda key, d: self._field_default(key, d, values))
            return value if value is not UNKNOWN else env_test(node, values)

        for written in writes:
            if written.condition == _CAPTURE and written.key in ("max_logprobs", "logprobs_mode"):
                continue  # SkyRL's own capture (`_sample_support_settings`)
            holds = decided(written.condition, test_value)
            if holds is False:
                continue
            if holds is True and written.value is not UNKNOWN:
                found[written.key] = self._switched(written, anchor, reading.written_at, reading.env)
                continue
            if written.condition or written.value is UNKNOWN:
                if written.key in _REPLAY_KEYS:
                    why = f"when {written.condition}" if written.condition else "a value not read here"
                    reasons.append(f"{written.key} written by {OWNER} {why} ({self.built.where(written.line)})")
                if over_launch:
                    said = f"{written.key} ({written.text}, {self.built.where(written.line)})"
                    found[written.key] = Setting(written.key, UNKNOWN, self.built.span(written, anchor), said, implied=True)
                continue
            found[written.key] = self.built.setting(written, anchor, OWNER)
        return found, reasons

    def _switched(self, written: Written, anchor: Span, written_at: Callable[[str], Setting | None], env: Mapping[str, Setting]) -> Setting:
        """A write under `if ie_cfg.key:` that holds: at the launch's word for the key when the
        config's default would not turn it on (the launch decides), else at the fork's line; under
        a test of an environment variable, at the launch's line that exports it."""
        fork_line = self.built.setting(written, anchor, OWNER)
        if decided(written.condition, lambda node: config_value(node, _ENGINE_CONFIG, lambda key, d: d, self._field_default)):
            return fork_line
        exports = (env.get(name) for name in filter(None, (env_variable(n) for n in tested(written.condition))))
        words = (written_at(key) for key, _ in filter(None, (config_read(n, *_ENGINE_CONFIG) for n in tested(written.condition))))
        flag = next(filter(None, exports), None) or next(filter(None, words), None)
        if flag is None:
            return fork_line
        said = f"{flag.spelling} {fork_line.spelling}"
        return Setting(written.key, written.value, flag.span, said, implied=True, via=(fork_line.span,))


def fork(launching: str, read_text: Callable[[str], str | None] | None) -> Fork | None:
    """SkyRL's own `build_vllm_cli_args` and `SamplingParams` in the tree (None: neither there,
    or not read: the edition's)."""
    if read_text is None:
        return None
    found = found_upward(ENGINE_ARGS, launching, read_text)
    built = read(found[1], found[0], "build_vllm_cli_args", _OVERRIDES) if found is not None else None
    if built is not None and found is not None:
        namespace, last, unread = _namespace_writes(found[1], found[0])
        built = replace(built, entries={**built.entries, **namespace}, unread=built.unread + unread)
    config = found_upward(CONFIG, launching, read_text)
    sampling = class_defaults(config[1], config[0], "SamplingParams") if config is not None else None
    engine = engine_defaults(*config) if config is not None else None
    if built is None and sampling is None and engine is None:
        return None
    fields = class_defaults(config[1], config[0], "InferenceEngineConfig") if config is not None else None
    evaluation = eval_default(*config) if config is not None else None
    hooked = post_init(*config) if config is not None else None
    built, last = _with_post_init(built or BuiltDict(""), last if built is not None else {}, hooked)
    return Fork(built, sampling, engine, fields, evaluation, last)


def _with_post_init(built: BuiltDict, last: dict[str, Written], hooked: PostInit | None) -> tuple[BuiltDict, dict[str, Written]]:
    """The engine arguments with what the config's `__post_init__` writes into `engine_init_kwargs`:
    its keys under the launch's over what `build_vllm_cli_args` set before copying that dict (a key
    under a test over the value in force where it fails), its keys over the launch's under what the
    function sets after the copy."""
    if hooked is None:
        return built, last
    entries = dict(built.entries)
    for written in hooked.under:
        earlier = entries.pop(written.key, None)
        entries[written.key] = replace(written, otherwise=earlier) if written.condition and earlier is not None else written
    over = {written.key: written for written in hooked.over}
    return replace(built, entries=entries, unread=built.unread + hooked.unread), {**over, **last}


def _config_key(text: str) -> str | None:
    """`ie_cfg.KEY` (or `cfg.generator.inference_engine.KEY`) -> KEY; None: another value."""
    owner, _, key = text.rpartition(".")
    return key if owner in _ENGINE_CONFIG and key.isidentifier() else None


def _namespace_writes(text: str, path: str) -> tuple[dict[str, Written], dict[str, Written], tuple[Written, ...]]:
    """The literal values `build_vllm_cli_args` sets on vLLM's namespace itself (`args.KEY = v`,
    `setattr(args, "KEY", v)`) after the overrides, before `engine_init_kwargs`; a value not
    read here is SkyRL's own (`args.speculative_config = spec_cfg`), not listed. A dict the
    function builds and copies onto the namespace (`for k, v in engine_kwargs.items(): setattr(args,
    k, v)`, `engine_kwargs = {"return_sampling_mask": True, **get_config_as_dict(ie_cfg.engine_init_kwargs)}`):
    its keys before the pass-through are written under the launch's, those after it over them
    (the second mapping), and what it holds that is not read here (the third)."""
    module = parse(text)
    function = (
        next((node for node in ast.walk(module) if isinstance(node, ast.FunctionDef) and node.name == "build_vllm_cli_args"), None)
        if module is not None
        else None
    )
    found: dict[str, Written] = {}
    last: dict[str, Written] = {}
    unread: tuple[Written, ...] = ()
    named = named_dicts(module) if module is not None else {}
    switched = switched_dicts(module) if module is not None else {}
    copied = False  # the launch's `engine_init_kwargs` already set on the namespace: later writes win
    replaced: Replacement | None = None  # `ie_cfg = dataclasses.replace(..., engine_init_kwargs=...)`
    for statement, condition in guarded(function.body) if function is not None else ():
        into = last if copied else found
        if (replacing := replacement(statement, _PASS_THROUGH, _ENGINE_CONFIG, condition)) is not None:
            replaced, unread = replacing, unread + replacing.not_read(text)
        source = spread_source(statement, "args")
        if replaced is not None and not copied and _copies_pass_through(function, source, f"{replaced.target}.{_PASS_THROUGH}"):
            replaced_writes(text, replaced, condition, found, last)
        parts = merged_parts(source) if source is not None else None  # `dict(overrides, **replay_overrides).items()`
        for key, part in parts or [(None, source)]:
            constant = named_dict(part, named) if parts is not None and part is not None else None  # `**REPLAY_ARGS`
            for name, node in [(key, part)] if key is not None else constant or ():
                into[name] = Written(name, literal(node), snippet(text, node), node.lineno, True, condition)
            if key is not None or constant is not None:
                continue
            if part is not None:
                more = _copied(text, path, part, condition, into, last if copied else found, last, switched, named)
                known = _PASS_THROUGH in ast.unparse(part) or getattr(part, "id", "") == _OVERRIDES  # read as such
                if more is None and parts is not None and not known:  # `dict(overrides, **unknown())`
                    more = (Written("", UNKNOWN, snippet(text, part), part.lineno, True, condition),)
                unread += more or ()
        for key, node in spread_writes(statement, "args", named):  # `for k, v in replay_kwargs().items(): setattr(args, k, v)`
            if (value := literal(node)) is not UNKNOWN:
                into[key] = Written(key, value, snippet(text, node), node.lineno, True, condition)
        write = attribute_write(statement, "args")
        if write is not None and (value := literal(write[1])) is not UNKNOWN:
            into[write[0]] = Written(write[0], value, snippet(text, write[1]), statement.lineno, True, condition)
        elif write is not None and copied:  # over the launch's, a value not read here
            last[write[0]] = Written(write[0], UNKNOWN, snippet(text, write[1]), statement.lineno, True, condition)
        helped, open_ended = _helper_writes(module, statement, condition, text) if module is not None else ({}, ())
        into.update(helped)
        unread += open_ended
        copied = copied or _copies_pass_through(function, source)
    return found, last, unread


def _copied(
    text: str, path: str, source: ast.expr, condition: str, into: dict, early: dict, late: dict, switched: dict, named: dict
) -> tuple[Written, ...] | None:
    """The keys of a dict the function copies onto the namespace, written into `into` (a key of
    one it builds after the pass-through into `late`, one before it into `early`); what it holds
    that is not read here (None: a dict not read here at all)."""
    if isinstance(source, ast.Name) and source.id not in named and source.id != _OVERRIDES:
        local = read(text, path, "build_vllm_cli_args", source.id, _PASS_THROUGH)
        for written in local.entries.values() if local is not None else ():
            guarded_write = replace(written, condition=" and ".join(filter(None, (condition, written.condition))))
            (late if written.late else early)[written.key] = guarded_write
        return local.unread if local is not None else ()
    given = named_dict(source, switched)
    test, pairs = given if given is not None else ("", [])  # type: ignore[misc]
    for key, node in pairs:  # `for k, v in replay_overrides().items()`, a helper that gives `{}` unless a test holds
        into[key] = Written(key, literal(node), snippet(text, node), node.lineno, True, both(condition, test))
    return () if given is not None else None


def _copies_pass_through(function: ast.FunctionDef | None, source: ast.expr | None, spelled: str = _PASS_THROUGH) -> bool:
    """Whether the dict a statement copies onto the namespace holds the launch's `engine_init_kwargs`
    (`engine_kwargs = get_config_as_dict(ie_cfg.engine_init_kwargs)`, then `for k, v in engine_kwargs.items()`)."""
    if source is None or function is None:
        return False
    if spelled in ast.unparse(source):
        return True
    name = source.id if isinstance(source, ast.Name) else None
    bound = (node.value for node in ast.walk(function) if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name)
    return name is not None and any(spelled in ast.unparse(value) for value in bound)


def _helper_writes(module: ast.Module, statement: ast.stmt, condition: str, text: str) -> tuple[dict[str, Written], tuple[Written, ...]]:
    """What a function of the module that `build_vllm_cli_args` hands its namespace to
    (`_apply_sampling_mask(args, ie_cfg)`) sets on it: its literal `NAME.KEY = v` writes, each under
    the helper's `if` (an early `if TEST: return` included) spelled in the caller's names, and the
    writes not read here (a value not read, a `return` elsewhere, the namespace handed on)."""
    call = statement.value if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) else None
    functions = {node.name: node for node in module.body if isinstance(node, ast.FunctionDef)}
    helper = functions.get(getattr(call.func, "id", "")) if call is not None else None
    if call is None or helper is None:
        return {}, ()
    parameters = [argument.arg for argument in helper.args.args]
    passed = {**dict(zip(parameters, call.args)), **{k.arg: k.value for k in call.keywords if k.arg in parameters}}
    namespace = next((name for name, node in passed.items() if isinstance(node, ast.Name) and node.id == "args"), None)
    if namespace is None:
        return {}, ()
    names = {name: ast.unparse(node) for name, node in passed.items() if name != namespace}
    body, early = after_early_returns(helper.body)
    found: dict[str, Written] = {}
    unread: tuple[Written, ...] = ()
    for inner, test in guarded(body, early):
        write = attribute_write(inner, namespace)
        guard = both(condition, renamed(test, names))
        if write is not None and (value := literal(write[1])) is not UNKNOWN:
            found[write[0]] = Written(write[0], value, snippet(text, write[1]), inner.lineno, True, guard)
        elif write is not None or _hands_on(inner, namespace) or isinstance(inner, ast.Return):
            unread += (Written(snippet(text, inner), UNKNOWN, snippet(text, inner), inner.lineno, True, guard),)
    return found, unread


def _hands_on(statement: ast.stmt, name: str) -> bool:
    """Whether a statement hands the namespace to a call that may set it (`setattr` is read)."""
    calls = (node for node in ast.walk(statement) if isinstance(node, ast.Call) and getattr(node.func, "id", "") != "setattr")
    return any(isinstance(argument, ast.Name) and argument.id == name for call in calls for argument in (*call.args, *call.keywords))

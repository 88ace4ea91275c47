"""The environment an open-instruct fork's engine actor runs in, for what its own code reads there
(`frameworks/open_instruct_fork.py`).

`process_request` runs in the actor, whose process holds the command's environment (`grpo_fast.py`'s
`ray.init(runtime_env={"env_vars": {... os.environ ...}})`) with the `env_vars` of the actor's own
`.options(runtime_env=...)` over it. A request's `"top_k": int(os.environ["OI_REPLAY_TOP_K"])` therefore reads the
launch's variable, unless that `runtime_env` names it: a literal gives its value (at that line), a read of the same
variable (`"OI_REPLAY_TOP_K": os.environ.get("OI_REPLAY_TOP_K", "20")`) hands the launch's on, anything else (or a
`**` entry that may hold it) leaves it unknown. CPython's parser only; nothing of the tree runs.
"""

from __future__ import annotations

import ast

from ..model import UNKNOWN
from .fork_conditions import EnvNumber, env_variable
from .fork_source import Written, callee_name, literal, snippet


def env_vars_node(call: ast.Call) -> ast.expr | None:
    """The `env_vars` of the actor call's `.options(runtime_env=RuntimeEnv(env_vars=...))` (or a dict's)."""
    options = call.func.value if isinstance(call.func, ast.Attribute) else None
    given = next((k.value for k in options.keywords if k.arg == "runtime_env"), None) if isinstance(options, ast.Call) else None
    if isinstance(given, ast.Call) and callee_name(given) in ("RuntimeEnv", "dict"):
        return next((keyword.value for keyword in given.keywords if keyword.arg == "env_vars"), None)
    if isinstance(given, ast.Dict):
        return next((v for k, v in zip(given.keys, given.values) if k is not None and literal(k) == "env_vars"), None)
    return None


def read_in_actor(written: Written, call: ast.Call, text: str) -> Written:
    """A number the actor's code reads from its environment (`written.value`, an `EnvNumber`) as the
    actor's `runtime_env` leaves it: the launch's variable, its literal, or not known."""
    number = written.value
    if not isinstance(number, EnvNumber):
        return written
    given = env_vars_node(call)
    if given is None:
        return written
    if not isinstance(given, ast.Dict):
        return Written(UNKNOWN, written.line, written.text)  # a dict built elsewhere: may name it
    value = None
    for key, item in zip(given.keys, given.values):
        if key is None:
            value = item  # `**more`: may give it
        elif literal(key) == number.variable:
            value = item
    if value is None or env_variable(value) == number.variable:
        return written
    text_value = literal(value)
    if not isinstance(text_value, str) or "${" in text_value:
        return Written(UNKNOWN, written.line, written.text)
    return Written(number.given(text_value), value.lineno, f"{snippet(text, value)}, read by {written.text}")

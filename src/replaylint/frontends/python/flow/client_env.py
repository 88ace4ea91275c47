"""The address an OpenAI client is made with: its `base_url=` (or a `**mapping` that gives it), else
the `OPENAI_BASE_URL` of the program's environment. openai-python's own default
(`openai/lib/_client_auth.py`, `sync__init__`/`async__init__`, the `OpenAI`/`AsyncOpenAI` constructors'
code): `elif base_url is None: base_url = os.environ.get("OPENAI_BASE_URL")`, then
`"https://api.openai.com/v1"`; a `provider=` or `data_residency=` decides it instead.

The environment is read where the tree writes it around the program: the module's own write
(`os.environ["OPENAI_BASE_URL"] = URL` at its top, or in the function that makes the client before
it; `os.environ.setdefault(...)`, resting on the variable being unset), else the runs of the module,
or of a module near it that imports it, by the files near it (`program_environment`): a shell
script's or a justfile recipe's export or prefix (`export OPENAI_BASE_URL=URL; python -m pkg.main`,
`OPENAI_BASE_URL=URL python main.py`), a compose service's `environment`, a Kubernetes container's
`env`. Every run found must give the same URL; a run whose environment the file does not set (the
caller's), another write or read of the variable in the module or a module near it, a dotenv file
the program loads, or no run at all, leave the address unknown."""

from __future__ import annotations

import ast

from ..asts import walk
from .bodies import address_condition, text
from .callsites import keyword
from .client_factories import defaults_read, spread_keyword
from .environment_writes import environment_written
from .facts import NOTHING
from .frames import Frame
from .program_environment import agreed, runs_near, set_another_way
from .reader import Reader

VARIABLE = "OPENAI_BASE_URL"
# Keywords that decide the client's address instead of the environment (`provider=AzureOpenAI(...)`).
_OWN_ADDRESS = ("base_url", "provider", "data_residency")


def base_url(reader: Reader, call: ast.Call, where: Frame) -> tuple[object, str]:
    """The base URL an OpenAI client's construction gives it, and what that rests on."""
    spread = spread_keyword(reader, call, where, "base_url")
    if spread is not None:
        return spread
    given = keyword(call, "base_url")
    if given is None and not call.args and all(item.arg is not None and item.arg not in _OWN_ADDRESS for item in call.keywords):
        return environment_url(reader, call, where)
    return text(reader, given, where), address_conditions(given, where)


def address_conditions(node: ast.expr | None, frame: Frame) -> str:
    """What an address rests on: the environment defaults it was read with, and the defaults of
    the parameters it reads when no caller passes them (`as_written`)."""
    return " and ".join(filter(None, (address_condition(node, frame), *defaults_read(node, frame))))


def environment_url(reader: Reader, call: ast.Call, frame: Frame) -> tuple[object, str]:
    """`OPENAI_BASE_URL` where the client is made, as the module and the files around it set it."""
    module = frame.module
    written = environment_written(reader, VARIABLE, call, frame)
    if written is not NOTHING:
        return written.value, ""
    named = [node for node in walk(module.tree) if isinstance(node, ast.Constant) and node.value == VARIABLE]
    before = _set_before(call, frame) if len(named) == 1 else None
    if (named and before is None) or set_another_way(reader, module, VARIABLE):
        return None, ""  # read or written another way, or a module near it or a dotenv file may set it
    if before is not None and before[1]:
        return before[0], ""  # `os.environ[NAME] = URL` before the client is made
    default = before[0] if before is not None else None  # `os.environ.setdefault(NAME, URL)`
    found = agreed(runs_near(reader, module.path, VARIABLE), default)
    if found is None:
        return None, ""
    return found[0], f"`{VARIABLE}` is unset" if found[2] else ""


def _set_before(call: ast.Call, frame: Frame) -> tuple[str, bool] | None:
    """(URL, replaces) of an `os.environ[NAME] = URL` (True) or `os.environ.setdefault(NAME, URL)`
    (False) that runs before the construction: a statement of the module's top (above it, when the
    module's top makes the client), or of the body of the function that makes it, above it."""
    function = frame.function
    for body in (frame.module.tree.body, function.body if function is not None else []):
        for statement in body:
            if statement.lineno >= call.lineno and (function is None or body is function.body):
                break
            found = _environment_write(statement)
            if found is not None:
                return found
    return None


def _environment_write(statement: ast.stmt) -> tuple[str, bool] | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
        named = isinstance(target, ast.Subscript) and ast.unparse(target.value) in ("os.environ", "environ")
        named = named and isinstance(target.slice, ast.Constant) and target.slice.value == VARIABLE  # type: ignore[union-attr]
        return (value.value, True) if named and isinstance(value, ast.Constant) and isinstance(value.value, str) else None
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and ast.unparse(call.func) in ("os.environ.setdefault", "environ.setdefault")):
        return None
    arguments = call.args if len(call.args) == 2 and not call.keywords else []
    named = bool(arguments) and isinstance(arguments[0], ast.Constant) and arguments[0].value == VARIABLE
    given = arguments[1] if named else None
    return (given.value, False) if isinstance(given, ast.Constant) and isinstance(given.value, str) else None

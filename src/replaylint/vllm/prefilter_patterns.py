"""What the prefilter must let through for rules that can report on a file that does not name the
mask, declared here with the rules that need it; `frontends.relevant` and
`frontends.may_hold_client` collect the declarations (`without_mask`, `client_words`).

Every rule needs the mask somewhere, but not always in the file that gives the finding:

- `WITHOUT_MASK`: a file that names vLLM may still give a finding when it writes the runner
  variable (RPL201, RPL206: wrong without the mask), passes `--config` (vLLM reads the mask from
  the YAML file it names; `--config=` is ignored, RPL202) or names a compose `env_file` (which may
  hold the mask or the runner variable);
- `CLIENTS`: a file the prefilter turns away may hold an HTTP client of a replay server another
  file starts (`run/cross_file` asks the rules that read a server's clients of it).

Plain tuples and regular expressions: a pre-commit run reads this module for every file, and
`dataclasses` (with `inspect`) or the rules' own modules would cost it more than the files.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, NamedTuple


class WithoutMask(NamedTuple):
    """A finding of `rules` (codes or a code prefix; "RPL": any rule) that a file may give without
    naming the mask, when it names vLLM: the file is of one of `kinds` (empty: any kind), holds
    `word` and one of `along` (empty: no other word), and `pattern` (its kind's in
    `pattern_by_kind`, where there is one; every match of it starts with `word`) matches outside a
    `prose` span, which starts one byte before the match and makes it no write (no pattern: the
    words suffice)."""

    rules: tuple[str, ...]
    word: bytes
    kinds: tuple[str, ...] = ()
    along: tuple[bytes, ...] = ()
    pattern: re.Pattern[bytes] | None = None
    pattern_by_kind: Mapping[str, re.Pattern[bytes]] = {}
    prose: re.Pattern[bytes] | None = None

    def found(self, kind: str, words: Any) -> bool:
        """Whether a file of `kind` holds it (`words`: `frontends.triggers.Words`, the file's
        words and its bytes as `data`; the cheap word tests come first)."""
        if (self.kinds and kind not in self.kinds) or self.word not in words or (self.along and not words.any(self.along)):
            return False
        pattern = self.pattern_by_kind.get(kind, self.pattern)
        if pattern is None:
            return True
        # Every match starts with `word`: matched only where `find` finds it (Python's runner
        # pattern starts with look-behinds, which make `finditer` step every byte: 74 ms on vLLM's tests).
        return found_at(pattern, words.data, (self.word,), self._written)

    def _written(self, data: bytes, start: int) -> bool:
        return self.prose is None or start == 0 or self.prose.match(data, start - 1) is None


def found_at(pattern: re.Pattern[bytes], data: bytes, starts: tuple[bytes, ...], keep=lambda data, offset: True) -> bool:
    """`pattern.search(data)` for a pattern whose every match starts with one of `starts`,
    matched only where `find` finds them (a pattern that starts with look-behinds, `\\b` or an
    alternation makes `search` step every byte); `keep(data, offset)` may turn a match down."""
    for start in starts:
        offset = data.find(start)
        while offset >= 0:
            if pattern.match(data, offset) is not None and keep(data, offset):
                return True
            offset = data.find(start, offset + 1)
    return False


class ClientWords(NamedTuple):
    """Words one of which a file of `kind` holds when it holds `what` (an HTTP client of a replay
    server, or what tells its clients apart), for `rules`, judged at the client across files."""

    rules: tuple[str, ...]
    kind: str
    words: tuple[bytes, ...]
    what: str


# -- the runner variable (RPL201, RPL206) ----------------------------------------------------------
# Where the runner variable is named, it is mostly read (`os.environ.get(...)`,
# `${VLLM_USE_V2_MODEL_RUNNER:-1}`) or given `1` (`--env VLLM_USE_V2_MODEL_RUNNER=1`, `ENV NAME 1`,
# a Kubernetes `- name: NAME` with `value: "1"`): only a mention that is not one of those can be
# wrong without the mask (`0` is refused by vLLM 0.34.0 in any launch). Each pattern finds one.
_ONE = rb"""["']?1["']?(?:[\s,)}\];#&|"']|$)"""
_SHELL_WRITE = re.compile(rb"""VLLM_USE_V2_MODEL_RUNNER(?::?=|["']\s*:)(?!\s*""" + _ONE + rb")")
_RUNNER_WRITES = {
    # Python also reads it as an annotated name (`VLLM_USE_V2_MODEL_RUNNER: bool`) and maps it to a
    # getter (`"VLLM_USE_V2_MODEL_RUNNER": lambda: ...`, vLLM's own envs.py): neither sets it; nor
    # does a read with a default (`os.environ.get(NAME, "0")`, `os.getenv`), nor pytest's
    # `monkeypatch.setenv`/`delenv`, which the Python frontend reads no write from (`names.ENV_CALLS`).
    "python": re.compile(
        rb"""(?<!get\(["'])(?<!getenv\(["'])(?<!setenv\(["'])(?<!delenv\(["'])"""
        rb"""VLLM_USE_V2_MODEL_RUNNER(?!\s*:\s*(?:bool|int|str|Optional)\b)["']?\s*\]?\s*(?:=(?!=)|,|:)"""
        rb"(?!\s*(?:" + _ONE + rb"|None(?:[\s,)}\];#]|$)|lambda\b))"
    ),
    # `NAME=0`, and the JSON of `ray job submit --runtime-env-json '{"env_vars": {"NAME": "0"}}'`.
    "shell": _SHELL_WRITE,
    "makefile": _SHELL_WRITE,
    "justfile": _SHELL_WRITE,
    "systemd": _SHELL_WRITE,  # `Environment=NAME=0`
    "procfile": _SHELL_WRITE,
    "apptainer": _SHELL_WRITE,
    "supervisord": _SHELL_WRITE,  # `environment=NAME="0"`
    "tox": re.compile(rb"VLLM_USE_V2_MODEL_RUNNER[ \t]*=(?![ \t]*" + _ONE + rb")"),  # a `setenv` line
    "nomad": re.compile(rb"VLLM_USE_V2_MODEL_RUNNER[ \t]*=(?![ \t]*" + _ONE + rb")"),  # a task's `env { NAME = "0" }`
    "dockerfile": re.compile(rb"VLLM_USE_V2_MODEL_RUNNER(?!(?:=|[ \t]+)" + _ONE + rb")"),
    "yaml": re.compile(rb"""VLLM_USE_V2_MODEL_RUNNER["']?(?!\s*[:=]\s*""" + _ONE + rb"""|\s*[,}]?\s*value:\s*""" + _ONE + rb")"),
}
# Prose in a recipe's description or a comment (`VLLM_USE_V2_MODEL_RUNNER=1` between backticks, as
# Markdown writes code): no language sets the variable there (in a shell it is a command
# substitution that assigns in a subshell), so such a span is no write.
_CODE_SPAN = re.compile(rb"""`VLLM_USE_V2_MODEL_RUNNER\s*[=:]\s*["']?1["']?`""")

WITHOUT_MASK = (
    WithoutMask(("RPL201", "RPL206"), b"VLLM_USE_V2_MODEL_RUNNER", pattern_by_kind=_RUNNER_WRITES, prose=_CODE_SPAN),
    # vLLM's `--config FILE` loads a YAML file (it accepts only .yaml/.yml), which may turn the mask
    # on (any rule); `--config=` is ignored (RPL202). Not `--config-format`, `--config-list-file`...
    WithoutMask(("RPL",), b"--config", along=(b".yaml", b".yml", b"--config="), pattern=re.compile(rb"--config(?![\w-])")),
    # a compose `env_file:` may hold the mask or the runner variable
    WithoutMask(("RPL",), b"env_file", kinds=("yaml",)),
)

# -- HTTP clients of a replay server (`run/cross_file`) --------------------------------------------
_READ_AT_THE_CLIENT = ("RPL101", "RPL102", "RPL301", "RPL302", "RPL303", "RPL304", "RPL309")
CLIENTS = (
    ClientWords(
        _READ_AT_THE_CLIENT,
        "python",
        (b"openai", b"OpenAI(", b"litellm", b"dspy", b"crewai"),
        "an OpenAI, LangChain, LiteLLM, DSPy or CrewAI client",
    ),
    ClientWords(
        _READ_AT_THE_CLIENT,
        "python",
        (b"completions.create(", b"responses.create(", b"_response.create("),  # `with_raw_response.create(`
        "an OpenAI client a factory makes",
    ),
    ClientWords(
        _READ_AT_THE_CLIENT,
        "python",
        (b".post(", b"urllib.request", b".request(", b".stream("),
        'a `requests`, `httpx`, `aiohttp` or `urllib.request` post (also `.request("POST", url)`)',
    ),
    ClientWords(_READ_AT_THE_CLIENT, "python", (b"vllm_mode",), "a TRL trainer in server mode (`trl_server_mode`)"),
    ClientWords(_READ_AT_THE_CLIENT, "python", (b"/inference/v1/generate",), "vLLM's route that returns masks"),
    # on a command line, or in the `--config` file it names
    ClientWords(_READ_AT_THE_CLIENT, "shell", (b"vllm_mode", b"vllm-mode", b"trl ", b"--config"), "a TRL trainer in server mode"),
    ClientWords(_READ_AT_THE_CLIENT, "shell", (b"vllm serve", b"api_server"), "a server of its own (a client on its port may talk to it)"),
    ClientWords(_READ_AT_THE_CLIENT, "shell", (b"curl ",), "a curl post (`readers/shell/curl`)"),
)


def without_mask() -> tuple[WithoutMask, ...]:
    """Every declaration of a finding a file may give without naming the mask."""
    return WITHOUT_MASK


def client_words() -> dict[str, tuple[bytes, ...]]:
    """For each file kind, the words without which a file of it holds no HTTP client of a replay
    server, in the order they are looked for."""
    collected: dict[str, tuple[bytes, ...]] = {}
    for client in CLIENTS:
        collected[client.kind] = (*collected.get(client.kind, ()), *client.words)
    return collected

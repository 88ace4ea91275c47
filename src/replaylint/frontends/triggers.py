"""The prefilter's first look: whether a file holds any word without which `relevant` cannot
answer True, in one scan of its bytes.

Most files of a tree hold none, and the checks for each word one by one (`in`, a regular
expression) cost four or five passes over every file: 154 ms CPU on vLLM 0.33.0's 83 MB. With
Hyperscan installed (`pip install hyperscan`, optional) all the words are looked for in one pass
(48 ms there); without it, or until the run has read `_WORTH_LOADING` files (its import costs
12 ms, more than a few named files save), the answer is "maybe" and `relevant` looks word by
word as before.

The same pass notes the words `relevant` asks about next (`ASKED`: the Python launchers, the
vLLM names, config file suffixes): a file that holds one of WORDS is then answered from that set,
where word by word it costs a scan of the file per word (18 ms of vLLM 0.33.0's 202 such files).
"""

from __future__ import annotations

import re
from typing import Any

from ..framework_registry import prefilter_words
from ..regexes import on_use

# Every branch of `frontends.relevant` that can answer True needs one of WORDS in the file: a
# word that spells the mask (`sampling_mask`, `sampling-mask`, `SAMPLING_MASK`, `--return`), the
# runner variable, `--config`, a compose `env_file`, a NeMo-RL `defaults:`, a prime-rl
# `orchestrator`, verl's trainer module. A branch added there without one of them must add its word
# here, to PYTHON_WORDS when it answers for a Python file.
# A Python file needs one of PYTHON_WORDS (the other words are the YAML, TOML and shell frameworks'
# and compose's), and is scanned for those alone: Python is the bulk of a tree's bytes, and
# Hyperscan's pass costs with the number of words (56 against 89 ms on vLLM 0.33.0's 75 MB of Python).
PYTHON_WORDS = (
    b"sampling_mask",
    b"sampling-mask",
    b"SAMPLING_MASK",
    b"--return",
    b"--config",
    b"VLLM_USE_V2_MODEL_RUNNER",
    b"config_name",  # a Python file that builds an engine from a Hydra config named by path
    b"OmegaConf.load(",
    b"safe_load(",  # ... or a YAML or JSON file it names from its own place (`__file__`)
    b"json.load",  # `json.load(f)`, `json.loads(path.read_text())`
    b"LLM(**",  # an engine built from a config section spread into it (`LLM(**llm_cfg)`, `frontends.spreads_config`)
)
# The other kinds' words: a compose `env_file`, a shell script that runs another script file
# (`bash run_base.sh ARGS`: `.sh`), and the first word each framework's prefilter needs
# (`framework_registry.prefilter_words`: a NeMo-RL `defaults:`, a prime-rl `orchestrator`,
# verl's trainer module, the forks' entry points).
WORDS = tuple(dict.fromkeys((*PYTHON_WORDS, b"env_file", b".sh", *prefilter_words())))
VLLM_WORDS = (b"vllm", b"VLLM", b"vLLM")
CONFIG_FILE_WORDS = (b".yaml", b".yml", b"--config=")
PYTHON_LAUNCHERS = (  # "vLLM" in prose contains "LLM": the call or the import alias is needed
    b"LLM(",
    b"LLM as",
    b"EngineArgs(",
    b"EngineArgs as",
    b'"serve"',
    b"'serve'",
    b"vllm serve",
    b"api_server",
    b"dynamo.vllm",
    b"subprocess",
    b"os.exec",
    b"os.spawn",
    b"os.system",
    b"os.popen",
    b"create_subprocess",
    b"sagemaker",
    b"serving_container_",  # a Vertex AI model's serving container (`Model.upload`)
    b"aws_ecs",  # an AWS CDK ECS container (`add_container`)
    b"pulumi_docker",  # a Pulumi program's Docker container
)
# `ampling`: a cheap first look for `sampling_mask` and `sampling-mask`, word by word.
ASKED = (b"ampling", b"return_sampling_mask", *VLLM_WORDS, *CONFIG_FILE_WORDS, *PYTHON_LAUNCHERS)
_INDEXED = WORDS + tuple(word for word in ASKED if word not in WORDS)
_DASHED = on_use(rb"--(?:return|config)")  # both in one scan, word by word
_WORTH_LOADING = 512  # files read before Hyperscan is imported
_seen = 0
_scanner: Any = None  # ((words, scratch), (python words, scratch), (asked, scratch)) once loaded; False when Hyperscan is missing


class Words:
    """The words a file holds: a set found in the one pass, or each looked for in the bytes when
    asked (no Hyperscan, a word not indexed)."""

    __slots__ = ("data", "found", "indexed", "_dashed")

    def __init__(self, data: bytes, found: frozenset[bytes] | None, indexed: frozenset[bytes] = frozenset()) -> None:
        self.data, self.found, self.indexed, self._dashed = data, found, indexed, None

    def __contains__(self, word: bytes) -> bool:
        if self.found is not None and word in self.indexed:
            return word in self.found
        if word in (b"--return", b"--config"):
            if self._dashed is None:
                self._dashed = frozenset(match.group() for match in _DASHED.finditer(self.data))
            return word in self._dashed
        return word in self.data

    def any(self, words: tuple[bytes, ...]) -> bool:
        if self.found is not None and self.indexed.issuperset(words):
            return not self.found.isdisjoint(words)
        return any(word in self for word in words)


_INDEXED_SET = frozenset(_INDEXED)
_PYTHON_INDEXED = frozenset(PYTHON_WORDS + ASKED)  # what the pass over a Python file looks for


def words_in(data: bytes, kind: str | None = None) -> Words | None:
    """None when `data` holds none of WORDS (of PYTHON_WORDS for a Python file); else its words
    (looked for in one pass when Hyperscan is there and the run has read enough files to be worth
    loading it, and the words of ASKED in a second pass over the few files that get this far)."""
    global _seen
    scanner = _scanner
    if scanner is None:
        _seen += 1
        if _seen < _WORTH_LOADING:
            return Words(data, None)
        scanner = _load()
    if scanner is False:
        return Words(data, None)
    every, python, (asked, asked_scratch) = scanner
    (words, words_scratch), indexed = (python, _PYTHON_INDEXED) if kind == "python" else (every, _INDEXED_SET)
    found: list[int] = []
    words.scan(data, match_event_handler=_found, context=found, scratch=words_scratch)
    if not found:
        return None
    asked.scan(data, match_event_handler=_found, context=found, scratch=asked_scratch)
    return Words(data, frozenset(_INDEXED[word] for word in found), indexed)


def _found(word: int, start: int, end: int, flags: int, found: list[int]) -> None:
    found.append(word)


def _load() -> Any:
    """Hyperscan's databases of WORDS, of PYTHON_WORDS and of the rest of ASKED, with their scratch spaces, or
    False when it is not installed (or cannot run on this processor). A common word (`vllm`)
    in the first would double the cost of the pass every file takes."""
    global _scanner
    try:
        import hyperscan

        def database(words: tuple[bytes, ...]) -> Any:
            compiled = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
            compiled.compile(
                expressions=[re.escape(word) for word in words],
                ids=[_INDEXED.index(word) for word in words],
                elements=len(words),
                flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(words),
            )
            return compiled

        databases = (database(WORDS), database(PYTHON_WORDS), database(_INDEXED[len(WORDS) :]))
        _scanner = tuple((compiled, hyperscan.Scratch(compiled)) for compiled in databases)
    except Exception:  # ImportError, or a library that refuses this machine: the word-by-word path
        _scanner = False
    return _scanner


def use_hyperscan(enabled: bool) -> None:
    """Load Hyperscan now (True: when installed; a reader of a large tree) or never in this process
    (False: tests)."""
    global _scanner
    _scanner = _load() if enabled else False


def load_for_a_large_tree() -> None:
    """Load Hyperscan now, from the first file (a process about to read thousands of files),
    unless this process has decided already (tests that turn it off)."""
    if _scanner is None:
        _load()

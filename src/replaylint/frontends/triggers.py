"""The prefilter's first look: whether a file holds any word without which `relevant` cannot
answer True, in one scan of its bytes.

Most files of a tree hold none, and the checks for each word one by one (`in`, a regular
expression) cost four or five passes over every file: 154 ms CPU on vLLM 0.33.0's 83 MB. With
Hyperscan installed (`pip install hyperscan`, optional) all the words are looked for in one pass
(48 ms there); without it, or until the run has read `_WORTH_LOADING` files (its import costs
12 ms, more than a few named files save), the answer is "maybe" and `relevant` looks word by
word as before.
"""

from __future__ import annotations

import re
from typing import Any

# Every branch of `frontends.relevant` that can answer True needs one of these in the file: a
# word that spells the mask (`sampling_mask`, `sampling-mask`, `SAMPLING_MASK`, `--return`), the
# runner variable, `--config`, a compose `env_file`, a NeMo-RL `defaults:`, a prime-rl
# `orchestrator`. A branch added there without one of them must add its word here.
WORDS = (
    b"sampling_mask",
    b"sampling-mask",
    b"SAMPLING_MASK",
    b"--return",
    b"--config",
    b"VLLM_USE_V2_MODEL_RUNNER",
    b"env_file",
    b"defaults:",
    b"orchestrator",
    b"config_name",  # a Python file that builds an engine from a Hydra config named by path
    b"OmegaConf.load(",
)
_WORTH_LOADING = 512  # files read before Hyperscan is imported
_seen = 0
_scanner: Any = None  # (database, scratch) once loaded; False when Hyperscan is missing


def may_hold(data: bytes) -> bool:
    """False when `data` holds none of WORDS; True when it holds one, or when that is not
    looked at here (no Hyperscan, or not yet worth loading)."""
    global _seen
    scanner = _scanner
    if scanner is None:
        _seen += 1
        if _seen < _WORTH_LOADING:
            return True
        scanner = _load()
    if scanner is False:
        return True
    database, scratch = scanner
    found: list[int] = []
    database.scan(data, match_event_handler=_found, context=found, scratch=scratch)
    return bool(found)


def _found(word: int, start: int, end: int, flags: int, found: list[int]) -> None:
    found.append(word)


def _load() -> Any:
    """Hyperscan's database of WORDS and its scratch space, or False when it is not installed
    (or cannot run on this processor)."""
    global _scanner
    try:
        import hyperscan

        database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        database.compile(
            expressions=[re.escape(word) for word in WORDS],
            ids=list(range(len(WORDS))),
            elements=len(WORDS),
            flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(WORDS),
        )
        _scanner = (database, hyperscan.Scratch(database))
    except Exception:  # ImportError, or a library that refuses this machine: the word-by-word path
        _scanner = False
    return _scanner


def use_hyperscan(enabled: bool) -> None:
    """Load Hyperscan now (True) or never in this process (False): for tests and benchmarks."""
    global _scanner
    _scanner = _load() if enabled else False

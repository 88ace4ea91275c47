"""Issue 27, item 2: `self.x` a base class of the same module sets in its `__init__` holds what
the subclass's `super().__init__(...)` passes it, not the subclass's own arguments (which may
share a name with the base's parameters and mean something else)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

BASE = (
    "from vllm import LLM\n\n\n"
    "class Base:\n"
    "    def __init__(self, model, mode='processed_logprobs'):\n"
    "        self.mode = mode\n"
    "        self.model = model\n\n\n"
)
START = "    def start(self):\n        self.llm = LLM(self.model, return_sampling_mask=True, logprobs_mode=self.mode)\n"


def _check(tmp_path: Path, sub: str, made: str) -> list[tuple[str, int, str]]:
    return check(tmp_path, {"run.py": BASE + sub + START + f"\n\ns = {made}\ns.start()\n"})


@pytest.mark.parametrize(
    ("sub", "made"),
    [
        # the subclass's own `mode` means something else; the base keeps its default
        (
            "class Sub(Base):\n    def __init__(self, model, mode='raw_logprobs'):\n        super().__init__(model)\n        self.other = mode\n\n",
            "Sub('m', 'raw_logprobs')",
        ),
        (
            "class Sub(Base):\n    def __init__(self, model, mode='raw_logprobs'):\n"
            "        super().__init__(model, mode='processed_logprobs')\n        self.other = mode\n\n",
            "Sub('m')",
        ),
        # `Base.__init__(self, ...)`: not followed, the base's parameters unknown
        (
            "class Sub(Base):\n    def __init__(self, model, mode):\n        Base.__init__(self, model, mode)\n\n",
            "Sub('m', 'raw_logprobs')",
        ),
    ],
)
def test_a_base_s_init_does_not_take_the_subclass_s_arguments(tmp_path: Path, sub: str, made: str) -> None:
    assert _check(tmp_path, sub, made) == []


@pytest.mark.parametrize(
    ("sub", "made", "line"),
    [
        ("class Sub(Base):\n    def __init__(self, name):\n        super().__init__(name, 'raw_logprobs')\n\n", "Sub('m')", 12),
        (
            "class Sub(Base):\n    def __init__(self, name, sampling):\n        super().__init__(name, mode=sampling)\n\n",
            "Sub('m', sampling='raw_logprobs')",
            18,
        ),
        ("class Sub(Base):\n    pass\n\n", "Sub('m', 'raw_logprobs')", 17),  # no `__init__`: the base's takes the construction's
        (
            "class Middle(Base):\n    def __init__(self, model, **kw):\n        super().__init__(model, **kw)\n\n\n"
            "class Sub(Middle):\n    def __init__(self):\n        super().__init__('m', mode='raw_logprobs')\n\n",
            "Sub()",
            17,
        ),
    ],
)
def test_what_super_init_passes_the_base_decides(tmp_path: Path, sub: str, made: str, line: int) -> None:
    assert _check(tmp_path, sub, made) == [("run.py", line, "RPL003")]

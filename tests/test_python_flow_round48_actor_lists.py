"""What held-out round 48's fairseq2 case (tests/data/python_flow/h48_fairseq2_remote_vllm_sampling_params_no_top_k)
taught so far: a list of Ray actors kept on `self`, set to `[]` in `__init__` and grown by another method that
`__init__` calls in a loop (`self.vllm_workers.append(worker)` in `setup_replica`), holds that actor in every item,
so a request sent to one of its items (`self.vllm_workers[i].generate.remote(...)`) reaches the engine the actor
builds. A list changed any other way, or grown under a branch, is not read so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

POOL = """import ray
from vllm import LLM, SamplingParams


@ray.remote
class Worker(LLM):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


class Pool:
    def __init__(self, n):
        self.workers = []
        for i in range(n):
            self.add(i)
        self.params = SamplingParams(temperature=1.0, max_tokens=16{top_k})

    def add(self, i):
{add}

    def rollout(self, chunks):
        outputs = []
        for i, chunk in enumerate(chunks):
            outputs.append(self.workers[i].generate.remote(chunk, sampling_params=self.params))
        return ray.get(outputs)
{more}

Pool(2).rollout([["hi"]])
"""

ADD = """        worker = Worker.options(name=f"w{i}").remote(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
        self.workers.append(worker)"""

# fairseq2's spelling: the actor made by a third method and handed back, its name built from the replica's index
MADE_ELSEWHERE = """        worker = self.make_worker(f"w_{i}")
        self.workers.append(worker)

    def make_worker(self, name):
        llm = Worker.options(name=name, get_if_exists=True).remote(
            model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs"
        )
        ray.get(llm.is_ready.remote())
        return llm"""


def pool(top_k: str = "", add: str = ADD, more: str = "") -> dict[str, str]:
    return {"pool.py": POOL.format(top_k=top_k, add=add, more=more)}


@pytest.mark.parametrize("add", [ADD, MADE_ELSEWHERE])
def test_a_request_to_an_item_of_a_list_another_method_grows_reaches_the_actor(tmp_path: Path, add: str) -> None:
    assert check(tmp_path, pool(add=add)) == [("pool.py", 16, "RPL102")]


@pytest.mark.parametrize("add", [ADD, MADE_ELSEWHERE])
def test_the_same_request_with_top_k_stays_clean(tmp_path: Path, add: str) -> None:
    assert check(tmp_path, pool(top_k=", top_k=20", add=add)) == []


@pytest.mark.parametrize(
    ("add", "more"),
    [
        (ADD.replace("        self.workers.append", "        if i:\n            self.workers.append"), ""),  # grown under a branch
        (ADD, "\n    def swap(self, other):\n        self.workers[0] = other\n"),  # an item put in place by another method
        (ADD, "\n    def adopt(self, other):\n        self.workers.extend(other)\n"),  # grown another way too
        (ADD, "\n    def reset(self):\n        self.workers = []\n        self.add(0)\n"),  # `add` called outside `__init__`'s loop too
    ],
)
def test_a_list_changed_otherwise_is_not_read_as_the_actors(tmp_path: Path, add: str, more: str) -> None:
    assert check(tmp_path, pool(add=add, more=more)) == []

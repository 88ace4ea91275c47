"""What held-out round 60 (h60_smallrl_adapter_sample_greedy) made the value flow follow: an object a
module-level factory of the tree makes, binds to a name and returns beside the engine (small-rl's
`create_engine()`: `llm = LLM(...)`, `mgr = VLLMAdapterManager(llm=llm)`, `return llm, mgr`), unpacked by a
script (`llm, mgr = create_engine(...)`) that sends its request through the object's method
(`mgr.generate(prompts, sampling_params=params)`, which hands it to `self.llm.generate`): the request is read
with the engine the factory built. Only the unpacked item that is the object counts; a tuple target of a
construction itself (`a, b = Manager(...)`) holds no object of the class."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((str(Path(f["filename"]).relative_to(tmp_path)), f["location"]["row"], f["code"]) for f in run(tmp_path))


ADAPTER = """class Manager:
    def __init__(self, llm, slots: int):
        self.llm = llm
        self.slots = slots

    def generate(self, prompts, sampling_params=None):
        return self.llm.generate(prompts, sampling_params=sampling_params)


def create_engine(model_name: str = "HuggingFaceTB/SmolLM2-135M-Instruct", slots: int = 4):
    from vllm import LLM

    llm = LLM(model=model_name, max_model_len=2048, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    mgr = Manager(llm=llm, slots=slots)
    return RETURNED
"""


def script(temperature: str, unpack: str = "llm, mgr") -> str:
    return f"""from vllm import SamplingParams

from adapter import create_engine


def main():
    {unpack} = create_engine(slots=2)
    params = SamplingParams(temperature={temperature}, top_k=50, max_tokens=50)
    print(mgr.generate(["Once upon a time"], sampling_params=params))


if __name__ == "__main__":
    main()
"""


def test_greedy_request_through_the_object_a_factory_returns_beside_the_engine(tmp_path: Path) -> None:
    found = check(tmp_path, {"adapter.py": ADAPTER.replace("RETURNED", "llm, mgr"), "sample.py": script("0")})
    assert found == [("sample.py", 8, "RPL101")]


def test_sampled_request_through_it_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"adapter.py": ADAPTER.replace("RETURNED", "llm, mgr"), "sample.py": script("1.0")}) == []


def test_the_object_returned_alone_by_the_name_it_is_bound_to(tmp_path: Path) -> None:
    """`mgr = Manager(...)`, then `return mgr` (no `return Manager(` in the text)."""
    found = check(tmp_path, {"adapter.py": ADAPTER.replace("RETURNED", "mgr"), "sample.py": script("0.0", unpack="mgr")})
    assert found == [("sample.py", 8, "RPL101")]


def test_another_item_is_not_the_object(tmp_path: Path) -> None:
    """The script names the items the other way round (`mgr, llm = create_engine()` of `return model_name, mgr`):
    its `mgr` is the model's name, not the manager, so the manager's request is not read with its params."""
    adapter = ADAPTER.replace("RETURNED", "model_name, mgr")
    assert check(tmp_path, {"adapter.py": adapter, "sample.py": script("0", unpack="mgr, llm")}) == []


def test_a_name_bound_only_under_a_branch_is_not_followed(tmp_path: Path) -> None:
    """`if slots: mgr = Manager(...)` (else the name is unbound): the return may give no manager; stay silent."""
    adapter = ADAPTER.replace(
        "    mgr = Manager(llm=llm, slots=slots)\n", "    if slots > 8:\n        mgr = Manager(llm=llm, slots=slots)\n"
    )
    assert check(tmp_path, {"adapter.py": adapter.replace("RETURNED", "llm, mgr"), "sample.py": script("0")}) == []

"""What round 21 of the held-out forks taught the prime-rl fork reader (tests/test_forks_heldout21.py,
prime_validator_logits_processors_key), and its precision: each test takes the held-out tree, checks what it
reports, and changes it so that the value may not reach vLLM, or does, or reaches it another way.

prime-rl: what the `[inference.vllm]` table's own code sets after the file is read (`prime_rl_table`):
`@model_validator(mode="after")` and `model_post_init` (`self.X = value`), `@model_validator(mode="before")` and
pydantic v1's `@root_validator` (`data["X"] = value`, `data.setdefault("X", value)`), each under `if` tests of the
table's keys (`self.KEY`, `data.get("KEY")`, `if not self.KEY: return self`) decided by the file's value or the
typed field's default. A write behind a key the file turns on sits at the file's key; one behind a key on by
default, at the fork's line. A test of anything else (the environment, a loop, a key the table's code itself
changes, a field validator that may change the key) leaves the write unknown; a field validator that may change
a replay field the file writes leaves it unknown."""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import findings, in_repository
from test_forks_heldout21 import CORPUS
from test_forks_round2_readers import edit
from test_forks_round15_readers import POST_INIT as SUBCLASS_POST_INIT, PRIME_CONFIGS, PRIME_TOML, prime_tree

CASE = "prime_validator_logits_processors_key"
CONFIGS = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"
TOML = "examples/replay/inference.toml"
PROCESSOR = '["prime_rl.inference.ban_think:BanThinkLogitsProcessor"]'
VALIDATOR = f"""    @model_validator(mode="after")
    def add_ban_think_processor(self):
        if self.ban_think_tokens:
            self.logits_processors = {PROCESSOR}
        return self
"""
AT_THE_KEY = {("RPL001", TOML, 7)}


def tree(tmp_path: Path, validator: str | None = None, field: str | None = None) -> Path:
    root = in_repository(CORPUS / CASE, tmp_path / CASE)
    if validator is not None:
        edit(root / CONFIGS, VALIDATOR, validator)
    if field is not None:
        edit(root / CONFIGS, "    ban_think_tokens: bool = False\n", field)
    return root


EARLY_RETURN = f"""    @model_validator(mode="after")
    def add_ban_think_processor(self) -> "VllmConfig":
        if not self.ban_think_tokens:
            return self
        self.logits_processors = {PROCESSOR}
        return self
"""
BEFORE = f"""    @model_validator(mode="before")
    @classmethod
    def add_ban_think_processor(cls, data):
        if isinstance(data, dict) and data.get("ban_think_tokens"):
            data["logits_processors"] = {PROCESSOR}
        return data
"""
V1_PRE = f"""    @root_validator(pre=True)
    def add_ban_think_processor(cls, values):
        if values.get("ban_think_tokens", False):
            values.setdefault("logits_processors", {PROCESSOR})
        return values
"""
V1_POST = f"""    @root_validator(skip_on_failure=True)
    def add_ban_think_processor(cls, values):
        if values["ban_think_tokens"] is True:
            values["logits_processors"] = {PROCESSOR}
        return values
"""
POST_INIT = f"""    def model_post_init(self, __context):
        if self.ban_think_tokens:
            setattr(self, "logits_processors", {PROCESSOR})
"""


@pytest.mark.parametrize(
    "validator",
    [None, EARLY_RETURN, BEFORE, V1_PRE, V1_POST, POST_INIT],
    ids=["case", "early-return", "model-validator-before", "v1-root-validator-pre", "v1-root-validator", "post-init"],
)
def test_a_validator_behind_the_files_key_sits_at_the_key(tmp_path: Path, validator: str | None) -> None:
    assert findings(tree(tmp_path, validator)) == AT_THE_KEY


@pytest.mark.parametrize(
    "validator",
    [EARLY_RETURN, BEFORE, V1_PRE, V1_POST, POST_INIT],
    ids=["early-return", "model-validator-before", "v1-root-validator-pre", "v1-root-validator", "post-init"],
)
@pytest.mark.parametrize("toml_line", ["", "ban_think_tokens = false\n"], ids=["key-left-off", "key-false"])
def test_a_validator_behind_a_key_left_off_stays_silent(tmp_path: Path, validator: str, toml_line: str) -> None:
    root = tree(tmp_path, validator)
    edit(root / TOML, "ban_think_tokens = true\n", toml_line)
    assert findings(root) == set()


@pytest.mark.parametrize(("toml_line", "found"), [("ban_think_tokens = true\n", AT_THE_KEY), ("", set())], ids=["key-on", "key-left-off"])
def test_an_untyped_key_read_from_model_extra(tmp_path: Path, toml_line: str, found: set) -> None:
    """The key is no field of the fork's: it passes through, and the validator reads it from `model_extra`."""
    untyped = VALIDATOR.replace("if self.ban_think_tokens:", 'if self.model_extra and self.model_extra.get("ban_think_tokens", False):')
    root = tree(tmp_path, untyped, "")
    edit(root / TOML, "ban_think_tokens = true\n", toml_line)
    assert findings(root) == found


def test_a_validator_behind_a_key_on_by_default_sits_at_the_forks_write(tmp_path: Path) -> None:
    root = tree(tmp_path, field="    ban_think_tokens: bool = True\n")
    edit(root / TOML, "ban_think_tokens = true\n", "")
    assert findings(root) == {("RPL001", CONFIGS, 169)}


def test_an_unconditional_after_validator_write_sits_at_the_forks_line(tmp_path: Path) -> None:
    guarded = f"        if self.ban_think_tokens:\n            self.logits_processors = {PROCESSOR}\n"
    root = tree(tmp_path, VALIDATOR.replace(guarded, '        self.logprobs_mode = "raw_logprobs"\n'))
    assert findings(root) == {("RPL003", CONFIGS, 168)}


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        (TOML, "ban_think_tokens = true\n", ""),  # the field's default False stands
        (TOML, "ban_think_tokens = true\n", "ban_think_tokens = false\n"),
        (TOML, "return_sampling_mask = true\n", ""),  # no replay: another engine
        (CONFIGS, "        if self.ban_think_tokens:\n", '        if self.ban_think_tokens and os.environ.get("BAN_THINK") == "1":\n'),
        (CONFIGS, "        if self.ban_think_tokens:\n", "        for _ in range(self.max_loras):\n"),
        (CONFIGS, '@model_validator(mode="after")\n    def add_ban', '@model_validator(mode="wrap")\n    def add_ban'),
    ],
    ids=["key-left-off", "key-false", "no-mask", "environment-test", "loop", "wrap-validator"],
)
def test_a_validator_write_not_known_to_run_stays_silent(tmp_path: Path, path: str, old: str, new: str) -> None:
    root = tree(tmp_path)
    edit(root / path, old, new)
    assert findings(root) == set()


FIELD_CHECK = """    @field_validator("ban_think_tokens")
    @classmethod
    def only_on_qwen(cls, value, info):
        {body}
"""


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("if not isinstance(value, bool):\n            raise ValueError(value)\n        return value", AT_THE_KEY),  # a check
        ('return value and os.environ.get("BAN_THINK") == "1"', set()),  # may turn the key off
    ],
    ids=["checks-only", "may-change"],
)
def test_a_field_validator_of_the_key_decides_whether_it_is_read(tmp_path: Path, body: str, found: set) -> None:
    validator = VALIDATOR + "\n" + FIELD_CHECK.format(body=body)
    assert findings(tree(tmp_path, validator)) == found


def test_a_field_validator_that_may_change_a_replay_field_leaves_it_unknown(tmp_path: Path) -> None:
    root = tree(tmp_path)  # with `[server]`, the file on its own is prime-rl's too, not a table of engine arguments
    edit(root / TOML, "ban_think_tokens = true\n", 'logprobs_mode = "raw_logprobs"\n\n[server]\nport = 8000\n')
    assert findings(root) == {("RPL003", TOML, 7)}
    field = '    logprobs_mode: str = "processed_logprobs"\n\n    @field_validator("logprobs_mode")\n    @classmethod\n'
    edit(
        root / CONFIGS,
        "    ban_think_tokens: bool = False\n",
        field + '    def processed_only(cls, mode):\n        return "processed_logprobs"\n',
    )
    assert findings(root) == set()


SUBCLASS = """class QuietVllmConfig(VllmConfig):
    @model_validator(mode="after")
    def add_ban_think_processor(self):
        {body}


class WeightBroadcastConfig(BaseConfig):
"""


@pytest.mark.parametrize(
    ("body", "found"),
    [("return self", set()), ("return super().add_ban_think_processor()", AT_THE_KEY)],
    ids=["hides-the-base-validator", "calls-the-base-validator"],
)
def test_a_subclass_validator_of_the_same_name_replaces_the_bases(tmp_path: Path, body: str, found: set) -> None:
    root = tree(tmp_path)
    edit(root / CONFIGS, "class WeightBroadcastConfig(BaseConfig):\n", SUBCLASS.format(body=body))
    edit(
        root / CONFIGS,
        "vllm: VllmConfig = Field(default_factory=VllmConfig)",
        "vllm: QuietVllmConfig = Field(default_factory=QuietVllmConfig)",
    )
    assert findings(root) == found


@pytest.mark.parametrize(("eager", "found"), [("true", {("RPL102", PRIME_TOML, 31)}), ("false", set())], ids=["key-on", "key-off"])
def test_an_rl_toml_inference_vllm_key_decides_a_subclass_post_init(tmp_path: Path, eager: str, found: set) -> None:
    """rl.toml's `[inference.vllm]` is the table as inference.toml's `[vllm]` is (round 15's tree: the mask its
    subclass's `model_post_init` sets makes the eval source's `top_k = 0` an RPL102)."""
    root = prime_tree(tmp_path)
    edit(root / PRIME_CONFIGS, SUBCLASS_POST_INIT, "        if self.enforce_eager:\n            self.return_sampling_mask = True\n")
    edit(root / PRIME_TOML, "[inference]\n", f"[inference]\n[inference.vllm]\nenforce_eager = {eager}\n")
    assert findings(root) == found


VLLM_FIELD = '    """vLLM server arguments, under vLLM\'s own argument names. Unknown fields pass through verbatim."""\n'
INFERENCE_VALIDATOR = f"""
    ban_think_tokens: bool = {{default}}

    @model_validator(mode="after")
    def add_ban_think_processor(self):
        if self.ban_think_tokens and self.vllm.enforce_eager is False:
            self.vllm.logits_processors = {PROCESSOR}
        return self
"""


@pytest.mark.parametrize(
    ("default", "toml_line", "found"),
    [
        ("False", "ban_think_tokens = true\n\n", {("RPL001", TOML, 3)}),  # the file's key decides, at its line
        ("True", "", {("RPL001", CONFIGS, 457)}),  # on by default: the fork's write
        ("False", "", set()),  # left off
        ("True", "ban_think_tokens = false\n\n", set()),
        ("False", "ban_think_tokens = true\n\n[server]\nport = 8000\n\n", {("RPL001", TOML, 3)}),
    ],
    ids=["key-on", "default-on", "key-left-off", "key-off", "with-server-table"],
)
def test_inference_config_validator_sets_the_vllm_table(tmp_path: Path, default: str, toml_line: str, found: set) -> None:
    """`InferenceConfig`'s own validator writing `self.vllm.X` (as upstream's `auto_setup_kv_cache_offload` does),
    behind an `[inference]` key of the fork's own; it runs after the `[vllm]` table's, whose keys it reads as
    `self.vllm.KEY`."""
    root = tree(tmp_path, "", "")
    edit(root / CONFIGS, VLLM_FIELD, VLLM_FIELD + INFERENCE_VALIDATOR.format(default=default))
    edit(root / TOML, "ban_think_tokens = true\n", "")
    edit(root / TOML, "[vllm]\n", f"{toml_line}[vllm]\n")
    assert findings(root) == found


def test_inference_config_validator_reading_a_vllm_key_the_file_turns_off_stays_silent(tmp_path: Path) -> None:
    root = tree(tmp_path, "", "")
    edit(root / CONFIGS, VLLM_FIELD, VLLM_FIELD + INFERENCE_VALIDATOR.format(default="False"))
    edit(root / TOML, "ban_think_tokens = true\n", "enforce_eager = true\n")
    edit(root / TOML, "[vllm]\n", "ban_think_tokens = true\n\n[vllm]\n")
    assert findings(root) == set()

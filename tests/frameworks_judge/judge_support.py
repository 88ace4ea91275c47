"""What the framework runners hand back to engine_judge.py (judge virtualenv only)."""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from dataclasses import dataclass, field

MODEL = "Qwen/Qwen3-0.6B"  # the model a launch names when its configuration leaves it to a default path
VLLM_PREFIXES = ("VLLM_",)


class FrameworkError(Exception):
    """The framework's own code refused the configuration."""

    def __init__(self, exception: str, message: str, where: str = "") -> None:
        super().__init__(message)
        self.exception, self.message, self.where = exception, message, where

    @classmethod
    def from_exception(cls, error: BaseException, text: str = "") -> FrameworkError:
        frames = traceback.extract_tb(error.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
        if isinstance(error, SystemExit):
            # argparse prints its usage, then `prog: error: ...` as the last line
            lines = [line for line in text.strip().splitlines() if line.strip()]
            return cls("SystemExit", lines[-1] if lines else f"exit {error.code}", where)
        return cls(type(error).__name__, str(error), where)


class JudgeError(Exception):
    """This judge could not run the framework's code (not the framework's verdict)."""


@dataclass
class Launch:
    """The vLLM engine a framework starts: exactly one of argv (the words after `vllm serve`),
    namespace (attributes the framework set on vLLM's parser namespace) or engine_kwargs."""

    argv: list[str] | None = None
    namespace: object | None = None
    engine_kwargs: dict | None = None
    via: str = "LLM"
    env: dict[str, str] = field(default_factory=dict)
    gpus: int = 8
    requests: list[tuple[str, dict]] = field(default_factory=list)

    def describe(self) -> dict:
        if self.argv is not None:
            return {"argv": self.argv}
        if self.namespace is not None:
            return {"namespace": {k: repr(v) for k, v in sorted(vars(self.namespace).items()) if _replay_relevant(k)}}
        return {"engine_kwargs": {k: repr(v) for k, v in sorted(self.engine_kwargs.items())}}


def _replay_relevant(name: str) -> bool:
    return name in {
        "model",
        "return_sampling_mask",
        "logprobs_mode",
        "speculative_config",
        "logits_processors",
        "enable_dbo",
        "tensor_parallel_size",
        "enable_batch_sharded_sampling",
        "hf_overrides",
        "max_logprobs",
        "generation_config",
    }


def vllm_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(VLLM_PREFIXES)}


@contextlib.contextmanager
def stderr_text():
    """argparse prints its error before SystemExit: keep the text for the verdict."""
    buffer = io.StringIO()
    with contextlib.redirect_stderr(buffer):
        try:
            yield buffer
        finally:
            sys.__stderr__.write(buffer.getvalue())


def tokenizer_files(folder: str) -> None:
    """A 512-token word-level tokenizer (`tokenizer.json`) beside a stand-in model's config.json,
    for frameworks that load the tokenizer before vLLM runs (vLLM itself needs none)."""
    import json
    import os

    if os.path.exists(os.path.join(folder, "tokenizer.json")):
        return
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2, "<pad>": 3, **{f"t{i}": i for i in range(4, 512)}}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(os.path.join(folder, "tokenizer.json"))
    settings = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": "<s>",
        "eos_token": "</s>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
    }
    with open(os.path.join(folder, "tokenizer_config.json"), "w") as handle:
        json.dump(settings, handle)


def stand_in_model(vllm_judge, name: str) -> str:
    """vllm_judge's tiny local model for `name` (its path ends with the name), with a tokenizer."""
    folder = vllm_judge.local_model_dir(str(name), None)
    tokenizer_files(folder)
    return folder

"""## What it does
Flags a request to an engine with sampling distribution replay whose `top_k` bounds nothing: at
or above the vocabulary size of the launch's model, when the tree holds the model's folder and
its `config.json` says it (`vocab_size`, or `text_config.vocab_size` for a multimodal model),
else larger than any vocabulary (2^18 = 262,144 or more). It reads `SamplingParams(top_k=...)`,
`top_k=sys.maxsize`-style literals, a framework's `top_k` setting that reaches vLLM, and the
requests a file sends to a replay server it starts (RPL301's clients: `extra_body`, the
`sampling_params` of `/inference/v1/generate`), and the `top_k` a replay server's
`--override-generation-config` makes the default of every request the server renders (`/v1/completions/render`, `/v1/chat/completions/render` and
the other render endpoints build the `/inference/v1/generate` bodies that carry the mask,
`entrypoints/scale_out/render/serving.py:107-178`); a body the client writes itself takes only
`max_tokens` from it (`token_in_token_out/serving.py:386-397`)
(`config/model.py:1905-1915`).

## Why is this bad?
The value passes vLLM's replay check (`top_k > 0`), and the sampler then turns every
`top_k` above the vocabulary size into "no top-k"
(`v1/worker/gpu/sample/states.py:49-51`: `if top_k <= 0 or top_k > self.vocab_size:
top_k = self.vocab_size`); a `top_k` equal to it keeps every token too. The masks become the
whole nucleus or the whole vocabulary: the very size the `top_k > 0` check exists to bound
(`sampling distribution replay requires top_k > 0 to bound sampling mask size, reduce transfer
overhead, and avoid potential OOMs`). It is the obvious way around RPL102, and it defeats it.

The vocabulary is the one vLLM samples over, `ModelConfig.get_vocab_size()`: the text config's
`vocab_size` (vLLM 0.34.0 `config/model.py:1649-1650`,
`transformers_utils/model_arch_config_convertor.py:85-86`). A model named by its hub id, a folder the tree does not hold, a `config.json` that
is not JSON and a launch with `hf_overrides` leave it unknown: then only a `top_k` of 2^18 or
more is flagged, which is above every `vocab_size` default of vLLM 0.34.0's own model config
classes (the largest is 250,880) and at or above Gemma 3's 262,144.

## Example
```python
llm = LLM("./checkpoints/qwen3-8b", return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=151_936))  # config.json: "vocab_size": 151936
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50))
```

## Fix safety
No automatic fix: the right bound depends on the model and the training recipe.

## References
- vLLM `v1/worker/gpu/sample/states.py` (`SamplingStates.add_request`)
- vLLM `v1/engine/input_processor.py:180-190` (the `top_k > 0` check)
- vLLM `transformers_utils/model_arch_config_convertor.py` (`get_vocab_size`: `hf_text_config.vocab_size`)
"""

from __future__ import annotations

from ..model import Launch, Setting, Span
from ..vllm import messages
from ..vllm.unusable_masks import BEYOND_EVERY_VOCABULARY, number
from .base import Invalid, Valid, quote
from .requests_shape import RequestFieldRule
from .rpl101_greedy_request import ENGINE

_FOLDER = 'from vllm import LLM, SamplingParams\nllm = LLM("./ckpt", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
_QWEN = '{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 4096, "vocab_size": 151936}\n'
_SERVE = "vllm serve ckpt --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs "
_GEMMA = '{"model_type": "gemma3", "text_config": {"hidden_size": 2560, "vocab_size": 262208}, "vision_config": {}}\n'


class TopKBeyondVocabulary(RequestFieldRule):
    code = "RPL304"
    name = "replay-top-k-beyond-vocabulary"
    summary = "A request's top_k is at or above the vocabulary size, so vLLM samples without top-k"
    severity = "warning"
    vllm_message = messages.REQUEST_TOP_K
    field = "top_k"

    def flags(self, setting: Setting, launch: Launch) -> bool:
        value = number(setting)
        bound = launch.vocabulary.value if launch.vocabulary is not None else BEYOND_EVERY_VOCABULARY
        return value is not None and value >= bound

    def place(self, setting: Setting, launch: Launch) -> Span:
        """A top_k read from the model's own `vocab_size` is decided where the request takes it
        (the first place it passed through), not in the model's config.json, which is the bound."""
        vocabulary = launch.vocabulary
        if vocabulary is not None and setting.span == vocabulary.span and setting.via:
            return setting.via[0]
        return setting.span

    def describe(self, setting: Setting, to: str, launch: Launch) -> tuple[str, str]:
        vocabulary = launch.vocabulary
        if vocabulary is None:
            size = "above the vocabulary size into no top-k"
        else:
            said = f"{quote(vocabulary)} in {vocabulary.span.path}"
            size = f"of the vocabulary size or more ({said}) into no top-k"
        taken = vocabulary is not None and setting.span == vocabulary.span  # the request's top_k is the model's vocab_size
        return (
            f"top_k set to {quote(setting)} passes the top_k > 0 check" if taken else f"{quote(setting)} passes the top_k > 0 check",
            f"then turns a top_k {size}: the masks are as large as the check exists to prevent",
        )

    def evidence(self, launch: Launch) -> tuple[Span, ...]:
        return () if launch.vocabulary is None else (launch.vocabulary.span,)

    VALID = (
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=50))\n'),
        Valid(_SERVE + "--override-generation-config.top_k 151935\n", filename="serve.sh", files={"ckpt/config.json": _QWEN}),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=100_000))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(top_k=10**9))\n'),
        Valid(_FOLDER + 'llm.generate(["hi"], SamplingParams(top_k=151935))\n', files={"ckpt/config.json": _QWEN}),
        Valid(_FOLDER + 'llm.generate(["hi"], SamplingParams(top_k=262_207))\n', files={"ckpt/config.json": _GEMMA}),
    )
    INVALID = (
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=1_000_000))\n', message="no top-k"),
        Invalid(
            _SERVE + "--override-generation-config.top_k 151936\n",
            filename="serve.sh",
            files={"ckpt/config.json": _QWEN},
            message="default",
        ),
        Invalid(ENGINE + 'K = 2147483647\nllm.generate(["hi"], SamplingParams(top_k=K))\n', message="top_k=K"),
        Invalid(
            ENGINE + 'for params in (SamplingParams(top_k=64), SamplingParams(top_k=1 << 18)):\n    llm.generate(["hi"], params)\n',
            message="top_k=1 << 18",
        ),
        Invalid(
            "actor_rollout_ref:\n  rollout:\n    name: vllm\n    top_k: 1000000\n"
            "    engine_kwargs:\n      vllm:\n        return_sampling_mask: true\n        logprobs_mode: processed_logprobs\n"
            "trainer:\n  val_before_train: false\n",
            filename="verl/ppo_trainer.yaml",
            message="above the vocabulary size",
        ),
        Invalid(
            _FOLDER + 'llm.generate(["hi"], SamplingParams(top_k=151_936))\n',
            files={"ckpt/config.json": _QWEN},
            message='`"vocab_size": 151936` in ckpt/config.json',
        ),
        Invalid(
            _FOLDER.replace("./ckpt", "ckpt/") + 'params = SamplingParams(top_k=262_208, temperature=1.0)\nllm.generate(["hi"], params)\n',
            files={"ckpt/config.json": _GEMMA},
            message="of the vocabulary size or more",
        ),
        Invalid(
            "import subprocess, requests\n"
            'subprocess.Popen(["vllm", "serve", "ckpt", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
            'requests.post("http://localhost:8000/inference/v1/generate", json={"token_ids": [1], "sampling_params": {"top_k": 151936}})\n',
            files={"ckpt/config.json": _QWEN},
            message='`"top_k": 151936` passes the top_k > 0 check',
        ),
        Invalid(
            _FOLDER + 'llm.generate(["hi"], SamplingParams(top_k=300_000))\n',
            files={"ckpt/config.json": '{"vocab_size": 151936,'},  # not JSON: every vocabulary is the bound
            message="above the vocabulary size into no top-k",
        ),
    )

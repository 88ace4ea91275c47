"""## What it does
Flags a request to an engine with sampling distribution replay that sets a repetition,
presence or frequency penalty away from its neutral value (1.0, 0.0, 0.0) or a `logit_bias`
with a bias other than 0 (a dict written with an entry is non-empty whatever its keys are at run
time; one whose every bias is 0 adds nothing): in `SamplingParams(...)` passed to `generate`/`chat` of an `LLM` built with
`return_sampling_mask=True`, and in `--override-generation-config` of a `vllm serve` replay
launch, which makes them the default of every request the server renders (`/v1/completions/render`, `/v1/chat/completions/render` and
the other render endpoints build the `/inference/v1/generate` bodies that carry the mask,
`entrypoints/scale_out/render/serving.py:107-178`); a body the client writes itself takes only
`max_tokens` from it (`token_in_token_out/serving.py:386-397`). Requests
that the tree sends to a replay server it starts (the address names its `--port`, vLLM's default
8000, and a host that reaches it: the same file, or `localhost`, `127.0.0.1`, `0.0.0.0`, a
compose service's name or a Kubernetes Service's in another, as RPL301 says) are read too: the OpenAI client's `presence_penalty=`,
`frequency_penalty=`, `logit_bias=` and its `extra_body`, and the `sampling_params` of a
`requests`/`httpx` post to `/inference/v1/generate`. A TRL trainer in server mode is read as the
request TRL sends the `trl vllm-serve` that asks for the mask: `GRPOConfig`, `RLOOConfig` or
`DistillationConfig` with `use_vllm=True, vllm_mode="server"` in Python, or the same fields on a
command line (`trl grpo --config grpo.yaml`, `accelerate launch train.py --use_vllm --vllm_mode
server --repetition_penalty 1.1` for TRL's scripts or a program that parses its config with
`TrlParser`), its `repetition_penalty` and every key of the `generation_kwargs` sent after it.
Across files the finding is at the client, the server beside it; two servers on one port tie
nothing.

## Why is this bad?
vLLM accepts the request, and the mask no longer describes a distribution the trainer can
rebuild. The mask is the set of tokens whose final logit is finite
(`v1/worker/gpu/sample/output.py:61`), and the processed logprobs are a softmax over those
logits. The logit bias adds to them and the penalties scale them before the mask is taken
(`v1/worker/gpu/sample/sampler.py:69-76, 251-253`, `logit_bias.py:225-236`,
`penalties.py:54-63, 88-104`): the values change, the set does not, so a trainer that computes
softmax(logits / T) over the mask gets another distribution than the one vLLM sampled from.

TRL 1.16.0 sends `repetition_penalty` with every generation request in server mode
(`trl/generation/vllm_generation.py:617-632`, `trl/generation/vllm_client.py:431-455`); its
default is TRL's own, 1.0 (`trl/trainer/grpo_config.py:573-574`), which is neutral. Framework
settings that never reach vLLM are not flagged: verl 0.9.1's agent loop never sends
`rollout.repetition_penalty`, and SkyRL 0.3.0 drops it (but sends each key of
`generator.sampling_params.additional_kwargs` as written, `engine_utils.py:78-81`, which is
read). Neutral values (`1.0`, `0.0`, `{}`)
change nothing and are not flagged either, nor is a `logit_bias` whose biases are all 0 (the
kernel adds each bias to its token's logit, `logit_bias.py:225-236`).

## Example
```python
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50, repetition_penalty=1.1))
```

## Use instead
```python
llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50))
```
or apply the same penalty in the trainer when it rebuilds the distribution.

## Fix safety
For `--override-generation-config`, the fix sets the penalty to its neutral value where the key
has its own place (a dotted `--override-generation-config.repetition_penalty` word, a key of a
YAML `--config` file or of a dict literal). It is unsafe: what the policy generates changes.
Requests a program builds are not edited: replaylint edits engine arguments only.

## References
- vLLM `v1/worker/gpu/sample/penalties.py:302-307` (`use_penalty`: the neutral values)
- vLLM `config/model.py:1884-1940` (`get_diff_sampling_param`: `override_generation_config`)
"""

from __future__ import annotations

from typing import Iterator

from ..model import Applicability, Fix, Launch, SetSetting, Setting
from ..vllm.releases import Release
from ..vllm.unusable_masks import NEUTRAL_PENALTIES, shifting_penalties
from .base import Invalid, Report, Rule, Valid, quote
from .requests_shape import Addressed, Reads, override_defaults, replay_requests, resting_on
from .rpl101_greedy_request import ENGINE

_SHIFTS = "changes the logits the mask keeps, not the set"
_VERDICT = "samples from a distribution that softmax(logits / T) over the mask does not rebuild"
_LINES = "`v1/worker/gpu/sample/penalties.py:88-104`, `sampler.py:69-76, 251-253`"
_OVERRIDE = "override_generation_config"
_SERVER = (
    "import subprocess\nimport requests\nfrom openai import AsyncOpenAI\n\n"
    'SERVER = subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"])\n'
    'client = AsyncOpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")\n'
)
_ASK = 'async def ask(prompt):\n    return await client.completions.create(model="m", prompt=prompt, {args})\n'
_GENERATE = 'requests.post("http://localhost:8000/inference/v1/generate", json={{"token_ids": [1], "sampling_params": {params}}})\n'
_SKYRL = (
    "uv run --isolated --extra vllm -m skyrl.train.entrypoints.main_base \\\n"
    "  generator.inference_engine.engine_init_kwargs.return_sampling_mask=true \\\n"
    "  generator.inference_engine.engine_init_kwargs.logprobs_mode=processed_logprobs \\\n"
    "  generator.sampling_params.top_k=64 generator.eval_sampling_params.top_k=20 {extra}\n"
)
_NESTED = (
    'body = {{"token_ids": [1], "sampling_params": {{"top_k": 20, "repetition_penalty": 1.2}}}}\n'
    'body["sampling_params"]["{key}"] = {value}\n'
    'requests.post("http://localhost:8000/inference/v1/generate", json=body)\n'
)
_PENALISED = "def sample(ids, penalty=1.1):\n    " + _GENERATE.replace("[1]", "ids").format(
    params='{"top_k": 20, "repetition_penalty": penalty}'
)


def _subject(setting: Setting, addressed: Addressed) -> str:
    if not addressed.sender:
        return f"{quote(setting)} in a request to {addressed.to} {_SHIFTS}"
    return (
        f"{quote(setting)} is sent by {addressed.sender} with every request to {addressed.to}, and vLLM applies it to the "
        f"logits before the mask is taken (0.34.0 {_LINES}): it {_SHIFTS}"
    )


class RequestShiftsDistribution(Rule):
    code = "RPL302"
    name = "replay-request-shifts-distribution"
    summary = "A penalty or logit bias in a request to a replay engine shifts the distribution the mask describes"
    severity = "warning"
    vllm_message = "(no message: vLLM applies the penalty before the mask)"
    fix_applicability = Applicability.UNSAFE

    def check(self, launch: Launch, release: Release) -> Iterator[Report]:
        for addressed in replay_requests(launch, Reads.SENT):
            for setting in shifting_penalties(addressed.request.settings):
                subject = _subject(setting, addressed)
                yield Report(
                    setting.span, subject, _VERDICT, related=addressed.related, absent=setting.implied, conditions=resting_on(setting)
                )
        yield from self._defaults(override_defaults(launch))

    def _defaults(self, defaults: dict[str, Setting]) -> Iterator[Report]:
        for setting in shifting_penalties(defaults):
            neutral = NEUTRAL_PENALTIES[setting.name]
            fix = Fix(self.fix_applicability, f"Set {setting.name} to {neutral}", (SetSetting(f"{_OVERRIDE}.{setting.name}", neutral),))
            yield Report(
                setting.span,
                f"{quote(setting)} makes {setting.name}={setting.value!r} the default of every request this replay server renders, which {_SHIFTS}",
                _VERDICT,
                fix,
            )

    VALID = (
        Valid(_SERVER + _ASK.format(args='extra_body={"top_k": 20, "repetition_penalty": 1.0}, presence_penalty=0')),
        Valid((_SERVER + _ASK.format(args='extra_body={"repetition_penalty": 1.1}')).replace("localhost:8000", "localhost:8010")),
        Valid(
            _SERVER.replace('"--enable-scale-out"', '"--enable-scale-out", *EXTRA') + _GENERATE.format(params='{"logit_bias": {"7": 3}}')
        ),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=20, repetition_penalty=1.0))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, presence_penalty=0.0, frequency_penalty=0, logit_bias={}))\n'),
        Valid('from vllm import LLM, SamplingParams\nllm = LLM("m")\nllm.generate(["hi"], SamplingParams(repetition_penalty=1.2))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, repetition_penalty=PENALTY))\n'),
        Valid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={**BIAS}))\n'),  # BIAS may be empty
        Valid(ENGINE + 'def go(eos):\n    llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={eos: 0.0, 13: 0}))\n'),
        Valid(_SERVER + _PENALISED + "sample([1], penalty=1.0)\n"),  # each call passes the neutral value
        Valid(_SERVER + _NESTED.format(key="repetition_penalty", value="1.0")),  # written over with the neutral value
        Valid(_SKYRL.format(extra="generator.sampling_params.repetition_penalty=1.2"), filename="run.sh"),  # SkyRL drops it
        Valid(ENGINE + 'CFG = {"top_k": 40, "repetition_penalty": 1.0}\nllm.generate(["hi"], SamplingParams(**CFG))\n'),
        Valid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
            ' --override-generation-config \'{"repetition_penalty": 1.0, "temperature": 0.7}\'\n',
            filename="serve.sh",
        ),
        Valid(
            "actor_rollout_ref:\n  rollout:\n    name: vllm\n    repetition_penalty: 1.05\n    top_k: 20\n"
            "    engine_kwargs:\n      vllm:\n        return_sampling_mask: true\n        logprobs_mode: processed_logprobs\n",
            filename="verl/ppo_trainer.yaml",
        ),
    )
    INVALID = (
        Invalid(_SERVER + _ASK.format(args='extra_body={"top_k": 20, "repetition_penalty": 1.05}'), message='"repetition_penalty": 1.05'),
        Invalid(
            _SERVER + _ASK.format(args="presence_penalty=0.4, logit_bias={'50256': -100}"),
            count=2,
            message="to the replay server started at line 5",
        ),
        Invalid(_SERVER + _GENERATE.format(params='{"top_k": 20, "frequency_penalty": 0.5}'), message='"frequency_penalty": 0.5'),
        Invalid(
            _SERVER
            + "import json\n"
            + _GENERATE.format(params='{"top_k": 20, "presence_penalty": 0.5}')
            .replace("json={", "data=json.dumps({")
            .replace("})\n", "}))\n"),
            message='"presence_penalty": 0.5',
        ),
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={42: 5.0}))\n', message="logit_bias={42: 5.0}"),
        Invalid(ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={42: 0.0, 7: -1}))\n', message="logit_bias="),
        Invalid(_SERVER + _PENALISED + "sample([1])\n", message='"repetition_penalty": penalty'),  # the default
        Invalid(
            _SERVER + _NESTED.format(key="presence_penalty", value="0.5").replace("1.2", "1.0"),
            message='body["sampling_params"]["presence_penalty"] = 0.5',
        ),
        Invalid(
            _SKYRL.format(extra="generator.sampling_params.additional_kwargs.repetition_penalty=1.2"),
            filename="run.sh",
            message="additional_kwargs.repetition_penalty=1.2",
        ),
        Invalid(
            ENGINE + "def run(prompts):\n"
            '    cfg = {"temperature": 1.0, "top_k": 40, "presence_penalty": 0.2}\n'
            "    return llm.generate(prompts, SamplingParams(**cfg))\n",
            message='`"presence_penalty": 0.2`',
        ),
        Invalid(  # non-empty whatever id the tokenizer gives at run time
            ENGINE + 'llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={tokenizer.eos_token_id: -5.0}))\n',
            message="logit_bias={tokenizer.eos_token_id: -5.0}",
        ),
        Invalid(
            ENGINE + "EOS_ID = 151643\n" + 'llm.generate(["hi"], SamplingParams(top_k=20, logit_bias={EOS_ID: 2.0}))\n',
            message="logit_bias={EOS_ID: 2.0}",
        ),
        Invalid(
            ENGINE + "BAN = {151643: -100, 151645: -100}\n"
            "def sample(prompts):\n    return llm.generate(prompts, SamplingParams(top_k=20, logit_bias=BAN))\n",
            message="logit_bias=BAN",
        ),
        Invalid(
            ENGINE + 'llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=20, repetition_penalty=1.1))\n',
            message="repetition_penalty=1.1",
        ),
        Invalid(
            ENGINE + 'params = SamplingParams(top_k=20, presence_penalty=0.5, frequency_penalty=-0.2)\nllm.generate(["hi"], params)\n',
            count=2,
            message="in a request to a replay engine",
        ),
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
            " --override-generation-config '{\"frequency_penalty\": 0.3}'\n",
            filename="serve.sh",
            message="the default of every request this replay server renders",
        ),
        Invalid(
            "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
            " --override-generation-config.repetition_penalty 1.1\n",
            filename="serve.sh",
            message="repetition_penalty=",
            fixed="vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
            " --override-generation-config.repetition_penalty 1.0\n",
        ),
    )

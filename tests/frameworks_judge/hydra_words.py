"""Hydra's refusals of verl's command-line overrides, judged by Hydra itself.

`frameworks/hydra_struct.py` decides from the keys `scripts/dump_verl_config_keys.py` recorded
whether Hydra refuses an override ("Could not override ...", "Could not append to config ...").
Here each installed verl release's packaged configuration (`ppo_trainer`, `ppo_megatron_trainer`,
from the wheels scripts/setup-framework-judges.sh installs) is composed by Hydra, and Hydra's own
`ConfigLoaderImpl._apply_overrides_to_config` (the step of `compose` that refuses) applies each
case to a copy: words alone and in ordered pairs, as users write them. Only YAML is read; nothing
of verl is imported. Run by scripts/frameworks_judge.py in the project's virtualenv (Hydra is a
dependency of replaylint).

A disagreement is **false** when replaylint refuses what Hydra accepts or quotes another message,
**missed** when Hydra refuses and replaylint has no verdict (a key the releases of one edition
disagree about is not judged: precision first, so misses are counted, not failed).
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from pathlib import Path

from replaylint.frameworks.hydra_struct import PACKAGED, first_refusal
from replaylint.frameworks.verl import EDITIONS
from replaylint.model import Span
from replaylint.vllm.command_line import Token

EDITION_OF = {"0.9.1": "0.9.1", "0.9.0": "0.9.0", "0.8.0": "0.8.0", "0.7.1": "0.8.0"}  # frameworks/verl.py EDITIONS
_R = "actor_rollout_ref.rollout"
_M = f"{_R}.engine_kwargs.vllm"
WORDS = (
    f"{_M}.return_sampling_mask=True",
    f"+{_M}.return_sampling_mask=True",
    f"++{_M}.return_sampling_mask=true",
    f"{_M}.return-sampling-mask=true",
    f"{_M}.logprobs_mode=processed_logprobs",
    f"{_M}={{return_sampling_mask:true}}",
    f"+{_M}={{return_sampling_mask:true}}",
    f"{_R}.engine_kwargs={{vllm:{{return_sampling_mask:true}}}}",
    f"+{_M}.speculative_config={{method:ngram,num_speculative_tokens:3}}",
    f"{_M}.speculative_config.method=ngram",
    f"{_M}=null",
    f"{_R}.logprobs_mode=raw_logprobs",
    f"+{_R}.logprobs_mode=processed_logprobs",
    f"++{_R}.logprobs_mode=raw_logprobs",
    f"{_R}.top_k=50",
    f"+{_R}.top_k=50",
    f"++{_R}.top_k=50",
    f"+{_R}.top_k=[1]",
    f"+{_R}.val_kwargs.top_k=20",
    f"{_R}.val_kwargs.temperature=1.0",
    f"+{_R}.temperature=0.7",
    f"{_R}.max_model_len.top_k=1",
    f"+{_R}.max_model_len=4096",
    f"{_R}.sampling_mask=true",
    f"+{_R}.sampling_mask=true",
    f"{_R}.custom.temperature=1",
    "+trainer.test_freq=5",
    "trainer.val_before_train=False",
)
PAIRS = 24  # ordered pairs of the first words, in a fixed order


@dataclass
class HydraReport:
    compositions: int = 0
    false: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


def cases() -> list[tuple[str, ...]]:
    pairs = list(itertools.permutations(WORDS[:10], 2))[:PAIRS]
    return [(word,) for word in WORDS] + pairs


def run(frameworks_path: Path) -> HydraReport:
    from hydra import compose, initialize_config_dir
    from hydra._internal.config_loader_impl import ConfigLoaderImpl
    from hydra.core.global_hydra import GlobalHydra
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import ConfigCompositionException

    parser = OverridesParser.create()
    span = Span("hydra", 1, 1, 1, 2, 0, 1)
    report = HydraReport()
    for release, edition in EDITION_OF.items():
        config_dir = frameworks_path / f"verl-{release}" / "verl" / "trainer" / "config"
        if not config_dir.is_dir():
            continue
        for name in PACKAGED:
            GlobalHydra.instance().clear()
            with initialize_config_dir(config_dir=str(config_dir), version_base=None):
                composed = compose(config_name=name)
            GlobalHydra.instance().clear()
            for words in cases():
                try:
                    ConfigLoaderImpl._apply_overrides_to_config(parser.parse_overrides(list(words)), copy.deepcopy(composed))
                    truth = None
                except ConfigCompositionException as error:
                    truth = " ".join(str(error).split())
                found = first_refusal([Token(word, span, word) for word in words], EDITIONS.named(edition).hydra_keys, name)
                mine = None if found is None else found.message
                report.compositions += 1
                where = f"verl {release} {name} {' '.join(words)}: Hydra {truth!r}, replaylint {mine!r}"
                if mine is not None and mine != truth:
                    report.false.append(where)
                elif mine is None and truth is not None:
                    report.missed.append(where)
    return report

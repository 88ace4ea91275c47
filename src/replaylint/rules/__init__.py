"""The rule table: every rule by code, in code order."""

from __future__ import annotations

from .base import Rule
from .rpl001_logits_processors import LogitsProcessorsWithSamplingMask
from .rpl002_speculative_decoding import SpeculativeDecodingWithSamplingMask
from .rpl003_processed_logprobs import SamplingMaskRequiresProcessedLogprobs
from .rpl004_model_runner_v2 import SamplingMaskRequiresModelRunnerV2
from .rpl005_diffusion_model import SamplingMaskWithDiffusionModel
from .rpl006_batch_sharded_sampling import SamplingMaskWithBatchShardedSampling
from .rpl007_sampling_mask_unavailable import SamplingMaskUnavailable
from .rpl101_greedy_request import ReplayRequestGreedy
from .rpl102_request_top_k import ReplayRequestWithoutTopK
from .rpl201_malformed_replay_option import MalformedReplayOption
from .rpl202_config_file_ignored import ConfigFileIgnored
from .rpl203_broken_line_continuation import BrokenLineContinuation
from .rpl204_framework_rejects_launch import FrameworkRejectsLaunch
from .rpl205_dotted_keys_replace_value import DottedKeysReplaceValue
from .rpl206_runner_variable_removed import RunnerVariableRemoved
from .rpl301_masks_never_returned import MasksNeverReturned
from .rpl302_request_shifts_distribution import RequestShiftsDistribution
from .rpl303_thinking_budget import ThinkingBudgetWithReplay
from .rpl304_top_k_beyond_vocabulary import TopKBeyondVocabulary
from .rpl305_trace_replay import TraceReplayWithSamplingMask
from .rpl306_lossy_speculative_verification import LossySpeculativeVerification
from .rpl307_generation_config_defaults import GenerationConfigDefaults
from .rpl308_watermark_with_replay import WatermarkWithReplay
from .rpl309_temperature_raised import TemperatureRaised
from .rpl900_unparsable_file import UnparsableFile
from .rpl901_unused_suppression import UnusedSuppression
from .rpl902_incomplete_analysis import IncompleteAnalysis

RULES: tuple[Rule, ...] = (
    LogitsProcessorsWithSamplingMask(),
    SpeculativeDecodingWithSamplingMask(),
    SamplingMaskRequiresProcessedLogprobs(),
    SamplingMaskRequiresModelRunnerV2(),
    SamplingMaskWithDiffusionModel(),
    SamplingMaskWithBatchShardedSampling(),
    SamplingMaskUnavailable(),
    ReplayRequestGreedy(),
    ReplayRequestWithoutTopK(),
    MalformedReplayOption(),
    ConfigFileIgnored(),
    BrokenLineContinuation(),
    FrameworkRejectsLaunch(),
    DottedKeysReplaceValue(),
    RunnerVariableRemoved(),
    MasksNeverReturned(),
    RequestShiftsDistribution(),
    ThinkingBudgetWithReplay(),
    TopKBeyondVocabulary(),
    TraceReplayWithSamplingMask(),
    LossySpeculativeVerification(),
    GenerationConfigDefaults(),
    WatermarkWithReplay(),
    TemperatureRaised(),
    UnparsableFile(),
    UnusedSuppression(),
    IncompleteAnalysis(),
)
BY_CODE = {rule.code: rule for rule in RULES}
BY_NAME = {rule.name: rule for rule in RULES}

# Findings the engine itself reports while reading files (their rules document them).
UNPARSABLE_FILE = (UnparsableFile.code, UnparsableFile.name, UnparsableFile.summary)
UNUSED_SUPPRESSION = (UnusedSuppression.code, UnusedSuppression.name, UnusedSuppression.summary)
INCOMPLETE_ANALYSIS = (IncompleteAnalysis.code, IncompleteAnalysis.name, IncompleteAnalysis.summary)


def resolve(selector: str) -> list[str]:
    """Codes matched by a code, a code prefix (`RPL0`, `RPL`), a rule name or `ALL`."""
    selector = selector.strip()
    if selector.upper() == "ALL":
        return list(BY_CODE)
    if selector in BY_NAME:
        return [BY_NAME[selector].code]
    codes = [code for code in BY_CODE if code.startswith(selector.upper())]
    if not codes or not selector.upper().startswith("RPL"):
        raise ValueError(f"unknown rule selector: {selector!r}")
    return codes


def selected(selector: str) -> list[str]:
    """The codes a `select` entry turns on: `resolve`'s, but a preview rule only by its own code
    or name (`ALL` and prefixes leave it off)."""
    explicit = selector.strip() in BY_NAME or selector.strip().upper() in BY_CODE
    return [code for code in resolve(selector) if explicit or not BY_CODE[code].preview]

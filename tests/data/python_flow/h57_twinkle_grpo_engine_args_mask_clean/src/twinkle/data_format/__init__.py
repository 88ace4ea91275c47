from .sampling import SampledSequence, SampleResponse, SamplingParams, StopReason

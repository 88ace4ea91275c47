# Imitates hkust-nlp/dart-math dart_math/gen.py (Generator: the engine and the sampling params held together)
import logging

from vllm import LLM, SamplingParams


class Generator:
    """Generator with various features such as stopping criteria and code execution."""

    def __init__(self, llm: LLM, sampling_params: SamplingParams, code_exec_cfg=None):
        self.llm = llm
        self.sampling_params = sampling_params
        self.code_exec_cfg = code_exec_cfg
        if self.code_exec_cfg is not None and self.code_exec_cfg.output_begin.strip() not in self.sampling_params.stop:
            self.sampling_params.stop.append(self.code_exec_cfg.output_begin.strip())

    def gen_pure(self, input_strs: list[str]):
        logging.info(f"{self.sampling_params=}")
        req_outputs = self.llm.generate(input_strs, self.sampling_params)
        return req_outputs

    def gen(self, query_strs: list[str], n_paths_per_save: int = 2**14):
        results = []
        for start in range(0, len(query_strs), n_paths_per_save):
            results.extend(self.gen_pure(query_strs[start : start + n_paths_per_save]))
        return results

# Imitates snowflakedb/ArcticTraining arctic_training/synth/vllm_callers.py (VllmSynth: LLM(**model_params), a
# SamplingParams default in the signature, a dict turned into SamplingParams, llm.chat(messages=...)).
from vllm import LLM, SamplingParams


class InMemoryBatchProcessor:
    def __init__(self, work_dir=None):
        self.work_dir = work_dir
        self.requests = {}


class VllmSynth(InMemoryBatchProcessor):
    def __init__(
        self,
        model_params,
        sampling_params=SamplingParams(temperature=1.0),
        work_dir=None,
    ):
        super().__init__(work_dir=work_dir)
        self.llm = LLM(**model_params)
        if isinstance(sampling_params, dict):
            sampling_params = SamplingParams(**sampling_params)
        self.sampling_params = sampling_params

    def add_chat_to_batch_task(self, task_name, messages):
        self.requests.setdefault(task_name, []).append({"custom_id": f"{task_name}_0", "messages": messages})

    def execute_batch_task(self, task_name):
        conversations = [r["messages"] for r in self.requests[task_name]]
        return self.llm.chat(messages=conversations, sampling_params=self.sampling_params, use_tqdm=True)

# Imitates deepseek-ai/DeepSeek-Prover-V1.5 configs/RMaxTS.py (a mmengine-style Python config)
from prover.utils import AttrDict

data_path = "datasets/minif2f.jsonl"
data_split = "valid"
model_path = "deepseek-ai/DeepSeek-Prover-V1.5-RL"
model_args = AttrDict(
    mode="cot",
    temperature=1,
    max_tokens=2048,
    top_p=0.95,
    top_k=64,
)
n_search_procs = 256

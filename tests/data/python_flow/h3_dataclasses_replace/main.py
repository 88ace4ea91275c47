# Imitates NovaSky-AI/SkyRL skyrl-train/skyrl_train/entrypoints/main_base.py building both engines.
from dataclasses import asdict

from vllm import LLM

from config import EVAL, ROLLOUT

rollout_engine = LLM(**asdict(ROLLOUT))
eval_engine = LLM(**asdict(EVAL))

# Imitates mohit-raghavendra/balance-budget tuning/config.py (the directories the inference scripts read).
import os

BASE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_DIR = f"{BASE_DIR}/models"
IFEVAL_OUTPUTS_DIR = f"{BASE_DIR}/outputs/ifeval"
RESPONSES_FILENAME = "responses.jsonl"

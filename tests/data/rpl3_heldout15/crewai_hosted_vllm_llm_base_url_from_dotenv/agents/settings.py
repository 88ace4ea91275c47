import os

from dotenv import load_dotenv

load_dotenv()

BASE_URL = os.getenv("VLLM_BASE_URL")
MODEL = os.getenv("VLLM_MODEL")

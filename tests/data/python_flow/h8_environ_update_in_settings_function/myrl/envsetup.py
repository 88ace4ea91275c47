# Imitates THUDM/slime slime/utils/misc.py: a runtime environment dict applied by a setup function
import os

RUNTIME_ENV = {
    "TOKENIZERS_PARALLELISM": "false",
    "VLLM_USE_V2_MODEL_RUNNER": "0",  # expect: RPL206 "no longer supported"
}


def configure_environment():
    os.environ.update(RUNTIME_ENV)

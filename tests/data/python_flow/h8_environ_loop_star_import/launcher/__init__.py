# Imitates rllm-org/rllm rllm/globals.py (a launcher package with shared constants)

# Imitates rllm-org/rllm rllm/__init__.py (the package whose modules import each other relatively).

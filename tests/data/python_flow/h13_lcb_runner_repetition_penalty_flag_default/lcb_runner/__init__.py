# Imitates LiveCodeBench/LiveCodeBench lcb_runner/__init__.py (package marker).

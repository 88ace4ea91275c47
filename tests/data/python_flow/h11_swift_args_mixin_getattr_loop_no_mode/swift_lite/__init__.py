# Imitates modelscope/ms-swift swift/__init__.py (arguments and the vLLM engine of the package)

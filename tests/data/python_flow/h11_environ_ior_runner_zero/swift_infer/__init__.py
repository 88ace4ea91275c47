# Imitates modelscope/ms-swift swift/infer_engine/__init__.py (the inference engines of the package)

# Imitates hiyouga/LLaMA-Factory src/llamafactory/__init__.py (hparams and chat engines of the package)

# Imitates rednote-hilab/dots.ocr dots_ocr/utils/__init__.py.
from .prompts import dict_promptmode_to_prompt

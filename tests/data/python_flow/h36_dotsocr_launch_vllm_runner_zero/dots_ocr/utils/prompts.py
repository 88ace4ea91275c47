# Imitates rednote-hilab/dots.ocr dots_ocr/utils/prompts.py (two of its prompts).
dict_promptmode_to_prompt = {
    "prompt_layout_all_en": """Please output the layout information from the PDF image, including each layout element's bbox, its category, and the corresponding text content within the bbox.""",
    "prompt_ocr": """Extract the text content from this image.""",
}

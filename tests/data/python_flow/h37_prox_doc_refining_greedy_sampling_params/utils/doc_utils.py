# Imitates GAIR-NLP/ProX utils/doc_utils.py (trimmed: the program's operations are not applied).
def execute_meta_operations(text, program):
    if "drop_doc()" in program:
        return ""
    return text

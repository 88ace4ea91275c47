# Imitates bigcode-project/bigcode-evaluation-harness bigcode_eval/__init__.py (package marker).

# Imitates axolotl-ai-cloud/axolotl src/axolotl/__init__.py (package marker).

# Imitates axolotl-ai-cloud/axolotl src/axolotl/cli/__init__.py (package marker).

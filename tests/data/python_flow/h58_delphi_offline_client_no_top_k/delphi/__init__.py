# Imitates EleutherAI/delphi delphi/__init__.py, delphi/clients/offline.py and delphi/__main__.py (the Offline client an explainer run builds)
import logging

logger = logging.getLogger("delphi")

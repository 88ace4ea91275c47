# Imitates langchain-ai/langchain libs/community/langchain_community/llms/__init__.py (package marker)

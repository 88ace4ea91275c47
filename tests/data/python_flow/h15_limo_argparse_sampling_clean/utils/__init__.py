# Imitates GAIR-NLP/LIMO eval/utils (package marker)

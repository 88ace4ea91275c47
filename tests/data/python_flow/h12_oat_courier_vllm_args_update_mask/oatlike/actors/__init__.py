# Imitates sail-sg/oat (package marker of oat/).

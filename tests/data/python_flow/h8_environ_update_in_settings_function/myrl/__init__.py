# Imitates THUDM/slime slime/utils (a package that prepares the process environment)

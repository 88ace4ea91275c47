# Imitates a project package (myproj/) whose engine settings live in their own module.

"""`python -m audit FILE...`: see audit.cli."""
from audit.cli import main

main()

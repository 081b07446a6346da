"""`python -m fit RECORDS... --profile BASE`: see fit.cli."""
from fit.cli import main

main()

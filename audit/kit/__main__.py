"""`python -m audit.kit build|check` (and the `zhuoji-kit` console script)."""
from audit.kit.cli import main

if __name__ == "__main__":
    main()

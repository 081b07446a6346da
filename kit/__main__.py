"""`python -m kit build|check` (and the `zhuoji-kit` console script)."""
from kit.cli import main

if __name__ == "__main__":
    main()

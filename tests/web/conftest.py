"""Fixtures the web tests share."""
from __future__ import annotations

from pathlib import Path

import pytest

from kit.build import build_kit, write_kit


@pytest.fixture(scope="module")
def kits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of conformance kits: one cuocuo kit of 40 cases (seed 5), as `CONFORMANCE_KITS`."""
    folder = tmp_path_factory.mktemp("kits")
    write_kit(build_kit("cuocuo", {}, cases=40, seed=5, min_count=1), folder / "cuocuo-5")
    return folder

"""`py.typed` is a promise: the package passes `mypy --strict`."""

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def test_the_package_type_checks_strictly():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(PACKAGE / ".venv" / "mypy-cache"), "src/starsgate"],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr

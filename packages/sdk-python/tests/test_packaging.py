"""The distribution: version 1.4.0, a wheel that builds from this directory without a download, typed."""

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import starsgate

PACKAGE = Path(__file__).resolve().parents[1]
TS_SDK = PACKAGE.parent / "sdk"


def test_version():
    assert starsgate.__version__ == "1.4.0"


def test_the_typescript_sdk_and_the_openapi_document_carry_the_same_version():
    """`_version.py` is the one place (the wheel's version is read from it by hatch); everything else agrees."""
    version = starsgate.__version__
    assert json.loads((TS_SDK / "package.json").read_text())["version"] == version
    assert re.search(r"SDK_VERSION = '([^']+)'", (TS_SDK / "src" / "core" / "http.ts").read_text()).group(1) == version
    assert json.loads((TS_SDK / "openapi.json").read_text())["info"]["version"] == version
    assert json.loads((PACKAGE / "package.json").read_text())["version"] == version


def test_a_wheel_builds_offline_and_ships_the_typed_package(tmp_path):
    # --no-build-isolation: the build backend is the one already installed (hatchling), nothing is fetched.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(tmp_path), str(PACKAGE)],
        check=True,
        capture_output=True,
    )
    wheels = list(tmp_path.glob(f"starsgate-{starsgate.__version__}-py3-none-any.whl"))
    assert len(wheels) == 1, list(tmp_path.iterdir())
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"starsgate-{starsgate.__version__}.dist-info/METADATA").decode()
    assert {"starsgate/__init__.py", "starsgate/py.typed", "starsgate/_client.py", "starsgate/_async_client.py"} <= names
    assert not any(name.startswith("tests/") for name in names)
    assert "Requires-Python: >=3.9" in metadata
    assert "Requires-Dist: httpx" in metadata and "Requires-Dist: pydantic" in metadata

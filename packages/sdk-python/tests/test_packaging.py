"""The distribution: the SDKs' version, a wheel that builds from this directory without a download, typed."""

import json
import re
import subprocess
import tarfile
import sys
import zipfile
from pathlib import Path

import starsgate

PACKAGE = Path(__file__).resolve().parents[1]
TS_SDK = PACKAGE.parent / "sdk"
# The one source: packages/sdk/package.json, which changesets writes; scripts/release/versions.ts
# generates _version.py (which hatch reads for the wheel) and the other copies from it.
VERSION = json.loads((TS_SDK / "package.json").read_text())["version"]


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)
    assert starsgate.__version__ == VERSION


def test_the_typescript_sdk_and_the_openapi_document_carry_the_same_version():
    """Every generated copy agrees with packages/sdk/package.json."""
    version = starsgate.__version__
    assert json.loads((TS_SDK / "package.json").read_text())["version"] == version
    assert re.search(r"SDK_VERSION = '([^']+)'", (TS_SDK / "src" / "core" / "version.ts").read_text()).group(1) == version
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


def _validated_metadata(raw: bytes):
    """Core metadata as twine check validates it (twine is not on this machine's package index):
    packaging's strict parser, which raises on a missing, unknown or malformed field."""
    from packaging.metadata import Metadata

    return Metadata.from_email(raw, validate=True)


def _check_metadata(raw: bytes, files: set, prefix: str) -> None:
    metadata = _validated_metadata(raw)
    assert str(metadata.name) == "starsgate" and str(metadata.version) == VERSION
    assert metadata.summary and metadata.requires_python is not None
    # The long description PyPI shows: the README, rendered as Markdown.
    assert metadata.description_content_type == "text/markdown"
    assert metadata.description and metadata.description.startswith("# starsgate (Python SDK)")
    # PEP 639: an SPDX licence expression and the licence text itself in the distribution.
    assert str(metadata.license_expression) == "MIT"
    assert metadata.license_files == ["LICENSE"]
    assert prefix + "LICENSE" in files


def test_the_wheel_and_sdist_metadata_pass_a_strict_check_and_carry_the_licence(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(tmp_path), str(PACKAGE)],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(tmp_path)],
        check=True,
        capture_output=True,
        cwd=PACKAGE,
    )
    name = f"starsgate-{VERSION}"
    with zipfile.ZipFile(tmp_path / f"{name}-py3-none-any.whl") as wheel:
        files = set(wheel.namelist())
        _check_metadata(wheel.read(f"{name}.dist-info/METADATA"), files, f"{name}.dist-info/licenses/")
    with tarfile.open(tmp_path / f"{name}.tar.gz") as sdist:
        files = set(sdist.getnames())
        raw = sdist.extractfile(f"{name}/PKG-INFO").read()
        _check_metadata(raw, files, f"{name}/")
        assert f"{name}/CHANGELOG.md" in files


def test_the_strict_check_refuses_broken_metadata():
    import pytest
    from packaging.metadata import ExceptionGroup as MetadataErrors

    with pytest.raises(MetadataErrors):
        _validated_metadata(b"Metadata-Version: 2.4\nName: starsgate\nVersion: not a version\n")
    with pytest.raises(MetadataErrors):
        _validated_metadata(b"Metadata-Version: 2.4\nName: starsgate\nVersion: 1.0\nLicense-Expression: MIT OR\n")

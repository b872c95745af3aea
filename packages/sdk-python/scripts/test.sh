#!/bin/sh
# Runs the Python SDK's tests in packages/sdk-python/.venv. The venv and its packages come from the
# package index pip is configured for; a second run reuses them unless pyproject.toml changed.
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=.venv
STAMP="$VENV/.installed"
WANT="$(cat pyproject.toml scripts/test.sh | cksum)"

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
if [ "$(cat "$STAMP" 2>/dev/null || true)" != "$WANT" ]; then
  # --retries 0: an index this machine cannot reach is skipped at once instead of retried.
  "$VENV/bin/python" -m pip install --quiet --retries 0 --disable-pip-version-check \
    httpx pydantic pytest respx pytest-asyncio hatchling mypy
  # Editable, built with the venv's own hatchling: no download, and source edits need no reinstall.
  "$VENV/bin/python" -m pip install --quiet --retries 0 --disable-pip-version-check \
    --no-build-isolation --no-deps -e .
  echo "$WANT" > "$STAMP"
fi
exec "$VENV/bin/python" -m pytest -q "$@"

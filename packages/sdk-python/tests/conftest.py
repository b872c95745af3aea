import json
import os
import select
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
import respx

from starsgate import AsyncClient, Client

BASE = "http://127.0.0.1:8080"
SEED = "abandon ability able about above absent absorb abstract absurd abuse access accident"
PURCHASE_ID = "5b3c3a52-6f0e-4c4e-9d1e-1f1f6c7b8a90"
CHECKOUT_ID = "0d4f7a5e-8b1c-4f8e-a3b9-5e2d1c9f7a61"


def error_body(code: str, message: str = "nope", **extra: Any) -> Dict[str, Any]:
    return {"code": code, "message": message, "details": [], "request_id": "req-1", **extra}


def purchase_body(status: str = "queued", **extra: Any) -> Dict[str, Any]:
    return {
        "purchase_id": PURCHASE_ID,
        "status": status,
        "product": "stars",
        "username": "@alice",
        "amount": 50,
        "payment_method": "gram",
        "created_at": "2026-11-23T10:00:00.000Z",
        "updated_at": "2026-11-23T10:00:01.000Z",
        **extra,
    }


class Sleeps(List[float]):
    pass


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> Sleeps:
    """Backoff is recorded, not waited for."""
    recorded = Sleeps()

    def fake_sleep(seconds: float) -> None:
        recorded.append(seconds)

    async def fake_async_sleep(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(Client, "_sleep", staticmethod(fake_sleep))
    monkeypatch.setattr(AsyncClient, "_sleep", staticmethod(fake_async_sleep))
    return recorded


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        yield router


@pytest.fixture
def client() -> Iterator[Client]:
    with Client(BASE) as c:
        yield c


@pytest.fixture
async def aclient() -> Any:
    async with AsyncClient(BASE) as c:
        yield c


def new_key() -> str:
    return str(uuid.uuid4())


ROOT = Path(__file__).resolve().parents[3]
STARTUP_SECONDS = 240


@pytest.fixture(scope="session")
def stack() -> Iterator[Dict[str, Any]]:
    """The real gateway, worker and sandbox, started from their bundles (packages/sdk/test/support/stack-cli.ts) over a
    fresh database, once for every test that asks. Set STARSGATE_SKIP_INTEGRATION=1 to skip those tests."""
    if os.environ.get("STARSGATE_SKIP_INTEGRATION") == "1":
        pytest.skip("STARSGATE_SKIP_INTEGRATION=1")
    node = shutil.which("node")
    assert node, "node is needed to start the gateway, worker and sandbox"
    with tempfile.TemporaryFile(mode="w+") as stderr:
        process = subprocess.Popen(
            [node, "--import", "tsx", "packages/sdk/test/support/stack-cli.ts"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        try:
            ready, _, _ = select.select([process.stdout], [], [], STARTUP_SECONDS)
            line = process.stdout.readline() if ready else ""
            if not line:
                stderr.seek(0)
                raise RuntimeError(f"the stack did not start:\n{stderr.read()[-5000:]}")
            yield json.loads(line)
        finally:
            # Closing its standard input stops the stack (children, database, data directory).
            process.stdin.close()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()


def demo_wallet(stack: Dict[str, Any], wallet_id: str) -> Dict[str, Any]:
    return next(w for w in stack["wallets"] if w["id"] == wallet_id)

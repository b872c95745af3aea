import uuid
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

import inspect
import json

import httpx
import pytest

from starsgate import AsyncClient, Client, PurchaseStatus, ServiceUnavailableError, WaitTimeoutError

from .conftest import PURCHASE_ID, SEED, error_body, purchase_body

ACCEPTED = {"purchase_id": PURCHASE_ID, "status": "queued", "status_url": f"/api/v1/purchases/{PURCHASE_ID}"}


def public_methods(cls):
    return {name: member for name, member in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")}


def test_both_clients_have_the_same_methods_with_the_same_signatures():
    sync, async_ = public_methods(Client), public_methods(AsyncClient)
    assert set(sync) == set(async_)
    for name in sync:
        assert inspect.signature(sync[name]) == inspect.signature(async_[name]), name
        assert inspect.iscoroutinefunction(async_[name]), name
        assert not inspect.iscoroutinefunction(sync[name]), name


async def test_async_buy_retries_with_one_key_and_waits_to_completion(api, aclient, sleeps):
    created = api.post("/api/v1/purchases")
    created.side_effect = [httpx.Response(503, json=error_body("SERVICE_UNAVAILABLE")), httpx.Response(202, json=ACCEPTED)]
    api.get(f"/api/v1/purchases/{PURCHASE_ID}").side_effect = [
        httpx.Response(200, json=purchase_body(s)) for s in ("queued", "sending", "completed")
    ]
    accepted = await aclient.buy_stars("@alice", 50, "gram", SEED, account_index=0)
    keys = {json.loads(call.request.content)["idempotency_key"] for call in created.calls}
    assert len(keys) == 1 and created.call_count == 2
    updates = []
    purchase = await aclient.wait(accepted.purchase_id, poll_interval=0.1, on_update=lambda p: updates.append(p.status))
    assert purchase.status is PurchaseStatus.COMPLETED and updates == ["queued", "sending", "completed"]


async def test_async_errors_and_timeouts_match_the_sync_client(api, aclient, sleeps):
    api.get("/api/v1/prices").respond(503, json=error_body("PRICES_UNAVAILABLE"))
    with pytest.raises(ServiceUnavailableError):
        await aclient.get_prices()
    assert len(sleeps) == 2
    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(200, json=purchase_body("preparing"))
    with pytest.raises(WaitTimeoutError):
        await aclient.wait(PURCHASE_ID, timeout=0, poll_interval=1)


async def test_async_client_owns_and_closes_its_http_client():
    client = AsyncClient("http://127.0.0.1:1")
    await client.close()
    assert client._http.is_closed


def test_the_async_client_and_product_methods_are_the_generated_translation_of_the_sync_ones():
    import importlib.util
    from pathlib import Path

    package = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("make_async_client", package / "scripts" / "make_async_client.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    outputs = module.outputs()
    assert package / "src" / "starsgate" / "products" / "_async_stars.py" in outputs
    for target, expected in outputs.items():
        assert target.read_text() == expected, f"{target.name}: run python scripts/make_async_client.py"

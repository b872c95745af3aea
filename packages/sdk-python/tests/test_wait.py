import httpx
import pytest

from starsgate import Purchase, PurchaseStatus, WaitTimeoutError

from .conftest import PURCHASE_ID, purchase_body


def test_wait_follows_the_purchase_and_reports_each_status_once(api, client, sleeps):
    route = api.get(f"/api/v1/purchases/{PURCHASE_ID}")
    route.side_effect = [
        httpx.Response(200, json=purchase_body(status))
        for status in ("queued", "preparing", "preparing", "sending", "completed")
    ] + [httpx.Response(200, json=purchase_body("completed", transaction_hash="cd" * 32))]
    updates = []
    purchase = client.wait(PURCHASE_ID, poll_interval=0.5, on_update=lambda p: updates.append(p.status))
    assert purchase.is_completed and purchase.status is PurchaseStatus.COMPLETED
    assert updates == ["queued", "preparing", "sending", "completed"]
    assert sleeps == [0.5, 0.5, 0.5, 0.5]


def test_wait_returns_on_reconciliation_required_and_says_never_replace(api, client, sleeps):
    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(
        200,
        json=purchase_body(
            "reconciliation_required",
            error={"code": "DELIVERY_UNCONFIRMED", "message": "paid once, delivery not confirmed"},
        ),
    )
    purchase = client.wait(PURCHASE_ID)
    assert isinstance(purchase, Purchase)
    assert purchase.needs_reconciliation and purchase.is_terminal and not purchase.is_completed
    assert purchase.replacement_allowed is False
    assert "do not create a replacement" in purchase.advice


def test_wait_raises_wait_timeout_with_the_last_purchase(api, client):
    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(200, json=purchase_body("confirming"))
    with pytest.raises(WaitTimeoutError) as caught:
        client.wait(PURCHASE_ID, timeout=0.05, poll_interval=0.02)
    assert caught.value.last.status is PurchaseStatus.CONFIRMING
    assert "never create a replacement" in str(caught.value)

"""Checkout methods against the shapes of issue 13 (recorded here; the routes are not on main yet)."""

import json
from decimal import Decimal

import httpx
import pytest

from starsgate import CheckoutStatus, TopUpRequiredError

from .conftest import CHECKOUT_ID, error_body

PAYER = "0:" + "ab" * 32


def checkout_body(status: str, **extra):
    return {
        "checkout_id": CHECKOUT_ID,
        "status": status,
        "product": "stars",
        "username": "@alice",
        "amount": 50,
        "payment_method": "gram",
        "payer_address": PAYER,
        "created_at": "2026-11-23T10:00:00.000Z",
        "updated_at": "2026-11-23T10:00:02.000Z",
        **extra,
    }


PREPARED = checkout_body(
    "awaiting_signature",
    valid_until="2026-11-23T10:05:00.000Z",
    prices={"gram": "0.2561"},
    transaction={
        "validUntil": 1795000300,
        "network": "-239",
        "from": PAYER,
        "messages": [{"address": "UQBAjaOy", "amount": "256100000", "payload": "te6cckEBAQEA"}],
    },
)


def test_create_checkout_sends_no_secret_and_reads_202(api, client):
    route = api.post("/api/v1/checkouts").respond(
        202,
        json={"checkout_id": CHECKOUT_ID, "status": "preparing", "status_url": f"/api/v1/checkouts/{CHECKOUT_ID}"},
    )
    accepted = client.create_checkout("stars", "@alice", 50, "gram", PAYER, "order-7", payer_public_key="cd" * 32)
    body = json.loads(route.calls.last.request.content)
    assert body == {
        "product": "stars",
        "username": "@alice",
        "amount": 50,
        "payment_method": "gram",
        "payer_address": PAYER,
        "payer_public_key": "cd" * 32,
        "idempotency_key": "order-7",
    }
    assert accepted.status is CheckoutStatus.PREPARING and accepted.checkout_id == CHECKOUT_ID


def test_wait_for_the_transaction_then_hand_it_to_ton_connect_unchanged(api, client, sleeps):
    route = api.get(f"/api/v1/checkouts/{CHECKOUT_ID}")
    route.side_effect = [httpx.Response(200, json=checkout_body("preparing")), httpx.Response(200, json=PREPARED)]
    checkout = client.wait_for_checkout_transaction(CHECKOUT_ID, poll_interval=0.25)
    assert checkout.awaiting_signature and sleeps == [0.25]
    assert checkout.prices.gram == "0.2561" and checkout.prices.usdt is None
    assert checkout.transaction.to_tonconnect() == PREPARED["transaction"]
    assert checkout.transaction.messages[0].amount_nano == 256_100_000


def test_a_checkout_that_cannot_be_paid_ends_the_wait_with_top_up_required(api, client):
    details = [{"currency": "GRAM", "required": "0.31", "available": "0.01", "shortfall": "0.3"}]
    api.get(f"/api/v1/checkouts/{CHECKOUT_ID}").respond(
        200, json=checkout_body("failed", error={"code": "TOP_UP_REQUIRED", "message": "short", "details": details})
    )
    checkout = client.wait_for_checkout_transaction(CHECKOUT_ID)
    assert checkout.transaction is None and checkout.top_up_required
    with pytest.raises(TopUpRequiredError) as caught:
        checkout.raise_for_status()
    assert caught.value.shortfall[0].shortfall == Decimal("0.3")


def test_submit_then_wait_for_completion(api, client, sleeps):
    submitted = api.post(f"/api/v1/checkouts/{CHECKOUT_ID}/submitted").respond(202, json=checkout_body("submitted"))
    statuses = ["submitted", "confirming", "completed"]
    api.get(f"/api/v1/checkouts/{CHECKOUT_ID}").side_effect = [
        httpx.Response(200, json=checkout_body(s, **({"transaction_hash": "ef" * 32} if s == "completed" else {})))
        for s in statuses
    ]
    assert client.submit_checkout(CHECKOUT_ID, "te6ccBOC==").status is CheckoutStatus.SUBMITTED
    assert json.loads(submitted.calls.last.request.content) == {"boc": "te6ccBOC=="}
    seen = []
    final = client.wait_for_checkout(CHECKOUT_ID, poll_interval=0.1, on_update=lambda c: seen.append(str(c.status)))
    assert final.is_completed and final.transaction_hash == "ef" * 32 and seen == statuses


def test_submit_is_retried_with_the_same_boc_and_expiry_is_typed(api, client, sleeps):
    route = api.post(f"/api/v1/checkouts/{CHECKOUT_ID}/submitted")
    route.side_effect = [httpx.ReadTimeout("slow"), httpx.Response(202, json=checkout_body("submitted"))]
    client.submit_checkout(CHECKOUT_ID, "te6ccBOC==")
    assert [json.loads(c.request.content)["boc"] for c in route.calls] == ["te6ccBOC==", "te6ccBOC=="]
    route.side_effect = None
    route.respond(
        400,
        json=error_body("CHECKOUT_EXPIRED", action="Create a new checkout with a new idempotency_key and sign it before its validUntil."),
    )
    from starsgate import ValidationError

    with pytest.raises(ValidationError) as caught:
        client.submit_checkout(CHECKOUT_ID, "te6ccBOC==")
    assert caught.value.code == "CHECKOUT_EXPIRED" and "new idempotency_key" in caught.value.action


def test_an_expired_checkout_may_be_replaced():
    from starsgate import Checkout

    expired = Checkout.model_validate(checkout_body("expired", error={"code": "CHECKOUT_EXPIRED", "message": "m"}))
    assert expired.is_terminal and expired.replacement_allowed and not expired.needs_reconciliation

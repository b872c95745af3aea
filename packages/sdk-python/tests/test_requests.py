import json
from decimal import Decimal

import httpx

import starsgate
from starsgate import Client, PaymentMethod, Product, PurchaseStatus, to_decimal

from .conftest import PURCHASE_ID, SEED, purchase_body

ACCEPTED = {"purchase_id": PURCHASE_ID, "status": "queued", "status_url": f"/api/v1/purchases/{PURCHASE_ID}"}


def test_buy_stars_sends_the_order_with_a_generated_key(api, client):
    route = api.post("/api/v1/purchases").respond(202, json=ACCEPTED)
    accepted = client.buy_stars("@alice", 50, "gram", SEED, account_index=0)
    body = json.loads(route.calls.last.request.content)
    assert body["product"] == "stars" and body["amount"] == 50 and body["payment_method"] == "gram"
    assert body["account_index"] == 0 and "wallet_address" not in body
    assert len(body["idempotency_key"]) == 36
    assert accepted.purchase_id == PURCHASE_ID and accepted.status is PurchaseStatus.QUEUED
    assert accepted.replayed is False


def test_each_buy_call_gets_its_own_key_but_an_explicit_key_is_kept(api, client):
    route = api.post("/api/v1/purchases").respond(202, json=ACCEPTED, headers={"Idempotent-Replayed": "true"})
    client.buy_premium("@alice", 3, PaymentMethod.USDT, SEED, account_index=1)
    client.buy_premium("@alice", 3, PaymentMethod.USDT, SEED, account_index=1)
    accepted = client.buy_stars("@alice", 50, "gram", SEED, idempotency_key="order-42")
    keys = [json.loads(call.request.content)["idempotency_key"] for call in route.calls]
    assert keys[0] != keys[1] and keys[2] == "order-42"
    assert json.loads(route.calls[0].request.content)["product"] == "premium"
    assert accepted.replayed is True


def test_enums_and_strings_are_sent_as_their_wire_value(api, client):
    route = api.post("/api/v1/availability/check").respond(
        200,
        json={
            "available": True,
            "code": "AVAILABLE",
            "message": "ok",
            "action": "go",
            "product": "premium",
            "username": "@alice",
            "amount": 6,
            "payment_method": "gram",
            "checked_at": "2026-11-23T10:00:00Z",
        },
    )
    result = client.check_availability(Product.PREMIUM, "@alice", 6, "ton")
    assert json.loads(route.calls.last.request.content) == {
        "product": "premium",
        "username": "@alice",
        "amount": 6,
        "payment_method": "ton",
    }
    assert result.available and result.payment_method is PaymentMethod.GRAM
    client.check_stars_availability("@alice", 50, "gram")
    client.check_premium_availability("@alice", 6, "gram")
    sent = [json.loads(call.request.content)["product"] for call in route.calls]
    assert sent == ["premium", "stars", "premium"]


def test_prices_are_exact_decimal_strings_with_a_typed_conversion(api, client):
    api.get("/api/v1/prices/quote", params={"product": "stars", "amount": "1000"}).respond(
        200,
        json={
            "product": "stars",
            "amount": 1000,
            "prices": {"gram": "5.123456789", "usdt": "15.000001"},
            "stale": False,
            "quoted_at": "2026-11-23T10:00:00Z",
            "updated_at": "2026-11-23T09:59:00Z",
        },
    )
    api.get("/api/v1/prices").respond(
        200,
        json={
            "stars": {"50": {"gram": "0.2561", "usdt": "0.75"}},
            "premium": {k: {"gram": "3.1", "usdt": "11.99"} for k in ("3", "6", "12")},
            "stale": True,
            "updated_at": "2026-11-23T09:59:00Z",
        },
    )
    quote = client.get_stars_price(1000)
    assert quote.prices.gram == "5.123456789" and isinstance(quote.prices.gram, str)
    assert quote.prices.decimal("usdt") + to_decimal(quote.prices.usdt) == Decimal("30.000002")
    assert quote.derived is False and quote.quoted_at == "2026-11-23T10:00:00Z"
    assert client.get_price("stars", 1000) == quote
    prices = client.get_prices()
    assert prices.stale and prices.stars[50].gram == "0.2561" and prices.premium[12].usdt == "11.99"
    # The hosted SDK's shapes: one Stars row, Premium rows by months.
    assert prices.stars.amount == 50 and prices.stars.prices.gram == "0.2561"
    assert [row.months for row in prices.premium] == [3, 6, 12] and prices.premium.get(6).prices.usdt == "11.99"
    assert 12 in prices.premium and prices.premium.get(1) is None


def test_premium_price_asks_for_months(api, client):
    route = api.get("/api/v1/prices/quote").respond(
        200,
        json={
            "product": "premium",
            "amount": 6,
            "prices": {"gram": "4", "usdt": "15.99"},
            "stale": False,
            "quoted_at": "2026-11-23T10:00:00Z",
            "updated_at": "2026-11-23T09:59:00Z",
        },
    )
    client.get_premium_price(6)
    assert dict(route.calls.last.request.url.params) == {"product": "premium", "amount": "6"}


def test_resolve_wallet_and_decimal_balances(api, client):
    route = api.post("/api/v1/wallets/resolve").respond(
        200,
        json={
            "account_index": 1,
            "wallet_version": "V5R1",
            "wallet_address": "UQabc",
            "raw_address": "0:abc",
            "seed_format": "bip39_12",
            "network": "mainnet",
            "version_source": "selection",
            "balances": {"gram": "1000.000000001", "usdt": "0.000001"},
        },
    )
    wallet = client.resolve_wallet(SEED, account_index=1)
    assert json.loads(route.calls.last.request.content) == {"seed": SEED, "account_index": 1}
    assert wallet.balances is not None and wallet.balances.gram == "1000.000000001"
    assert to_decimal(wallet.balances.usdt) == Decimal("0.000001")


def test_get_purchase_quotes_the_id_into_one_path_segment(api, client):
    route = api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(
        200, json=purchase_body("completed", transaction_hash="ab" * 32, unknown_future_field=1)
    )
    purchase = client.get_purchase(PURCHASE_ID)
    assert route.called and purchase.is_completed and purchase.transaction_hash == "ab" * 32
    weird = api.get(url__regex=r".*/api/v1/purchases/..%2Fprices$").respond(404, json={"code": "PURCHASE_NOT_FOUND"})
    try:
        client.get_purchase("../prices")
    except Exception:
        pass
    assert weird.called


def test_headers_carry_the_sdk_version_custom_headers_and_the_retry_count(sleeps):
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers)
        if len(seen) == 1:
            return httpx.Response(503, json={"code": "SERVICE_UNAVAILABLE", "message": "x", "details": []})
        return httpx.Response(
            200,
            json={
                "stars": {"50": {"gram": "1", "usdt": "1"}},
                "premium": {k: {"gram": "1", "usdt": "1"} for k in ("3", "6", "12")},
                "stale": False,
                "updated_at": "2026-11-23T09:59:00Z",
            },
        )

    http = httpx.Client(transport=httpx.MockTransport(handler))
    with Client("http://localhost:8080", headers={"X-Shop": "7"}, http_client=http) as c:
        c.get_prices()
    assert seen[0]["user-agent"] == f"starsgate-python/{starsgate.__version__}" and seen[0]["x-shop"] == "7"
    assert "x-starsgate-retry-count" not in seen[0] and seen[1]["x-starsgate-retry-count"] == "1"
    http.close()


def test_a_caller_supplied_http_client_is_used_and_left_open():
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json={"x": 1}))
    http = httpx.Client(transport=transport)
    with Client("https://gateway.example", http_client=http) as c:
        assert c.base_url == "https://gateway.example"
    assert not http.is_closed
    http.close()

"""Any product through the generic methods: the catalogue (`products.list()`), a giveaway's `winners`
and `months`, and orders given by `quantities`, turned into the request fields the catalogue names
(the catalogue read once per client, again after a failed read)."""

import json

import httpx
import pytest

from starsgate import InvalidArgumentError, Product, ProductCatalog, ServiceUnavailableError, ValidationError

from .conftest import PURCHASE_ID, SEED, error_body, purchase_body

ACCEPTED = {"purchase_id": PURCHASE_ID, "status": "queued", "status_url": f"/api/v1/purchases/{PURCHASE_ID}"}
CHECKOUT_ID = "0d4f7a5e-8b1c-4f8e-a3b9-5e2d1c9f7a61"
PAYER = "0:" + "ab" * 32
CATALOG = {
    "products": [
        {
            "product": "stars",
            "title": "Telegram Stars",
            "recipient_kind": "user",
            "payment_methods": ["gram", "usdt"],
            "pricing": "quoted",
            "fields": [{"name": "amount", "quantity": "stars", "type": "integer", "minimum": 50, "maximum": 1000000}],
        },
        {
            "product": "premium_giveaway",
            "title": "Telegram Premium giveaway",
            "recipient_kind": "channel",
            "payment_methods": ["gram", "usdt"],
            "pricing": "quoted",
            "fields": [
                {"name": "winners", "quantity": "winners", "type": "integer", "minimum": 1, "maximum": 24000},
                {"name": "months", "quantity": "months", "type": "integer", "choices": [3, 6, 12]},
            ],
        },
    ],
    "prices": {"premium_giveaway": {"3": {"gram": "1.5", "usdt": "4"}}},
    "stale": False,
    "updated_at": "2026-11-28T16:00:00.000Z",
}
QUOTE = {"product": "premium_giveaway", "amount": 10, "prices": {"gram": "15", "usdt": "40"}, "stale": False}


def sent(route):
    return json.loads(route.calls.last.request.content)


def test_products_list_reads_the_catalogue(api, client):
    route = api.get("/api/v1/products").respond(200, json=CATALOG)
    catalog = client.products.list()
    assert isinstance(catalog, ProductCatalog) and client.list_products() == catalog
    assert route.call_count == 2
    giveaway = catalog.get("premium_giveaway")
    assert giveaway is not None and giveaway.product is Product.PREMIUM_GIVEAWAY and giveaway.recipient_kind == "channel"
    assert [field.name for field in giveaway.fields] == ["winners", "months"]
    assert giveaway.fields[1].accepts(6) and not giveaway.fields[1].accepts(4)
    assert giveaway.fields[0].accepts(24000) and not giveaway.fields[0].accepts(24001)
    assert catalog.prices["premium_giveaway"]["3"].gram == "1.5" and catalog.stale is False


def test_a_product_this_sdk_does_not_know_still_reads():
    catalog = ProductCatalog.model_validate(
        {"products": [{**CATALOG["products"][0], "product": "fifth_product"}], "prices": {}}
    )
    assert catalog.products[0].product == "fifth_product"
    assert catalog.request_fields("fifth_product", {"stars": 5}) == {"amount": 5}


def test_a_giveaway_by_winners_and_months_reads_no_catalogue(api, client):
    catalogue = api.get("/api/v1/products").respond(200, json=CATALOG)
    route = api.post("/api/v1/purchases").respond(202, json=ACCEPTED)
    client.create_purchase(
        "premium_giveaway", "@channel", payment_method="usdt", seed=SEED, idempotency_key="g-1", winners=10, months=3
    )
    assert sent(route) == {
        "product": "premium_giveaway",
        "username": "@channel",
        "winners": 10,
        "months": 3,
        "payment_method": "usdt",
        "seed": SEED,
        "idempotency_key": "g-1",
    }
    assert catalogue.call_count == 0


def test_orders_by_quantities_become_the_catalogues_fields_read_once(api, client):
    catalogue = api.get("/api/v1/products").respond(200, json=CATALOG)
    purchases = api.post("/api/v1/purchases").respond(202, json=ACCEPTED)
    checkouts = api.post("/api/v1/checkouts").respond(
        202, json={"checkout_id": CHECKOUT_ID, "status": "preparing", "status_url": f"/api/v1/checkouts/{CHECKOUT_ID}"}
    )
    availability = api.post("/api/v1/availability/check").respond(
        200, json={"available": True, "code": "AVAILABLE", "message": "ok", "action": "go"}
    )
    quote = api.get("/api/v1/prices/quote").respond(200, json=QUOTE)

    client.create_purchase(
        Product.PREMIUM_GIVEAWAY,
        "@channel",
        payment_method="gram",
        seed=SEED,
        idempotency_key="g-2",
        quantities={"winners": 24000, "months": 12},
    )
    client.create_checkout(
        "stars", "@alice", payment_method="gram", payer_address=PAYER, idempotency_key="s-1", quantities={"stars": 50}
    )
    client.check_availability("premium_giveaway", "@channel", payment_method="usdt", quantities={"winners": 1, "months": 6})
    assert client.get_quote("premium_giveaway", winners=10, months=3).prices.gram == "15"
    client.get_quote("premium_giveaway", quantities={"winners": 2, "months": 12})

    assert catalogue.call_count == 1
    assert sent(purchases)["winners"] == 24000 and sent(purchases)["months"] == 12 and "quantities" not in sent(purchases)
    assert sent(checkouts) == {
        "product": "stars",
        "username": "@alice",
        "amount": 50,
        "payment_method": "gram",
        "payer_address": PAYER,
        "idempotency_key": "s-1",
    }
    assert sent(availability) == {"product": "premium_giveaway", "username": "@channel", "winners": 1, "months": 6, "payment_method": "usdt"}
    assert [dict(call.request.url.params) for call in quote.calls] == [
        {"product": "premium_giveaway", "winners": "10", "months": "3"},
        {"product": "premium_giveaway", "winners": "2", "months": "12"},
    ]


def test_a_quantity_the_product_lacks_is_sent_for_the_gateway_to_name(api, client):
    api.get("/api/v1/products").respond(200, json=CATALOG)
    route = api.post("/api/v1/purchases").respond(
        400, json=error_body("UNKNOWN_FIELD", details=[{"field": "carats", "message": "is not a field"}])
    )
    with pytest.raises(ValidationError):
        client.create_purchase(
            "stars", "@alice", payment_method="gram", seed=SEED, idempotency_key="k", quantities={"carats": 5}
        )
    assert sent(route)["carats"] == 5


def test_a_failed_catalogue_read_is_read_again(api, client):
    catalogue = api.get("/api/v1/products")
    catalogue.side_effect = [httpx.Response(503, json=error_body("SERVICE_UNAVAILABLE"))] * 3 + [
        httpx.Response(200, json=CATALOG)
    ]
    route = api.post("/api/v1/purchases").respond(202, json=ACCEPTED)
    order = dict(payment_method="gram", seed=SEED, idempotency_key="k-1", quantities={"stars": 50})
    with pytest.raises(ServiceUnavailableError):
        client.create_purchase("stars", "@alice", **order)
    assert route.call_count == 0
    client.create_purchase("stars", "@alice", **order)
    assert sent(route)["amount"] == 50


def test_quantities_and_amount_together_or_a_missing_field_are_refused_before_sending(api, client):
    route = api.post("/api/v1/purchases").respond(202, json=ACCEPTED)
    with pytest.raises(InvalidArgumentError):
        client.create_purchase("stars", "@a", 50, "gram", SEED, "k", quantities={"stars": 50})
    with pytest.raises(InvalidArgumentError, match="seed"):
        client.create_purchase("stars", "@a", 50, "gram", idempotency_key="k")
    with pytest.raises(InvalidArgumentError, match="payer_address"):
        client.create_checkout("stars", "@a", 50, "gram", idempotency_key="k")
    assert route.call_count == 0


def test_orders_read_back_with_their_quantities(api, client):
    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(
        200,
        json=purchase_body(
            "completed", product="premium_giveaway", username="@channel", amount=10, quantities={"winners": 10, "months": 3}
        ),
    )
    purchase = client.get_purchase(PURCHASE_ID)
    assert purchase.product is Product.PREMIUM_GIVEAWAY and purchase.quantities == {"winners": 10, "months": 3}


async def test_the_async_client_maps_quantities_too(api, aclient):
    api.get("/api/v1/products").respond(200, json=CATALOG)
    route = api.post("/api/v1/purchases").respond(202, json=ACCEPTED)
    assert (await aclient.products.list()).products[1].product is Product.PREMIUM_GIVEAWAY
    await aclient.create_purchase(
        "premium_giveaway", "@channel", payment_method="gram", seed=SEED, idempotency_key="a-1", quantities={"winners": 5, "months": 6}
    )
    assert sent(route)["winners"] == 5 and sent(route)["months"] == 6

"""The Python SDK against the gateway's OpenAPI document (the snapshot packages/sdk/test/openapi-contract.test.ts
keeps equal to what the gateway serves): every public route has a method on both clients, and every
model has exactly the fields of its schema."""

import inspect
import json
from pathlib import Path

import pytest

from starsgate import (
    ROUTES,
    AsyncClient,
    AvailabilityCheck,
    Checkout,
    CheckoutAccepted,
    CheckoutPrices,
    Client,
    PriceList,
    PricePair,
    PriceQuote,
    ProductCatalog,
    ProductField,
    ProductInfo,
    Purchase,
    PurchaseAccepted,
    ResolvedWallet,
    TonConnectTransaction,
    WalletBalances,
)

DOCUMENT = json.loads((Path(__file__).parents[2] / "sdk" / "openapi.json").read_text())
SCHEMAS = DOCUMENT["components"]["schemas"]
# Fields the SDK adds from headers, not from the body.
SDK_ONLY = {"replayed"}


def public_routes():
    methods = ("get", "post", "put", "patch", "delete")
    return sorted(
        f"{method.upper()} {path}"
        for path, item in DOCUMENT["paths"].items()
        if path.startswith("/api/")
        for method in item
        if method in methods
    )


def money_fields(schema, path=""):
    """(path, schema) of every property the document marks as money."""
    if isinstance(schema, dict):
        if schema.get("format") == "decimal":
            yield path, schema
        for key, value in schema.items():
            yield from money_fields(value, f"{path}.{key}" if path else key)
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from money_fields(value, f"{path}[{index}]")


def test_money_in_the_python_models_is_a_decimal_string_as_the_document_says():
    def is_string(field):
        kind = field.get("type")
        return kind == "string" or (isinstance(kind, list) and set(kind) <= {"string", "null"})

    assert [path for path, field in money_fields(SCHEMAS) if not is_string(field) or "pattern" not in field] == []
    paths = {path for path, _ in money_fields(SCHEMAS)}
    assert "PricePair.properties.gram" in paths and "ResolvedWallet.properties.balances.properties.usdt" in paths
    for model in (PricePair, WalletBalances, CheckoutPrices):
        for name, field in model.model_fields.items():
            assert "str" in repr(field.annotation), f"{model.__name__}.{name} is {field.annotation!r}"


def test_every_public_route_has_a_method_on_both_clients():
    routes = public_routes()
    assert len(routes) >= 6
    assert [route for route in routes if route not in ROUTES] == []
    for method in ROUTES.values():
        assert callable(getattr(Client, method)), method
        assert inspect.iscoroutinefunction(getattr(AsyncClient, method)), method


def wire_fields(model):
    return {field.alias or name for name, field in model.model_fields.items()} - SDK_ONLY


@pytest.mark.parametrize(
    "model,schema",
    [
        (AvailabilityCheck, "AvailabilityResult"),
        (PricePair, "PricePair"),
        (PriceQuote, "PriceQuote"),
        (PriceList, "PriceList"),
        (ResolvedWallet, "ResolvedWallet"),
        (PurchaseAccepted, "PurchaseAccepted"),
        (Purchase, "Purchase"),
        (CheckoutAccepted, "CheckoutAccepted"),
        (Checkout, "Checkout"),
        (TonConnectTransaction, "TonConnectTransaction"),
        (ProductCatalog, "ProductCatalog"),
        (ProductInfo, "Product"),
        (ProductField, "ProductField"),
    ],
)
def test_models_have_exactly_the_fields_of_their_schema(model, schema):
    if schema not in SCHEMAS:
        pytest.skip(f"{schema} is not in the gateway's document yet (checkouts have not landed on main)")
    properties = SCHEMAS[schema]["properties"]
    assert wire_fields(model) == set(properties)
    # A model may ask less than the API always sends (fields the hosted SDK lacks are optional, so a
    # consumer's test doubles still build), never more.
    required = set(SCHEMAS[schema].get("required", []))
    for name, field in model.model_fields.items():
        if field.is_required():
            assert (field.alias or name) in required, f"{schema}.{name} is optional in the API"

"""The surface of `fragment_api` 1.3.0 (the hosted service's SDK) as `starsgate` provides it."""

import inspect
from decimal import Decimal

import httpx
import pydantic
import pytest

import starsgate
from starsgate import (
    AsyncFragmentAPI,
    AvailabilityCheck,
    ConflictError,
    FragmentAPI,
    FragmentAPIError,
    NotFoundError,
    PriceList,
    Prices,
    PriceQuote,
    Purchase,
    RateLimitError,
    ServiceUnavailableError,
    ValidationError,
    WalletResolution,
    parse_timestamp,
)

from .conftest import BASE, PURCHASE_ID

HOSTED_NAMES = [
    "FragmentAPI", "AsyncFragmentAPI", "FragmentAPIError", "ConflictError", "ValidationError", "RateLimitError",
    "ServiceUnavailableError", "NotFoundError", "Purchase", "PriceQuote", "Prices", "AvailabilityCheck", "WalletResolution",
]  # fmt: skip


def test_the_hosted_names_are_our_classes_not_copies():
    assert all(name in starsgate.__all__ for name in HOSTED_NAMES)
    assert FragmentAPI is starsgate.Client and AsyncFragmentAPI is starsgate.AsyncClient
    assert FragmentAPIError is starsgate.StarsgateError and ConflictError is starsgate.IdempotencyConflictError
    assert Prices is starsgate.PricePair and WalletResolution is starsgate.ResolvedWallet


@pytest.mark.parametrize(
    "method,keywords",
    [
        ("get_price", ["product", "amount"]),
        ("get_stars_price", ["amount"]),
        ("get_premium_price", ["months"]),
        ("get_prices", []),
        ("check_availability", ["product", "username", "amount", "payment_method"]),
        ("check_stars_availability", ["username", "amount", "payment_method"]),
        ("check_premium_availability", ["username", "months", "payment_method"]),
        ("resolve_wallet", ["seed", "wallet_address", "account_index"]),
        ("create_purchase", ["product", "username", "amount", "payment_method", "seed", "idempotency_key", "wallet_address", "account_index"]),
        ("buy_stars", ["username", "amount", "payment_method", "seed", "wallet_address", "account_index", "idempotency_key"]),
        ("buy_premium", ["username", "months", "payment_method", "seed", "wallet_address", "account_index", "idempotency_key"]),
        ("get_purchase", ["purchase_id"]),
        ("wait", ["purchase_id", "timeout", "poll_interval"]),
    ],
)
def test_methods_keep_the_hosted_keyword_names(method, keywords):
    for client in (FragmentAPI, AsyncFragmentAPI):
        parameters = list(inspect.signature(getattr(client, method)).parameters)[1:]
        assert parameters[: len(keywords)] == keywords, (client.__name__, method)
    # A no-argument client and the base_url= keyword.
    FragmentAPI().close()
    FragmentAPI(base_url=BASE).close()


@pytest.mark.parametrize(
    "cls,status", [(FragmentAPIError, 400), (ValidationError, 400), (NotFoundError, 404), (ConflictError, 409), (RateLimitError, 429), (ServiceUnavailableError, 503)]
)
def test_every_error_is_built_from_status_code_and_the_parsed_body(cls, status):
    body = {"code": "SOME_CODE", "message": "What happened.", "action": "Do this.", "retry_after": 2.2, "details": [{"field": "amount", "message": "too small"}]}
    error = cls(status_code=status, response=body)
    assert (error.status_code, error.code, error.action, error.retry_after) == (status, "SOME_CODE", "Do this.", 3)
    assert error.details == body["details"] and error.response == body and error.message == "What happened."
    assert isinstance(error, FragmentAPIError)
    assert cls("own text", status_code=status).message == "own text"


def test_an_answer_from_the_gateway_fills_response_and_an_int_retry_after(api, client):
    body = {"code": "RATE_LIMITED", "message": "Slow down.", "details": [], "request_id": "r", "retry_after": 120}
    api.get("/api/v1/prices").respond(429, json=body, headers={"Retry-After": "119.2"})
    with pytest.raises(RateLimitError) as caught:
        client.get_prices()
    assert caught.value.response == body and caught.value.retry_after == 120 and isinstance(caught.value.retry_after, int)


@pytest.mark.parametrize("failure,builtin", [(httpx.ConnectError("refused"), ConnectionError), (httpx.ReadTimeout("slow"), TimeoutError)])
def test_transport_failures_are_oserrors_too(api, sleeps, failure, builtin):
    api.get("/api/v1/prices").mock(side_effect=failure)
    with FragmentAPI(base_url=BASE) as client:
        with pytest.raises(OSError) as caught:
            client.get_prices()
    assert isinstance(caught.value, builtin) and isinstance(caught.value, FragmentAPIError)


def test_a_call_refused_before_sending_is_a_fragment_api_error():
    with FragmentAPI() as client:
        with pytest.raises(FragmentAPIError):
            client.get_purchase("")
        with pytest.raises(ValueError):
            client.create_purchase("stars", "@alice", 50, "gram", "seed", "")
    with pytest.raises(FragmentAPIError):
        FragmentAPI(base_url="ftp://127.0.0.1")


def test_money_is_a_decimal_string_and_converts_on_request():
    prices = Prices(gram="1.25", usdt=Decimal("3.750"))
    assert prices.gram == "1.25" and prices.usdt == "3.750" and prices.decimal("usdt") == Decimal("3.75")
    assert starsgate.to_decimal(prices.gram) == Decimal("1.25")
    with pytest.raises(pydantic.ValidationError):
        Prices(gram=1.25, usdt="1")  # a float is not exact money
    with pytest.raises(pydantic.ValidationError):
        Prices(gram="1,25", usdt="1")


def test_the_price_list_reads_as_the_hosted_sdks_and_as_ours():
    catalog = PriceList.model_validate(
        {
            "stars": {"50": {"gram": "0.2561", "usdt": "0.75"}},
            "premium": {"12": {"gram": "9", "usdt": "23.99"}, "3": {"gram": "3.1", "usdt": "11.99"}, "6": {"gram": "4", "usdt": "15.99"}},
            "stale": False,
            "updated_at": "2026-11-23T09:59:00.000Z",
        }
    )
    assert catalog.stars.amount == 50 and catalog.stars.prices.gram == "0.2561" and catalog.stars[50].usdt == "0.75"
    assert [row.months for row in catalog.premium] == [3, 6, 12] and catalog.premium[6].prices.gram == "4"
    assert len(catalog.premium) == 3 and catalog.premium.get(1) is None
    with pytest.raises(KeyError):
        catalog.premium[1]
    assert catalog.updated_at == "2026-11-23T09:59:00.000Z"
    assert PriceList.model_validate_json(catalog.model_dump_json()) == catalog
    assert catalog.model_dump()["stars"] == {"50": {"gram": "0.2561", "usdt": "0.75"}}


def test_results_read_as_the_hosted_sdks(api, client):
    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(
        200,
        json={
            "purchase_id": PURCHASE_ID, "status": "failed", "product": "stars", "username": "@alice", "amount": 50,
            "payment_method": "gram", "created_at": "2026-11-23T10:00:00.000Z", "updated_at": "2026-11-23T10:00:01.000Z",
            "error": {"code": "TOP_UP_REQUIRED", "message": "Top up.", "action": "Add GRAM.",
                      "details": [{"currency": "GRAM", "required": "0.31", "available": "0.02", "shortfall": "0.29"}]},
        },
    )  # fmt: skip
    purchase = client.get_purchase(PURCHASE_ID)
    assert purchase.completed is False and purchase.error.get("code") == "TOP_UP_REQUIRED"
    assert purchase.error["action"] == "Add GRAM." and purchase.error.details[0]["shortfall"] == "0.29"
    assert "code" in purchase.error and sorted(purchase.error) == ["action", "code", "details", "message"]
    assert purchase.created_at == "2026-11-23T10:00:00.000Z"
    assert parse_timestamp(purchase.updated_at).isoformat() == "2026-11-23T10:00:01+00:00"


def test_test_doubles_with_only_the_hosted_fields_build():
    assert Purchase(purchase_id="p", status="queued", error=None).status == "queued"
    assert PriceQuote(product="stars", amount=50, prices=Prices(gram="1.25", usdt="3.75"), stale=False).quoted_at is None
    check = AvailabilityCheck(available=True, code="AVAILABLE", message="ok", checked_at="2026-11-26T10:00:00Z")
    assert check.action is None and check.checked_at == "2026-11-26T10:00:00Z"
    assert WalletResolution(account_index=0, wallet_version="V5R1").wallet_address is None
    with pytest.raises(pydantic.ValidationError):
        AvailabilityCheck(available=True, code="AVAILABLE", message="ok", checked_at="yesterday")

"""The shop's own unit tests, as they were written against `fragment_api` 1.3.0: test doubles built from the
SDK's models with only the hosted SDK's fields, and its errors built with `status_code=` and `response=`."""

import asyncio
from typing import Any, Dict, List

import pytest

from starsgate import (
    AvailabilityCheck,
    ConflictError,
    FragmentAPI,
    FragmentAPIError,
    Prices,
    PriceQuote,
    Purchase,
    RateLimitError,
    ServiceUnavailableError,
)

from .shop import StarsShop, result_of

CHECKED_AT = "2026-11-26T10:00:00Z"
SEED = "test-seed-never-real"


class FakeFragmentAPI:
    """What the shop's tests used as `FragmentAPI`: scripted answers (a value, or an exception to raise)."""

    def __init__(self, **script: List[Any]) -> None:
        self.script = script
        self.calls: List[Dict[str, Any]] = []

    def _answer(self, name: str, **arguments: Any) -> Any:
        self.calls.append({"method": name, **arguments})
        answer = self.script[name].pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def check_stars_availability(self, username: str, amount: int, payment_method: str) -> AvailabilityCheck:
        return self._answer("check_stars_availability", username=username, amount=amount)

    def get_stars_price(self, amount: int) -> PriceQuote:
        return self._answer("get_stars_price", amount=amount)

    def buy_stars(self, username: str, amount: int, payment_method: str, seed: str, **options: Any) -> Purchase:
        return self._answer("buy_stars", username=username, amount=amount, **options)

    def wait(self, purchase_id: str, **options: Any) -> Purchase:
        return self._answer("wait", purchase_id=purchase_id)


def available() -> AvailabilityCheck:
    return AvailabilityCheck(available=True, code="AVAILABLE", message="Can receive Stars.", checked_at=CHECKED_AT)


def quote(gram: str = "1.25", usdt: str = "3.75") -> PriceQuote:
    return PriceQuote(product="stars", amount=250, prices=Prices(gram=gram, usdt=usdt), stale=False)


def queued() -> Purchase:
    return Purchase(purchase_id="p-1", status="queued")


def shop(api: FakeFragmentAPI) -> StarsShop:
    return StarsShop(api, SEED, sleep=lambda seconds: None)  # type: ignore[arg-type]


def test_the_hosted_sdks_test_doubles_build_and_read_as_before():
    purchase = Purchase(purchase_id="p-1", status="failed", error={"code": "TOP_UP_REQUIRED", "message": "Top up."})
    assert purchase.error.get("code") == "TOP_UP_REQUIRED" and purchase.error["message"] == "Top up."
    assert purchase.error.code == "TOP_UP_REQUIRED" and purchase.error.get("action") is None
    assert dict(purchase.error) == {"code": "TOP_UP_REQUIRED", "message": "Top up.", "details": []}
    with pytest.raises(TypeError):
        purchase.error["code"] = "OTHER"  # read-only, as a frozen result should be
    assert purchase.completed is False and Purchase(purchase_id="p", status="completed").completed is True
    price = quote()
    assert price.prices.gram == "1.25" and isinstance(price.prices.usdt, str) and price.stale is False
    check = AvailabilityCheck(available=False, code="RECIPIENT_NOT_FOUND", message="No such user.", checked_at=CHECKED_AT)
    assert check.checked_at == CHECKED_AT and check.model_dump()["checked_at"] == CHECKED_AT


def test_an_order_goes_from_availability_to_a_string_price_to_delivery():
    api = FakeFragmentAPI(
        check_stars_availability=[available()],
        get_stars_price=[quote()],
        buy_stars=[queued()],
        wait=[Purchase(purchase_id="p-1", status="completed")],
    )
    offer = shop(api).offer("@alice", 250)
    assert offer.upstream_price == "1.25 GRAM" and offer.customer_price == "1.3750 GRAM"
    assert offer.checked_at == CHECKED_AT
    result = shop(api).fulfil("42", "@alice", 250)
    assert result.outcome == "delivered" and result.purchase_id == "p-1"
    assert api.calls[2]["idempotency_key"] == "shop-order-42"


def test_an_unavailable_recipient_gets_no_price():
    check = AvailabilityCheck(available=False, code="PREMIUM_ALREADY_ACTIVE", message="Has Premium.", checked_at=CHECKED_AT)
    offer = shop(FakeFragmentAPI(check_stars_availability=[check])).offer("@bob", 50)
    assert not offer.available and offer.reason == "PREMIUM_ALREADY_ACTIVE: Has Premium." and offer.upstream_price is None


def test_top_up_required_goes_to_manual_review_and_other_failures_fail():
    top_up = Purchase(purchase_id="p-1", status="failed", error={"code": "TOP_UP_REQUIRED", "message": "Top up GRAM."})
    api = FakeFragmentAPI(buy_stars=[queued()], wait=[top_up])
    result = shop(api).fulfil("7", "@alice", 50)
    assert (result.outcome, result.code, result.message) == ("manual_review", "TOP_UP_REQUIRED", "Top up GRAM.")
    not_found = Purchase(purchase_id="p-2", status="failed", error={"code": "RECIPIENT_NOT_FOUND", "message": "gone"})
    assert result_of("8", not_found).outcome == "failed"
    uncertain = Purchase(purchase_id="p-3", status="reconciliation_required")
    assert result_of("9", uncertain).outcome == "manual_review"


def test_a_409_stops_the_order():
    conflict = ConflictError(
        status_code=409,
        response={"code": "IDEMPOTENCY_KEY_REUSED", "message": "Key used for another order.", "action": "Use a new key."},
    )
    assert conflict.code == "IDEMPOTENCY_KEY_REUSED" and conflict.action == "Use a new key." and conflict.status_code == 409
    api = FakeFragmentAPI(buy_stars=[conflict])
    result = shop(api).fulfil("42", "@alice", 50)
    assert result.outcome == "stopped" and result.code == "IDEMPOTENCY_KEY_REUSED"
    assert [call["method"] for call in api.calls] == ["buy_stars"]


def test_429_and_503_are_retried_after_retry_after_with_the_same_key():
    limited = RateLimitError(status_code=429, response={"code": "RATE_LIMITED", "message": "Slow down.", "retry_after": 2.5})
    busy = ServiceUnavailableError(status_code=503, response={"code": "SERVICE_UNAVAILABLE", "message": "Busy.", "retry_after": 1})
    assert limited.retry_after == 3 and isinstance(limited.retry_after, int)
    api = FakeFragmentAPI(buy_stars=[limited, busy, queued()], wait=[Purchase(purchase_id="p-1", status="completed")])
    shop_under_test = shop(api)
    assert shop_under_test.fulfil("42", "@alice", 50).outcome == "delivered"
    assert shop_under_test.waited == [3, 1]
    assert {call["idempotency_key"] for call in api.calls if call["method"] == "buy_stars"} == {"shop-order-42"}


def test_any_other_sdk_error_fails_the_order_with_its_code():
    error = FragmentAPIError("Bad seed.", status_code=400, response={"code": "INVALID_BIP39_SEED", "message": "Bad seed."})
    result = shop(FakeFragmentAPI(buy_stars=[error])).fulfil("1", "@alice", 50)
    assert result.outcome == "failed" and result.code == "INVALID_BIP39_SEED"


def test_a_gateway_that_is_down_is_an_oserror_and_a_fragment_api_error():
    with FragmentAPI(base_url="http://127.0.0.1:9", max_retries=0) as api:
        with pytest.raises(OSError) as caught:
            api.get_prices()
    assert isinstance(caught.value, FragmentAPIError) and isinstance(caught.value, ConnectionError)
    result = StarsShop(FragmentAPI(base_url="http://127.0.0.1:9", max_retries=0), SEED).fulfil("1", "@alice", 50)
    assert result.outcome == "failed"


async def test_the_sync_adapter_runs_in_a_thread_as_shops_do_today():
    api = FakeFragmentAPI(buy_stars=[queued()], wait=[Purchase(purchase_id="p-1", status="completed")])
    result = await asyncio.to_thread(shop(api).fulfil, "42", "@alice", 50)
    assert result.outcome == "delivered"

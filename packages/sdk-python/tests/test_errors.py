from decimal import Decimal

import pytest

from starsgate import (
    APIStatusError,
    IdempotencyConflictError,
    NotFoundError,
    OrderFailedError,
    Purchase,
    RateLimitError,
    ServiceUnavailableError,
    Shortfall,
    StarsgateError,
    TopUpRequiredError,
    ValidationError,
    WalletSelectionRequiredError,
)

from .conftest import PURCHASE_ID, SEED, error_body, new_key, purchase_body

TOP_UP_DETAILS = [
    {"currency": "GRAM", "required": "0.310000000", "available": "0.02", "shortfall": "0.29"},
    {"currency": "USDT", "required": "0.75", "available": "0.75", "shortfall": "0"},
]


def test_wallet_selection_required_is_typed_with_details_action_and_request_id(api, client):
    api.post("/api/v1/purchases").respond(
        400,
        json=error_body(
            "WALLET_SELECTION_REQUIRED",
            "A 12-word seed needs account_index or wallet_address.",
            details=[{"field": "account_index", "message": "is required for a 12-word seed"}],
            action="Send account_index, wallet_address, or both.",
        ),
    )
    with pytest.raises(WalletSelectionRequiredError) as caught:
        client.create_purchase("stars", "@alice", 50, "gram", SEED, new_key())
    error = caught.value
    assert isinstance(error, ValidationError) and isinstance(error, StarsgateError)
    assert error.status_code == 400 and error.code == "WALLET_SELECTION_REQUIRED"
    assert error.details == [{"field": "account_index", "message": "is required for a 12-word seed"}]
    assert error.action == "Send account_index, wallet_address, or both." and error.request_id == "req-1"
    assert error.request == "POST /api/v1/purchases"
    assert "WALLET_SELECTION_REQUIRED" in str(error) and "Send account_index" in str(error)


@pytest.mark.parametrize(
    "status,code,cls",
    [
        (404, "PURCHASE_NOT_FOUND", NotFoundError),
        (409, "IDEMPOTENCY_KEY_REUSED", IdempotencyConflictError),
        (400, "INVALID_AMOUNT", ValidationError),
        (422, "RECIPIENT_INELIGIBLE", ValidationError),
        (429, "AVAILABILITY_RATE_LIMITED", RateLimitError),
        (503, "PRICES_UNAVAILABLE", ServiceUnavailableError),
        (418, "SOMETHING_NEW", APIStatusError),
    ],
)
def test_status_and_code_pick_the_class(api, status, code, cls, sleeps):
    from starsgate import Client

    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(status, json=error_body(code), headers={"Retry-After": "600"})
    with Client("http://127.0.0.1:8080", max_retries=0) as c, pytest.raises(cls) as caught:
        c.get_purchase(PURCHASE_ID)
    assert caught.value.code == code and caught.value.status_code == status


def test_a_non_json_error_still_raises_a_typed_error(api, client, sleeps):
    api.get("/api/v1/prices").respond(502, text="<html>bad gateway</html>")
    with pytest.raises(APIStatusError) as caught:
        client.get_prices()
    assert caught.value.status_code == 502 and caught.value.code is None
    assert "HTTP 502 from GET /api/v1/prices" in str(caught.value)


def test_rate_limit_carries_retry_after(api, client):
    api.get("/api/v1/prices").respond(429, json=error_body("RATE_LIMITED", retry_after=120), headers={"Retry-After": "120"})
    with pytest.raises(RateLimitError) as caught:
        client.get_prices()
    assert caught.value.retry_after == 120


def test_top_up_required_answered_by_the_gateway_carries_the_shortfall(api, client):
    api.post("/api/v1/purchases").respond(422, json=error_body("TOP_UP_REQUIRED", details=TOP_UP_DETAILS))
    with pytest.raises(TopUpRequiredError) as caught:
        client.create_purchase("stars", "@alice", 50, "gram", SEED, new_key())
    assert caught.value.shortfall[0] == Shortfall("GRAM", Decimal("0.31"), Decimal("0.02"), Decimal("0.29"))
    assert caught.value.status_code == 422


def test_a_failed_purchase_raises_top_up_required_with_exact_amounts():
    purchase = Purchase.model_validate(
        purchase_body(
            "failed",
            error={
                "code": "TOP_UP_REQUIRED",
                "message": "The payer wallet is short of 0.29 GRAM.",
                "action": "Top up the payer wallet by the shortfall in details, then create a new purchase.",
                "details": TOP_UP_DETAILS,
            },
        )
    )
    assert purchase.top_up_required and purchase.replacement_allowed and not purchase.needs_reconciliation
    assert [line.shortfall for line in purchase.error.shortfall] == [Decimal("0.29"), Decimal("0")]
    with pytest.raises(TopUpRequiredError) as caught:
        purchase.raise_for_status()
    assert caught.value.shortfall[0].currency == "GRAM" and caught.value.shortfall[0].shortfall == Decimal("0.29")
    assert "Top up" in (caught.value.action or "")


def test_other_failures_raise_order_failed_and_reconciliation_never_raises():
    failed = Purchase.model_validate(purchase_body("failed", error={"code": "RECIPIENT_NOT_FOUND", "message": "no"}))
    with pytest.raises(OrderFailedError) as caught:
        failed.raise_for_status()
    assert caught.value.code == "RECIPIENT_NOT_FOUND"
    uncertain = Purchase.model_validate(
        purchase_body("reconciliation_required", error={"code": "SUBMIT_OUTCOME_UNKNOWN", "message": "?"})
    )
    uncertain.raise_for_status()
    assert uncertain.needs_reconciliation and uncertain.is_terminal and not uncertain.replacement_allowed
    assert "do not create a replacement" in (uncertain.advice or "")
    Purchase.model_validate(purchase_body("completed")).raise_for_status()


def test_an_answer_that_is_not_the_documented_shape_is_a_typed_error(api, client):
    from starsgate import APIResponseValidationError

    api.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(200, json={"purchase_id": PURCHASE_ID, "status": "teleported"})
    with pytest.raises(APIResponseValidationError) as caught:
        client.get_purchase(PURCHASE_ID)
    assert "status" in str(caught.value) and "teleported" not in str(caught.value)
    assert caught.value.__context__ is None
    api.get("/api/v1/prices").respond(200, text="<html>captive portal</html>")
    with pytest.raises(APIResponseValidationError, match="not JSON"):
        client.get_prices()

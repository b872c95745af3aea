import json

import httpx
import pytest

from starsgate import (
    APIConnectionError,
    APITimeoutError,
    Client,
    IdempotencyConflictError,
    RateLimitError,
    ServiceUnavailableError,
    ValidationError,
)
from starsgate._core import ClientCore, Operation

from .conftest import BASE, PURCHASE_ID, SEED, error_body, new_key, purchase_body

ACCEPTED = {"purchase_id": PURCHASE_ID, "status": "queued", "status_url": f"/api/v1/purchases/{PURCHASE_ID}"}


def test_a_purchase_is_retried_with_the_same_idempotency_key(api, client, sleeps):
    route = api.post("/api/v1/purchases")
    route.side_effect = [
        httpx.ConnectError("refused"),
        httpx.Response(503, json=error_body("SERVICE_UNAVAILABLE"), headers={"Retry-After": "5"}),
        httpx.Response(202, json=ACCEPTED),
    ]
    accepted = client.buy_stars("@alice", 50, "gram", SEED, account_index=0)
    keys = {json.loads(call.request.content)["idempotency_key"] for call in route.calls}
    assert route.call_count == 3 and len(keys) == 1 and accepted.purchase_id == PURCHASE_ID
    # Capped exponential backoff with jitter for the connection error, then the server's Retry-After.
    assert 0.375 <= sleeps[0] <= 0.5 and sleeps[1] == 5


def test_429_honours_retry_after(api, client, sleeps):
    route = api.get(f"/api/v1/purchases/{PURCHASE_ID}")
    route.side_effect = [
        httpx.Response(429, json=error_body("RATE_LIMITED"), headers={"Retry-After": "2"}),
        httpx.Response(200, json=purchase_body()),
    ]
    assert client.get_purchase(PURCHASE_ID).purchase_id == PURCHASE_ID
    assert sleeps == [2.0]


def test_a_retry_after_too_long_to_block_on_is_raised_at_once(api, client, sleeps):
    route = api.get("/api/v1/prices").respond(429, json=error_body("RATE_LIMITED"), headers={"Retry-After": "600"})
    with pytest.raises(RateLimitError) as caught:
        client.get_prices()
    assert route.call_count == 1 and caught.value.retry_after == 600 and sleeps == []


def test_500_and_503_are_retried_until_max_retries_then_raised(api, client, sleeps):
    route = api.get("/api/v1/prices").respond(503, json=error_body("PRICES_UNAVAILABLE"))
    with pytest.raises(ServiceUnavailableError):
        client.get_prices()
    assert route.call_count == 3  # the first try and max_retries=2
    assert len(sleeps) == 2 and 0.375 <= sleeps[0] <= 0.5 and 0.75 <= sleeps[1] <= 1.0


def test_client_errors_are_never_retried(api, client, sleeps):
    route = api.post("/api/v1/purchases").respond(400, json=error_body("INVALID_AMOUNT"))
    with pytest.raises(ValidationError):
        client.create_purchase("stars", "@alice", 5, "gram", SEED, new_key())
    assert route.call_count == 1 and sleeps == []


def test_x_should_retry_false_wins_and_in_progress_is_retried(api, client, sleeps):
    reused = api.post("/api/v1/purchases").respond(
        409, json=error_body("IDEMPOTENCY_KEY_REUSED"), headers={"x-should-retry": "false"}
    )
    with pytest.raises(IdempotencyConflictError):
        client.create_purchase("stars", "@alice", 50, "gram", SEED, "k-1")
    assert reused.call_count == 1
    reused.side_effect = [
        httpx.Response(
            409, json=error_body("IDEMPOTENCY_REQUEST_IN_PROGRESS"), headers={"x-should-retry": "true", "Retry-After": "1"}
        ),
        httpx.Response(202, json=ACCEPTED),
    ]
    assert client.create_purchase("stars", "@alice", 50, "gram", SEED, "k-1").purchase_id == PURCHASE_ID
    assert sleeps == [1.0]


def test_timeouts_become_api_timeout_error_after_retries(api, sleeps):
    route = api.get("/api/v1/prices").mock(side_effect=httpx.ReadTimeout("slow"))
    with Client(BASE, timeout=0.5, max_retries=1) as c, pytest.raises(APITimeoutError) as caught:
        c.get_prices()
    assert route.call_count == 2 and isinstance(caught.value, APIConnectionError)
    assert "within 0.5 s" in str(caught.value) and caught.value.request == "GET /api/v1/prices"


def test_max_retries_zero_means_one_try(api, sleeps):
    route = api.get("/api/v1/prices").mock(side_effect=httpx.ConnectError("refused"))
    with Client(BASE, max_retries=0) as c, pytest.raises(APIConnectionError):
        c.get_prices()
    assert route.call_count == 1


def test_a_post_without_idempotency_key_is_never_retried():
    core = ClientCore(BASE, 1.0, 5, None, False)
    unsafe = Operation("POST", "/api/v1/something", body={"x": 1})
    safe = Operation("POST", "/api/v1/purchases", body={"idempotency_key": "k"}, replay_safe=True)
    assert core.retry_delay(unsafe, 0, None) is None
    assert core.retry_delay(safe, 0, None) is not None
    assert core.retry_delay(safe, 5, None) is None


def test_backoff_is_capped_and_jittered_downwards_only():
    low = ClientCore(BASE, 1.0, 10, None, False, random_fraction=lambda: 1.0)
    high = ClientCore(BASE, 1.0, 10, None, False, random_fraction=lambda: 0.0)
    op = Operation("GET", "/api/v1/prices", replay_safe=True)
    assert [high.retry_delay(op, n, None) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert [low.retry_delay(op, n, None) for n in range(2)] == [0.375, 0.75]

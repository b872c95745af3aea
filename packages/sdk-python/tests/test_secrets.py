"""A seed must never appear in a repr, a log line, an exception message, or an exception's captured request."""

import logging
import traceback
from typing import Any, List

import httpx
import pytest

import respx

from starsgate import AsyncClient, Client, InsecureTransportError, StarsgateError
from starsgate._operations import create_purchase

from .conftest import BASE, PURCHASE_ID, SEED, error_body, new_key


def everything_reachable_from(error: BaseException) -> str:
    """Text of the error, its traceback, its attributes, and every chained exception's."""
    seen: List[str] = []
    current: Any = error
    while current is not None:
        seen.append(str(current))
        seen.append(repr(current))
        seen.append(repr(vars(current)))
        for value in vars(current).values():
            seen.append(repr(value))
        current = current.__cause__ or current.__context__
    seen.append("".join(traceback.format_exception(type(error), error, error.__traceback__)))
    return "\n".join(seen)


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(400, json=error_body("INVALID_BIP39_SEED")),
        httpx.Response(500, json=error_body("INTERNAL_ERROR")),
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
    ],
    ids=["400", "500", "connect", "timeout"],
)
def test_no_error_path_leaks_the_seed(api, answer, sleeps, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    api.post("/api/v1/purchases").mock(side_effect=[answer] * 3)
    api.post("/api/v1/wallets/resolve").mock(side_effect=[answer] * 3)
    with Client(BASE) as client:
        for call in (
            lambda: client.create_purchase("stars", "@alice", 50, "gram", SEED, new_key()),
            lambda: client.resolve_wallet(SEED, account_index=0),
        ):
            with pytest.raises(StarsgateError) as caught:
                call()
            assert caught.value.__cause__ is None and caught.value.__context__ is None
            assert SEED not in everything_reachable_from(caught.value)
            assert "abandon" not in everything_reachable_from(caught.value)
    assert caplog.records, "the SDK and httpx log at DEBUG"
    assert SEED not in caplog.text and "abandon" not in caplog.text


async def test_the_async_client_keeps_the_seed_out_of_errors_too(api, sleeps, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    api.post("/api/v1/purchases").mock(side_effect=httpx.ConnectError("refused"))
    async with AsyncClient(BASE) as client:
        with pytest.raises(StarsgateError) as caught:
            await client.buy_stars("@alice", 50, "gram", SEED, account_index=0)
    assert caught.value.__context__ is None and SEED not in everything_reachable_from(caught.value)
    assert "abandon" not in caplog.text


def test_reprs_never_show_the_seed():
    op = create_purchase("stars", "@alice", 50, "gram", SEED, "k", None, 0)
    assert "abandon" not in repr(op) and "abandon" not in str(op)
    with Client(BASE) as client:
        assert "abandon" not in repr(client)


@pytest.mark.parametrize("url", ["http://gateway.example", "http://10.0.0.5:8080", "http://starsgate.shop.svc:8080"])
def test_a_seed_is_never_sent_over_plain_http_beyond_this_machine(api, url, monkeypatch):
    monkeypatch.delenv("STARSGATE_ALLOW_INSECURE_HTTP", raising=False)
    with respx.mock(base_url=url, assert_all_called=False) as remote:
        purchases = remote.post("/api/v1/purchases").respond(202, json={"purchase_id": "p", "status": "queued"})
        resolve = remote.post("/api/v1/wallets/resolve").respond(200, json={"account_index": 0, "wallet_version": "V5R1"})
        with Client(url) as client:
            for call in (
                lambda: client.buy_stars("@alice", 50, "gram", SEED, account_index=0),
                lambda: client.resolve_wallet(SEED, account_index=0),
            ):
                with pytest.raises(InsecureTransportError) as caught:
                    call()
                # The refusal names the setting, is a FragmentAPIError and a ValueError, and holds no seed.
                assert "allow_insecure_http=True" in str(caught.value) and "STARSGATE_ALLOW_INSECURE_HTTP" in str(caught.value)
                assert isinstance(caught.value, ValueError) and "abandon" not in everything_reachable_from(caught.value)
        assert purchases.call_count == 0 and resolve.call_count == 0
        with Client(url, allow_insecure_http=True) as allowed:
            assert allowed.resolve_wallet(SEED, account_index=0).wallet_version == "V5R1"
        monkeypatch.setenv("STARSGATE_ALLOW_INSECURE_HTTP", "1")
        with Client(url) as allowed_by_env:
            assert allowed_by_env.buy_stars("@alice", 50, "gram", SEED, account_index=0).purchase_id == "p"


async def test_calls_without_a_secret_work_over_http_inside_a_private_network():
    url = "http://starsgate.payments.svc.cluster.local:8080"
    quote = {"product": "stars", "amount": 50, "prices": {"gram": "0.2561", "usdt": "0.75"}, "stale": False}
    with respx.mock(base_url=url) as remote:
        remote.get("/api/v1/prices/quote").respond(200, json=quote)
        remote.get(f"/api/v1/purchases/{PURCHASE_ID}").respond(200, json={"purchase_id": PURCHASE_ID, "status": "queued"})
        with Client(url) as client:
            assert client.get_stars_price(50).prices.gram == "0.2561"
        async with AsyncClient(url) as aclient:
            assert (await aclient.get_purchase(PURCHASE_ID)).status == "queued"
            with pytest.raises(InsecureTransportError):
                await aclient.buy_stars("@alice", 50, "gram", SEED, account_index=0)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "https://x.example"])
def test_loopback_and_https_are_fine(url):
    Client(url).close()


def test_a_base_url_that_is_not_http_is_refused():
    with pytest.raises(ValueError):
        Client("ftp://127.0.0.1")

"""A seed must never appear in a repr, a log line, an exception message, or an exception's captured request."""

import logging
import traceback
from typing import Any, List

import httpx
import pytest

from starsgate import AsyncClient, Client, StarsgateError
from starsgate._operations import create_purchase

from .conftest import BASE, SEED, error_body, new_key


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


@pytest.mark.parametrize("url", ["http://gateway.example", "http://10.0.0.5:8080", "http://192.168.1.2"])
def test_plain_http_is_refused_beyond_this_machine(url):
    with pytest.raises(ValueError, match="plain http"):
        Client(url)
    with pytest.raises(ValueError, match="plain http"):
        AsyncClient(url)
    Client(url, allow_insecure_http=True).close()


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "https://x.example"])
def test_loopback_and_https_are_fine(url):
    Client(url).close()


def test_a_base_url_that_is_not_http_is_refused():
    with pytest.raises(ValueError):
        Client("ftp://127.0.0.1")

"""The same shop adapter against the real gateway, worker and sandbox (conftest.py's `stack`): sync, the sync
adapter in a thread (as shops run it today), and on `AsyncFragmentAPI`. Only the base URL is starsgate's."""

import asyncio
import uuid

import pytest

from starsgate import AsyncFragmentAPI, FragmentAPI

from ..conftest import demo_wallet
from .shop import AsyncStarsShop, StarsShop


def order_id() -> str:
    return uuid.uuid4().hex[:12]


def test_a_shop_sells_stars_and_sends_a_poor_wallet_to_manual_review(stack):
    with FragmentAPI(base_url=stack["gateway_url"]) as api:
        shop = StarsShop(api, demo_wallet(stack, "base64-v5r1")["seed"])
        offer = shop.offer("@alice", 50)
        assert offer.available and offer.upstream_price.endswith(" GRAM")
        assert offer.checked_at.endswith("Z")
        result = shop.fulfil(order_id(), "@alice", 50)
        assert result.outcome == "delivered", result

        poor = StarsShop(api, demo_wallet(stack, "poor-v5r1")["seed"])
        short = poor.fulfil(order_id(), "@carol", 50)
        assert (short.outcome, short.code) == ("manual_review", "TOP_UP_REQUIRED"), short


def test_reusing_an_order_id_for_a_different_order_stops(stack):
    with FragmentAPI(base_url=stack["gateway_url"]) as api:
        shop = StarsShop(api, demo_wallet(stack, "bip39-0")["seed"], account_index=0)
        order = order_id()
        assert shop.fulfil(order, "@alice", 50).outcome == "delivered"
        # The same order id again is the same purchase (no second payment)...
        assert shop.fulfil(order, "@alice", 50).outcome == "delivered"
        # ...and for a different amount, a 409 the shop maps to a stop.
        stopped = shop.fulfil(order, "@alice", 60)
        assert (stopped.outcome, stopped.code) == ("stopped", "IDEMPOTENCY_KEY_REUSED"), stopped


async def test_the_sync_adapter_in_a_thread_and_the_async_client(stack):
    with FragmentAPI(base_url=stack["gateway_url"]) as api:
        threaded = StarsShop(api, demo_wallet(stack, "ton24-v4r2")["seed"])
        in_thread = await asyncio.to_thread(threaded.fulfil, order_id(), "@bob", 50)
    assert in_thread.outcome == "delivered", in_thread
    async with AsyncFragmentAPI(base_url=stack["gateway_url"]) as api:
        shop = AsyncStarsShop(api, demo_wallet(stack, "bip39-1")["seed"], account_index=1)
        offer = await shop.offer("@dave", 100, "usdt")
        assert offer.available and offer.upstream_price.endswith(" USDT")
        result = await shop.fulfil(order_id(), "@dave", 50)
    assert result.outcome == "delivered", result

"""Both clients on a Premium giveaway against the real gateway, worker and sandbox (the `stack` fixture of
conftest.py). Needs the server side of issue 38 (the giveaway in the gateway, the worker and the
simulator): kept apart from test_integration.py, which runs without it. STARSGATE_SKIP_INTEGRATION=1 skips it.
The simulator's history rows show the order's Ref# while these run (its `historyShowsRef` switch): only such a
row proves a giveaway's delivery (docs/fragment-protocol.md §22); without it a purchase ends reconciliation_required."""

import uuid
from typing import Any, Dict, Iterator

import httpx
import pytest

from starsgate import AsyncClient, Client, Product, PurchaseStatus, ValidationError, to_decimal

CHANNEL = "@news_channel"


def wallet(stack: Dict[str, Any], wallet_id: str) -> Dict[str, Any]:
    return next(w for w in stack["wallets"] if w["id"] == wallet_id)


@pytest.fixture(autouse=True)
def history_shows_ref(stack: Dict[str, Any]) -> Iterator[None]:
    faults = f"{stack['sandbox_url']}/admin/fragment/faults"
    httpx.put(faults, json={"historyShowsRef": True}).raise_for_status()
    yield
    httpx.put(faults, json={"historyShowsRef": False}).raise_for_status()


def test_the_catalogue_availability_and_a_quote(stack):
    with Client(stack["gateway_url"]) as sg:
        giveaway = sg.products.list().get(Product.PREMIUM_GIVEAWAY)
        assert giveaway is not None and giveaway.recipient_kind == "channel"
        assert [(f.name, f.minimum, f.maximum, f.choices) for f in giveaway.fields] == [
            ("winners", 1, 24000, None),
            ("months", None, None, [3, 6, 12]),
        ]
        assert sg.check_availability("premium_giveaway", CHANNEL, payment_method="usdt", winners=10, months=3).available
        refused = sg.check_availability("premium_giveaway", "@alice", payment_method="gram", quantities={"winners": 1, "months": 3})
        assert not refused.available and refused.code == "RECIPIENT_INELIGIBLE"
        quote = sg.get_quote("premium_giveaway", winners=10, months=12)
        assert to_decimal(quote.prices.gram) > 0 and to_decimal(quote.prices.usdt) > 0
        with pytest.raises(ValidationError) as refused_months:
            sg.create_purchase(
                "premium_giveaway",
                CHANNEL,
                payment_method="gram",
                seed=wallet(stack, "base64-v5r1")["seed"],
                idempotency_key=str(uuid.uuid4()),
                winners=10,
                months=4,
            )
        assert refused_months.value.code == "INVALID_AMOUNT" and "months" in str(refused_months.value.details)


def test_the_sync_client_buys_a_giveaway_by_winners_and_months(stack):
    seed = wallet(stack, "base64-v5r1")["seed"]
    with Client(stack["gateway_url"]) as sg:
        accepted = sg.create_purchase(
            "premium_giveaway", CHANNEL, payment_method="gram", seed=seed, idempotency_key=str(uuid.uuid4()), winners=3, months=6
        )
        purchase = sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25)
    assert purchase.status is PurchaseStatus.COMPLETED, purchase.error
    assert purchase.product is Product.PREMIUM_GIVEAWAY and purchase.username == CHANNEL
    assert purchase.quantities == {"winners": 3, "months": 6} and purchase.amount == 3


async def test_the_async_client_buys_a_giveaway_by_quantities_in_usdt(stack):
    v4 = wallet(stack, "ton24-v4r2")
    async with AsyncClient(stack["gateway_url"]) as sg:
        accepted = await sg.create_purchase(
            "premium_giveaway",
            CHANNEL,
            payment_method="usdt",
            seed=v4["seed"],
            idempotency_key=str(uuid.uuid4()),
            quantities={"winners": 2, "months": 12},
        )
        purchase = await sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25)
    assert purchase.is_completed, purchase.error
    assert purchase.quantities == {"winners": 2, "months": 12}

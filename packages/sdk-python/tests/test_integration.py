"""Both clients buy for a demo user against the real gateway, worker and sandbox (the `stack` fixture of
conftest.py). Set STARSGATE_SKIP_INTEGRATION=1 to skip."""

from typing import Any, Dict

import pytest

from starsgate import (
    AsyncClient,
    Client,
    PurchaseStatus,
    TopUpRequiredError,
    ValidationError,
    WalletSelectionRequiredError,
    to_decimal,
)


def wallet(stack: Dict[str, Any], wallet_id: str) -> Dict[str, Any]:
    return next(w for w in stack["wallets"] if w["id"] == wallet_id)


def test_the_sync_client_buys_stars_for_a_demo_user(stack):
    seed = wallet(stack, "base64-v5r1")["seed"]
    with Client(stack["gateway_url"]) as sg:
        assert sg.check_stars_availability("@alice", 50, "gram").available
        quote = sg.get_stars_price(50)
        assert isinstance(quote.prices.gram, str) and to_decimal(quote.prices.gram) > 0
        assert sg.resolve_wallet(seed).wallet_address == wallet(stack, "base64-v5r1")["address"]
        accepted = sg.buy_stars("@alice", 50, "gram", seed)
        seen = []
        purchase = sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25, on_update=lambda p: seen.append(p.status))
    assert purchase.status is PurchaseStatus.COMPLETED, purchase.error
    assert purchase.transaction_hash and len(purchase.transaction_hash) == 64
    assert seen[-1] is PurchaseStatus.COMPLETED and not purchase.replacement_allowed


async def test_the_async_client_buys_stars_for_a_demo_user(stack):
    v4 = wallet(stack, "ton24-v4r2")
    async with AsyncClient(stack["gateway_url"]) as sg:
        assert (await sg.check_premium_availability("@dave", 3, "gram")).available
        assert to_decimal((await sg.get_premium_price(3)).prices.usdt) > 0
        key = f"shop-order-{v4['address'][-8:]}"
        accepted = await sg.buy_stars("@bob", 50, "gram", v4["seed"], idempotency_key=key)
        # The shop crashed before recording the id: the same key brings back the same purchase.
        again = await sg.buy_stars("@bob", 50, "gram", v4["seed"], idempotency_key=key)
        assert again.purchase_id == accepted.purchase_id and again.replayed
        purchase = await sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25)
    assert purchase.is_completed, purchase.error
    assert purchase.username == "@bob" and purchase.transaction_hash


def test_top_up_required_and_wallet_selection_are_typed(stack):
    with Client(stack["gateway_url"]) as sg:
        accepted = sg.buy_stars("@carol", 50, "gram", wallet(stack, "poor-v5r1")["seed"])
        purchase = sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25)
        assert purchase.status is PurchaseStatus.FAILED and purchase.top_up_required and purchase.replacement_allowed
        with pytest.raises(TopUpRequiredError) as caught:
            purchase.raise_for_status()
        gram = next(line for line in caught.value.shortfall if line.currency == "GRAM")
        assert gram.shortfall > 0 and gram.required - gram.available == gram.shortfall
        bip39 = wallet(stack, "bip39-0")["seed"]
        with pytest.raises(WalletSelectionRequiredError) as selection:
            sg.resolve_wallet(bip39)
        assert bip39 not in str(selection.value) and selection.value.status_code == 400


def test_the_sync_client_tops_up_gram_and_usdt_is_refused(stack):
    seed = wallet(stack, "base64-v5r1")["seed"]
    with Client(stack["gateway_url"]) as sg:
        assert sg.check_gram_availability("@alice", 2).available
        assert sg.check_gram_availability("@news_channel", 2).code == "RECIPIENT_INELIGIBLE"
        assert sg.get_gram_price(2).prices.gram == "2"
        accepted = sg.buy_gram("@alice", 2, seed)
        purchase = sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25)
        with pytest.raises(ValidationError) as refused:
            sg.buy_gram("@alice", 2, seed, payment_method="usdt")
    assert purchase.status is PurchaseStatus.COMPLETED, purchase.error
    assert purchase.product.value == "gram" and purchase.amount == 2
    assert refused.value.code == "PAYMENT_METHOD_UNAVAILABLE" and refused.value.status_code == 400
    assert refused.value.action == "Use payment_method=gram."


async def test_the_async_client_tops_up_gram(stack):
    v4 = wallet(stack, "ton24-v4r2")
    async with AsyncClient(stack["gateway_url"]) as sg:
        assert (await sg.check_gram_availability("@bob", 1)).available
        accepted = await sg.buy_gram("@bob", 1, v4["seed"])
        purchase = await sg.wait(accepted.purchase_id, timeout=150, poll_interval=0.25)
    assert purchase.is_completed, purchase.error
    assert purchase.username == "@bob" and purchase.transaction_hash

# Generated from products/gram.py by scripts/make_async_client.py: edit products/gram.py, then run it.
"""The GRAM top-up by name: `amount` whole GRAM to a user's Telegram balance (as coroutines)."""

import uuid
from typing import Optional

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum
from ._async_orders import AsyncGenericOrders


class AsyncGramMethods(AsyncGenericOrders):
    async def check_gram_availability(self, username: str, amount: int) -> AvailabilityCheck:
        """Can this user receive `amount` whole GRAM on their Telegram balance (paid in GRAM)?"""
        return await self.check_availability("gram", username, amount, "gram")

    async def get_gram_price(self, amount: int) -> PriceQuote:
        """A top-up's price is its amount in GRAM; `usdt` is only its worth."""
        return await self.get_quote("gram", amount)

    async def buy_gram(
        self,
        username: str,
        amount: int,
        seed: str,
        wallet_address: Optional[str] = None,
        account_index: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        payment_method: StrOrEnum = "gram",
    ) -> PurchaseAccepted:
        """`create_purchase` for a GRAM top-up: `amount` whole GRAM (1 to 1,000,000) to a Telegram user's
        balance, paid in GRAM only (another method: 400 PAYMENT_METHOD_UNAVAILABLE)."""
        key = idempotency_key or str(uuid.uuid4())
        return await self.create_purchase("gram", username, amount, payment_method, seed, key, wallet_address, account_index)

# Generated from products/stars.py by scripts/make_async_client.py: edit products/stars.py, then run it.
"""Telegram Stars by name: `amount` Stars for a user (as coroutines)."""

import uuid
from typing import Optional

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum
from ._async_orders import AsyncGenericOrders


class AsyncStarsMethods(AsyncGenericOrders):
    async def check_stars_availability(
        self, username: str, amount: int, payment_method: StrOrEnum
    ) -> AvailabilityCheck:
        return await self.check_availability("stars", username, amount, payment_method)

    async def get_stars_price(self, amount: int) -> PriceQuote:
        return await self.get_quote("stars", amount)

    async def buy_stars(
        self,
        username: str,
        amount: int,
        payment_method: StrOrEnum,
        seed: str,
        wallet_address: Optional[str] = None,
        account_index: Optional[int] = None,
        idempotency_key: Optional[str] = None,
    ) -> PurchaseAccepted:
        """`create_purchase` for Stars with a key generated once for this call (and reused by its retries).

        Store the returned `purchase_id`; to retry after a crash, pass your own `idempotency_key`.
        """
        key = idempotency_key or str(uuid.uuid4())
        return await self.create_purchase("stars", username, amount, payment_method, seed, key, wallet_address, account_index)

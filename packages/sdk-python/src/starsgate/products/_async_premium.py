# Generated from products/premium.py by scripts/make_async_client.py: edit products/premium.py, then run it.
"""Telegram Premium gifted by name: `months` (3, 6 or 12) for a user (as coroutines)."""

import uuid
from typing import Optional

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum
from ._async_orders import AsyncGenericOrders


class AsyncPremiumMethods(AsyncGenericOrders):
    async def check_premium_availability(
        self, username: str, months: int, payment_method: StrOrEnum
    ) -> AvailabilityCheck:
        return await self.check_availability("premium", username, months, payment_method)

    async def get_premium_price(self, months: int) -> PriceQuote:
        return await self.get_quote("premium", months)

    async def buy_premium(
        self,
        username: str,
        months: int,
        payment_method: StrOrEnum,
        seed: str,
        wallet_address: Optional[str] = None,
        account_index: Optional[int] = None,
        idempotency_key: Optional[str] = None,
    ) -> PurchaseAccepted:
        key = idempotency_key or str(uuid.uuid4())
        return await self.create_purchase(
            "premium", username, months, payment_method, seed, key, wallet_address, account_index
        )

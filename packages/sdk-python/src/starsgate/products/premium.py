"""Telegram Premium gifted by name: `months` (3, 6 or 12) for a user (the source of `_async_premium.py`)."""

import uuid
from typing import Optional

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum
from .orders import GenericOrders


class PremiumMethods(GenericOrders):
    def check_premium_availability(
        self, username: str, months: int, payment_method: StrOrEnum
    ) -> AvailabilityCheck:
        return self.check_availability("premium", username, months, payment_method)

    def get_premium_price(self, months: int) -> PriceQuote:
        return self.get_quote("premium", months)

    def buy_premium(
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
        return self.create_purchase(
            "premium", username, months, payment_method, seed, key, wallet_address, account_index
        )

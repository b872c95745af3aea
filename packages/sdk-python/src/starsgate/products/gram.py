"""The GRAM top-up by name: `amount` whole GRAM to a user's Telegram balance (the source of `_async_gram.py`)."""

import uuid
from typing import Optional

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum
from .orders import GenericOrders


class GramMethods(GenericOrders):
    def check_gram_availability(self, username: str, amount: int) -> AvailabilityCheck:
        """Can this user receive `amount` whole GRAM on their Telegram balance (paid in GRAM)?"""
        return self.check_availability("gram", username, amount, "gram")

    def get_gram_price(self, amount: int) -> PriceQuote:
        """A top-up's price is its amount in GRAM; `usdt` is only its worth."""
        return self.get_quote("gram", amount)

    def buy_gram(
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
        return self.create_purchase("gram", username, amount, payment_method, seed, key, wallet_address, account_index)

# Generated from products/orders.py by scripts/make_async_client.py: edit products/orders.py, then run it.
"""The generic calls a product's named methods are written over (as coroutines)."""

from typing import Mapping, Optional, Protocol

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum


class AsyncGenericOrders(Protocol):
    async def check_availability(
        self,
        product: StrOrEnum,
        username: str,
        amount: Optional[int] = None,
        payment_method: Optional[StrOrEnum] = None,
        *,
        winners: Optional[int] = None,
        months: Optional[int] = None,
        quantities: Optional[Mapping[str, int]] = None,
    ) -> AvailabilityCheck: ...

    async def get_quote(
        self,
        product: StrOrEnum,
        amount: Optional[int] = None,
        *,
        winners: Optional[int] = None,
        months: Optional[int] = None,
        quantities: Optional[Mapping[str, int]] = None,
    ) -> PriceQuote: ...

    async def create_purchase(
        self,
        product: StrOrEnum,
        username: str,
        amount: Optional[int] = None,
        payment_method: Optional[StrOrEnum] = None,
        seed: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        wallet_address: Optional[str] = None,
        account_index: Optional[int] = None,
        *,
        winners: Optional[int] = None,
        months: Optional[int] = None,
        quantities: Optional[Mapping[str, int]] = None,
    ) -> PurchaseAccepted: ...

"""The generic calls a product's named methods are written over (the source of `_async_orders.py`)."""

from typing import Mapping, Optional, Protocol

from .._models import AvailabilityCheck, PriceQuote, PurchaseAccepted
from .._operations import StrOrEnum


class GenericOrders(Protocol):
    def check_availability(
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

    def get_quote(
        self,
        product: StrOrEnum,
        amount: Optional[int] = None,
        *,
        winners: Optional[int] = None,
        months: Optional[int] = None,
        quantities: Optional[Mapping[str, int]] = None,
    ) -> PriceQuote: ...

    def create_purchase(
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

"""Typed results. Money is `Decimal` (parsed from the wire's exact decimal strings), never float.

Field names are the wire's (snake_case); `tests/test_models_openapi.py` checks them against the
gateway's OpenAPI document so the models cannot drift from the API.
"""

from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict, Field

from ._exceptions import OrderFailedError, Shortfall, TopUpRequiredError

__all__ = [
    "Product",
    "PaymentMethod",
    "PurchaseStatus",
    "CheckoutStatus",
    "ErrorInfo",
    "PurchaseAccepted",
    "Purchase",
    "PricePair",
    "PriceQuote",
    "PriceList",
    "AvailabilityCheck",
    "WalletBalances",
    "ResolvedWallet",
    "CheckoutAccepted",
    "TonConnectMessage",
    "TonConnectTransaction",
    "CheckoutPrices",
    "Checkout",
]

# The one sentence every reconciliation result carries (the competitors' users asked for it).
RECONCILIATION_ADVICE = (
    "The outcome is uncertain (money may have left the wallet): do not create a replacement order. "
    "The service keeps checking the chain; an operator settles the case."
)


class _Model(BaseModel):
    # Unknown fields are ignored so that a newer gateway does not break an older SDK.
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class Product(str, Enum):
    STARS = "stars"
    PREMIUM = "premium"


class PaymentMethod(str, Enum):
    GRAM = "gram"
    USDT = "usdt"


class _StatusMixin:
    value: str

    _TERMINAL: "frozenset[str]" = frozenset()

    @property
    def is_terminal(self) -> bool:
        """No further change will happen by itself."""
        return self.value in self._TERMINAL

    @property
    def is_completed(self) -> bool:
        """The only status that confirms delivery."""
        return self.value == "completed"

    @property
    def needs_reconciliation(self) -> bool:
        """Uncertain outcome: never create a replacement."""
        return self.value == "reconciliation_required"

    def __str__(self) -> str:
        return self.value


class PurchaseStatus(_StatusMixin, str, Enum):
    """Statuses are lowercase strings: compare with `PurchaseStatus.COMPLETED` or `"completed"`."""

    QUEUED = "queued"
    PREPARING = "preparing"
    SENDING = "sending"
    SUBMITTED = "submitted"
    CONFIRMING = "confirming"
    COMPLETED = "completed"
    FAILED = "failed"
    RECONCILIATION_REQUIRED = "reconciliation_required"


class CheckoutStatus(_StatusMixin, str, Enum):
    PREPARING = "preparing"
    AWAITING_SIGNATURE = "awaiting_signature"
    SUBMITTED = "submitted"
    CONFIRMING = "confirming"
    COMPLETED = "completed"
    FAILED = "failed"
    EXPIRED = "expired"
    RECONCILIATION_REQUIRED = "reconciliation_required"


# Enum members cannot be class attributes of their own enum, so the terminal sets are attached after.
PurchaseStatus._TERMINAL = frozenset({"completed", "failed", "reconciliation_required"})
CheckoutStatus._TERMINAL = frozenset({"completed", "failed", "expired", "reconciliation_required"})


class ErrorInfo(_Model):
    """Why a purchase or checkout failed (or needs reconciliation): stable code, human message and action."""

    code: str
    message: str
    action: Optional[str] = None
    details: List[Dict[str, Any]] = Field(default_factory=list)

    @property
    def shortfall(self) -> List[Shortfall]:
        """For TOP_UP_REQUIRED: what the payer wallet lacks, per currency."""
        return Shortfall.from_details(self.details)


class _OrderOutcome(_Model):
    """What purchases and checkouts share: status predicates, the error, and what to do next."""

    status: Any
    error: Optional[ErrorInfo] = None

    @property
    def is_terminal(self) -> bool:
        return bool(self.status.is_terminal)

    @property
    def is_completed(self) -> bool:
        return bool(self.status.is_completed)

    @property
    def needs_reconciliation(self) -> bool:
        return bool(self.status.needs_reconciliation)

    @property
    def replacement_allowed(self) -> bool:
        """True only when the order certainly paid nothing (failed, expired): a new order with a new key is safe."""
        return self.status.value in ("failed", "expired")

    @property
    def advice(self) -> Optional[str]:
        if self.needs_reconciliation:
            return RECONCILIATION_ADVICE
        return self.error.action if self.error else None

    @property
    def top_up_required(self) -> bool:
        return self.error is not None and self.error.code == "TOP_UP_REQUIRED"

    def raise_for_status(self) -> None:
        """Raise the typed error of a failed order (TopUpRequiredError with the shortfall, ...).

        `reconciliation_required` does not raise: it is not a failure, and must never be replaced.
        """
        if self.status.value not in ("failed", "expired") or self.error is None:
            return
        error = self.error
        kwargs: Dict[str, Any] = {"code": error.code, "details": error.details, "action": error.action}
        if error.code == "TOP_UP_REQUIRED":
            raise TopUpRequiredError(error.message, shortfall=error.shortfall, **kwargs)
        raise OrderFailedError(error.message, **kwargs)


class PurchaseAccepted(_Model):
    """202 from POST /api/v1/purchases: accepted, not delivered. Poll with `wait`."""

    purchase_id: str
    status: PurchaseStatus
    status_url: str
    # SDK-side: the `Idempotent-Replayed` header (the same key was sent before).
    replayed: bool = False


class Purchase(_OrderOutcome):
    purchase_id: str
    status: PurchaseStatus
    product: Product
    username: str
    amount: int
    payment_method: PaymentMethod
    created_at: datetime
    updated_at: datetime
    transaction_hash: Optional[str] = None


class PricePair(_Model):
    gram: Decimal
    usdt: Decimal


class PriceQuote(_Model):
    """Informational, not reserved: Fragment prices a fresh invoice when a purchase starts."""

    product: Product
    amount: int
    prices: PricePair
    stale: bool
    derived: bool = False
    quoted_at: datetime
    updated_at: datetime


class PriceList(_Model):
    """Reference prices; keys are the Star count (50) and the Premium months (3, 6, 12)."""

    stars: Dict[int, PricePair]
    premium: Dict[int, PricePair]
    stale: bool
    updated_at: datetime


class AvailabilityCheck(_Model):
    """A point-in-time answer, not a reservation."""

    available: bool
    code: str
    message: str
    action: str
    product: Product
    username: str
    amount: int
    payment_method: PaymentMethod
    checked_at: datetime


class WalletBalances(_Model):
    gram: Decimal
    usdt: Decimal


class ResolvedWallet(_Model):
    account_index: int
    wallet_version: str
    wallet_address: str
    raw_address: str
    seed_format: str
    network: str
    version_source: str
    balances: Optional[WalletBalances] = None
    balances_error: Optional[str] = None


class CheckoutAccepted(_Model):
    checkout_id: str
    status: CheckoutStatus
    status_url: str
    replayed: bool = False


class TonConnectMessage(_Model):
    address: str
    amount: str = Field(description="nanoGRAM as a decimal string, exactly as TON Connect wants it.")
    payload: Optional[str] = None
    state_init: Optional[str] = Field(default=None, alias="stateInit")

    @property
    def amount_nano(self) -> int:
        return int(self.amount)


class TonConnectTransaction(_Model):
    """A TON Connect `sendTransaction` request. `to_tonconnect()` gives it back in the wallet's own shape."""

    valid_until: int = Field(alias="validUntil")
    network: str
    from_: str = Field(alias="from")
    messages: List[TonConnectMessage]

    def to_tonconnect(self) -> Dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True)


class CheckoutPrices(_Model):
    gram: Optional[Decimal] = None
    usdt: Optional[Decimal] = None


class Checkout(_OrderOutcome):
    checkout_id: str
    status: CheckoutStatus
    product: Product
    username: str
    amount: int
    payment_method: PaymentMethod
    payer_address: str
    created_at: datetime
    updated_at: datetime
    valid_until: Optional[datetime] = None
    prices: Optional[CheckoutPrices] = None
    transaction: Optional[TonConnectTransaction] = None
    transaction_hash: Optional[str] = None

    @property
    def awaiting_signature(self) -> bool:
        return self.status is CheckoutStatus.AWAITING_SIGNATURE and self.transaction is not None

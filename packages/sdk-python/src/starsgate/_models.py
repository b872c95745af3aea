"""Typed results. Money is the wire's exact decimal string (`"1.25"`), never a float: the spec's "keep as
string until the payment layer converts units". `to_decimal` converts when the caller wants a `Decimal`.
Timestamps are the wire's ISO 8601 strings (`parse_timestamp` gives a `datetime`).

Field names are the wire's (snake_case); `tests/test_openapi_contract.py` checks them against the
gateway's OpenAPI document so the models cannot drift from the API. Fields the hosted SDK
(`fragment_api` 1.3.0) does not have are optional, so a consumer's test doubles built with only its
fields keep working.
"""

from datetime import datetime
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Annotated, Any, Dict, Iterator, List, Literal, Mapping, Optional, Tuple, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_serializer,
    field_validator,
)

from ._exceptions import InvalidArgumentError, OrderFailedError, Shortfall, TopUpRequiredError
from .products.registry import Product

__all__ = [
    "DecimalString",
    "Timestamp",
    "to_decimal",
    "parse_timestamp",
    "Product",
    "ProductName",
    "Quantities",
    "PaymentMethod",
    "PurchaseStatus",
    "CheckoutStatus",
    "ErrorInfo",
    "PurchaseAccepted",
    "Purchase",
    "PricePair",
    "PriceQuote",
    "PriceEntry",
    "PriceTable",
    "AvailabilityCheck",
    "WalletBalances",
    "ResolvedWallet",
    "CheckoutAccepted",
    "TonConnectMessage",
    "TonConnectTransaction",
    "CheckoutPrices",
    "Checkout",
    "ProductField",
    "ProductInfo",
    "ProductCatalog",
]

# The one sentence every reconciliation result carries (the competitors' users asked for it).
RECONCILIATION_ADVICE = (
    "The outcome is uncertain (money may have left the wallet): do not create a replacement order. "
    "The service keeps checking the chain; an operator settles the case."
)


DECIMAL_PATTERN = r"^\d+(\.\d+)?$"


def _money_text(value: Any) -> Any:
    """A `Decimal` or an int given by a caller becomes its exact string; a float is refused (it is not exact)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError("money is a decimal string such as \"1.25\", never a float")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("money must be a finite decimal")
        return format(value, "f")
    if isinstance(value, int):
        return str(value)
    return value


# A non-negative decimal string, exactly as the API sends it: "1.25", "0.000000001", "12".
DecimalString = Annotated[str, BeforeValidator(_money_text), StringConstraints(pattern=DECIMAL_PATTERN)]


def to_decimal(value: str) -> Decimal:
    """The typed conversion for the payment layer: `to_decimal(quote.prices.gram)` → `Decimal("1.25")`."""
    try:
        return Decimal(value)
    except (InvalidOperation, TypeError):
        raise InvalidArgumentError(f"not a decimal string: {value!r}") from None


def parse_timestamp(value: str) -> datetime:
    """An ISO 8601 timestamp of the API (`2026-11-23T10:00:00.000Z`) as an aware `datetime`."""
    text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
    return datetime.fromisoformat(text)


def _timestamp_text(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _checked_timestamp(value: str) -> str:
    parse_timestamp(value)
    return value


# An ISO 8601 string, kept as sent (it round-trips unchanged); a `datetime` given by a caller becomes its ISO form.
Timestamp = Annotated[str, BeforeValidator(_timestamp_text), AfterValidator(_checked_timestamp)]


class _Model(BaseModel):
    # Unknown fields are ignored so that a newer gateway does not break an older SDK.
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


# A product this SDK knows is its `Product`; one a newer gateway added stays its plain name, so the
# order still reads (`client.products.list()` describes it).
ProductName = Annotated[Union[Product, str], Field(union_mode="left_to_right")]

# An order line's quantities by the catalogue's names: `{"winners": 10, "months": 3}`.
Quantities = Dict[str, int]


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


class ErrorInfo(_Model, Mapping[str, Any]):
    """Why a purchase or checkout failed (or needs reconciliation): stable code, human message and action.

    Also a read-only mapping, as the hosted SDK's `error` dict is: `error.get("code")`, `error["message"]`.
    """

    # Fields beyond these (a test double's, a newer gateway's) stay readable through the mapping.
    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    code: str
    message: str = ""
    action: Optional[str] = None
    details: List[Dict[str, Any]] = Field(default_factory=list)

    def _entries(self) -> Dict[str, Any]:
        return {name: value for name, value in self.model_dump().items() if value is not None}

    def __getitem__(self, key: str) -> Any:
        return self._entries()[key]

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())

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
    def completed(self) -> bool:
        """The hosted SDK's name: True only for `completed`, the one status that confirms delivery."""
        return self.is_completed

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
    status_url: Optional[str] = None
    # SDK-side: the `Idempotent-Replayed` header (the same key was sent before).
    replayed: bool = False

    @property
    def completed(self) -> bool:
        return self.status.is_completed

    @property
    def is_terminal(self) -> bool:
        return self.status.is_terminal


class Purchase(_OrderOutcome):
    purchase_id: str
    status: PurchaseStatus
    product: Optional[ProductName] = None
    username: Optional[str] = None
    amount: Optional[int] = None
    quantities: Optional[Quantities] = None
    payment_method: Optional[PaymentMethod] = None
    created_at: Optional[Timestamp] = None
    updated_at: Optional[Timestamp] = None
    transaction_hash: Optional[str] = None


class PricePair(_Model):
    """One price in both currencies, exact decimal strings (`Prices` is its hosted-SDK name)."""

    gram: DecimalString
    usdt: DecimalString

    def decimal(self, currency: str) -> Decimal:
        """`prices.decimal("gram")` → `Decimal("1.25")`, for the payment layer."""
        if currency.lower() not in ("gram", "usdt"):
            raise InvalidArgumentError("currency is 'gram' or 'usdt'")
        return to_decimal(getattr(self, currency.lower()))


class PriceQuote(_Model):
    """Informational, not reserved: Fragment prices a fresh invoice when a purchase starts."""

    product: ProductName
    amount: int
    quantities: Optional[Quantities] = None
    prices: PricePair
    stale: bool = False
    derived: bool = False
    quoted_at: Optional[Timestamp] = None
    updated_at: Optional[Timestamp] = None


class PriceEntry(_Model):
    """One row of the price list: a quantity (or a number of months), and its prices."""

    amount: int
    prices: PricePair

    @property
    def months(self) -> int:
        return self.amount

    @property
    def gram(self) -> str:
        return self.prices.gram

    @property
    def usdt(self) -> str:
        return self.prices.usdt


class PriceTable:
    """The price list's rows of one product, looked up by quantity or months: `table[3].prices.gram`.

    Iterating gives the rows; `amount` and `prices` are the first row's.
    """

    __slots__ = ("_rows",)

    def __init__(self, rows: List[PriceEntry]) -> None:
        self._rows: Tuple[PriceEntry, ...] = tuple(sorted(rows, key=lambda row: row.amount))

    @classmethod
    def from_wire(cls, value: Any) -> "PriceTable":
        """The API's `{"50": {"gram": …, "usdt": …}}`, a list of rows, or one row."""
        if isinstance(value, PriceTable):
            return value
        if isinstance(value, Mapping) and "prices" in value:
            return cls([PriceEntry.model_validate(value)])
        if isinstance(value, Mapping):
            return cls([PriceEntry(amount=int(amount), prices=PricePair.model_validate(pair)) for amount, pair in value.items()])
        if isinstance(value, (list, tuple)):
            return cls([PriceEntry.model_validate(row) for row in value])
        raise ValueError("a price table is an object keyed by amount, or a list of {amount, prices}")

    @property
    def amount(self) -> int:
        return self._rows[0].amount

    @property
    def prices(self) -> PricePair:
        return self._rows[0].prices

    def get(self, amount: int) -> Optional[PriceEntry]:
        return next((row for row in self._rows if row.amount == amount), None)

    def __getitem__(self, amount: int) -> PriceEntry:
        row = self.get(amount)
        if row is None:
            raise KeyError(amount)
        return row

    def __contains__(self, amount: object) -> bool:
        return any(row.amount == amount for row in self._rows)

    def __iter__(self) -> Iterator[PriceEntry]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PriceTable) and self._rows == other._rows

    def __hash__(self) -> int:
        return hash(self._rows)

    def __repr__(self) -> str:
        return f"PriceTable({list(self._rows)!r})"


class AvailabilityCheck(_Model):
    """A point-in-time answer, not a reservation."""

    available: bool
    code: str
    message: str
    action: Optional[str] = None
    product: Optional[ProductName] = None
    username: Optional[str] = None
    amount: Optional[int] = None
    quantities: Optional[Quantities] = None
    payment_method: Optional[PaymentMethod] = None
    checked_at: Optional[Timestamp] = None


class WalletBalances(_Model):
    gram: DecimalString
    usdt: DecimalString


class ResolvedWallet(_Model):
    """`WalletResolution` under the hosted SDK's name."""

    account_index: int
    wallet_version: str
    wallet_address: Optional[str] = None
    raw_address: Optional[str] = None
    seed_format: Optional[str] = None
    network: Optional[str] = None
    version_source: Optional[str] = None
    balances: Optional[WalletBalances] = None
    balances_error: Optional[str] = None


class TonProofPayload(_Model):
    payload: str = Field(description="What the wallet signs as TON Connect's ton_proof payload.")
    expires_at: str = Field(description="A proof made with it must arrive before this (ISO 8601).")


class CheckoutAccepted(_Model):
    checkout_id: str
    status: CheckoutStatus
    status_url: Optional[str] = None
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
    gram: Optional[DecimalString] = None
    usdt: Optional[DecimalString] = None


class Checkout(_OrderOutcome):
    checkout_id: str
    status: CheckoutStatus
    product: ProductName
    username: str
    amount: int
    quantities: Optional[Quantities] = None
    payment_method: PaymentMethod
    payer_address: str
    created_at: Timestamp
    updated_at: Timestamp
    valid_until: Optional[Timestamp] = None
    prices: Optional[CheckoutPrices] = None
    transaction: Optional[TonConnectTransaction] = None
    transaction_hash: Optional[str] = None

    @property
    def awaiting_signature(self) -> bool:
        return self.status is CheckoutStatus.AWAITING_SIGNATURE and self.transaction is not None


class ProductField(_Model):
    """One request field of a product: `name` is what the request sends, `quantity` what it sets."""

    name: str
    quantity: str
    type: str = "integer"
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    choices: Optional[List[int]] = None

    def accepts(self, value: int) -> bool:
        """The field's rule as the catalogue states it (the gateway still decides: INVALID_AMOUNT)."""
        if self.choices is not None and value not in self.choices:
            return False
        if self.minimum is not None and value < self.minimum:
            return False
        return self.maximum is None or value <= self.maximum


class ProductInfo(_Model):
    """The document's `Product` schema (the name is the enum's here): a product the gateway sells: who receives it (`user` or `channel`), how it is paid and its fields."""

    product: ProductName
    title: str
    recipient_kind: Literal["user", "channel"]
    payment_methods: List[str]
    pricing: str
    fields: List[ProductField]

    def request_fields(self, quantities: Mapping[str, int]) -> Dict[str, int]:
        """`{"winners": 10}` → `{"winners": 10}`: the request fields that carry these quantities. A name
        that is no quantity of this product is kept, for the gateway to name in its 400."""
        by_quantity = {field.quantity: field.name for field in self.fields}
        return {by_quantity.get(quantity, quantity): value for quantity, value in quantities.items()}


class ProductCatalog(_Model):
    """GET /api/v1/products: every product, and each product's reference price list (`prices[product]`)."""

    products: List[ProductInfo]
    # By product, then by quantity: `catalog.prices[product]["50"].gram`.
    prices: Dict[str, Dict[str, PricePair]] = Field(default_factory=dict)
    stale: bool = False
    updated_at: Optional[Timestamp] = None

    def get(self, product: Union[str, Enum]) -> Optional[ProductInfo]:
        name = _name(product)
        return next((entry for entry in self.products if _name(entry.product) == name), None)

    def request_fields(self, product: Union[str, Enum], quantities: Mapping[str, int]) -> Dict[str, int]:
        entry = self.get(product)
        return entry.request_fields(quantities) if entry is not None else dict(quantities)


def _name(product: Union[str, Enum]) -> str:
    return str(product.value) if isinstance(product, Enum) else product

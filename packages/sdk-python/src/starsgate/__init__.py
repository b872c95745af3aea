"""starsgate: the Python SDK of your own starsgate gateway (`client.products.list()` names what it sells).

A drop-in for `fragment_api` 1.3.0: `from starsgate import FragmentAPI` instead of
`from fragment_api import FragmentAPI`, and your gateway's `base_url`. The hosted SDK's names are
the same classes as ours (`FragmentAPI is Client`), not copies.
"""

from ._async_client import AsyncClient
from ._client import Client
from .products.price_list import PriceList
from ._exceptions import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    IdempotencyConflictError,
    InsecureTransportError,
    InvalidArgumentError,
    NotFoundError,
    OrderFailedError,
    RateLimitError,
    ServiceUnavailableError,
    Shortfall,
    StarsgateError,
    TopUpRequiredError,
    ValidationError,
    WaitTimeoutError,
    WalletSelectionRequiredError,
    WebhookVerificationError,
)
from ._models import (
    AvailabilityCheck,
    Checkout,
    CheckoutAccepted,
    TonProofPayload,
    CheckoutPrices,
    CheckoutStatus,
    DecimalString,
    ErrorInfo,
    PaymentMethod,
    PriceEntry,
    PricePair,
    PriceQuote,
    PriceTable,
    Product,
    ProductCatalog,
    ProductField,
    ProductInfo,
    ProductName,
    Purchase,
    PurchaseAccepted,
    PurchaseStatus,
    Quantities,
    ResolvedWallet,
    Timestamp,
    TonConnectMessage,
    TonConnectTransaction,
    WalletBalances,
    parse_timestamp,
    to_decimal,
)
from ._routes import ROUTES
from ._version import __version__
from ._webhooks import SIGNATURE_HEADER, WebhookEvent, verify_webhook

# The hosted SDK's (`fragment_api` 1.3.0) names for the same classes.
FragmentAPI = Client
AsyncFragmentAPI = AsyncClient
FragmentAPIError = StarsgateError
ConflictError = IdempotencyConflictError
Prices = PricePair
WalletResolution = ResolvedWallet

__all__ = [
    "__version__",
    "Client",
    "AsyncClient",
    "ROUTES",
    "verify_webhook",
    "WebhookEvent",
    "SIGNATURE_HEADER",
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "IdempotencyConflictError",
    "InsecureTransportError",
    "InvalidArgumentError",
    "NotFoundError",
    "OrderFailedError",
    "RateLimitError",
    "ServiceUnavailableError",
    "Shortfall",
    "StarsgateError",
    "TopUpRequiredError",
    "ValidationError",
    "WaitTimeoutError",
    "WalletSelectionRequiredError",
    "WebhookVerificationError",
    "AvailabilityCheck",
    "Checkout",
    "CheckoutAccepted",
    "TonProofPayload",
    "CheckoutPrices",
    "CheckoutStatus",
    "DecimalString",
    "ErrorInfo",
    "PaymentMethod",
    "PriceEntry",
    "PriceList",
    "PricePair",
    "PriceQuote",
    "PriceTable",
    "Product",
    "ProductCatalog",
    "ProductField",
    "ProductInfo",
    "ProductName",
    "Quantities",
    "Purchase",
    "PurchaseAccepted",
    "PurchaseStatus",
    "ResolvedWallet",
    "Timestamp",
    "TonConnectMessage",
    "TonConnectTransaction",
    "WalletBalances",
    "parse_timestamp",
    "to_decimal",
    "FragmentAPI",
    "AsyncFragmentAPI",
    "FragmentAPIError",
    "ConflictError",
    "Prices",
    "WalletResolution",
]

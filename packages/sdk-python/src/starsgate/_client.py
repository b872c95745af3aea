"""The synchronous client, and the source of `_async_client.py` (scripts/make_async_client.py writes it)."""

import time
from types import TracebackType
from typing import Any, Callable, Dict, Mapping, Optional, Type, TypeVar

import httpx
from pydantic import BaseModel

from . import _operations as ops
from ._constants import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_POLL_INTERVAL,
    DEFAULT_TIMEOUT,
    DEFAULT_TRANSACTION_POLL_INTERVAL,
    DEFAULT_TRANSACTION_WAIT_TIMEOUT,
    DEFAULT_WAIT_TIMEOUT,
)
from ._core import ClientCore, Operation
from ._exceptions import InvalidArgumentError, StarsgateError
from ._models import (
    AvailabilityCheck,
    Checkout,
    CheckoutAccepted,
    PriceQuote,
    ProductCatalog,
    Purchase,
    PurchaseAccepted,
    ResolvedWallet,
    TonProofPayload,
)
from ._operations import StrOrEnum
from ._polling import Poller, transaction_ready
from .products.methods import ProductMethods
from .products.price_list import PriceList

M = TypeVar("M", bound=BaseModel)


class Client(ProductMethods):
    """Talks to a starsgate gateway. Use as a context manager, or call `close()`.

    Calls that carry a seed (`resolve_wallet`, `create_purchase`, `buy_*`) use plain `http://` only to
    this machine unless `allow_insecure_http=True` (or STARSGATE_ALLOW_INSECURE_HTTP=1); calls without a
    secret (prices, availability, status) may use `http://` inside a private network.
    """

    # Tests replace it to observe backoff without waiting.
    _sleep = staticmethod(time.sleep)

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Optional[Mapping[str, str]] = None,
        *,
        allow_insecure_http: bool = False,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        self._core = ClientCore(base_url, timeout, max_retries, headers, allow_insecure_http)
        self._http = http_client or httpx.Client(timeout=timeout, follow_redirects=False)
        self._owns_http = http_client is None
        # Read once, for turning `quantities` into request fields (a failed read is not kept).
        self._catalog: Optional[ProductCatalog] = None

    @property
    def products(self) -> "ProductsResource":
        """`client.products.list()`: what the gateway sells (`list_products`)."""
        return ProductsResource(self)

    @property
    def base_url(self) -> str:
        return self._core.base_url

    def __repr__(self) -> str:
        return f"Client(base_url={self._core.base_url!r})"

    def __enter__(self) -> "Client":
        return self

    def __exit__(
        self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def _call(self, op: Operation, model: Type[M]) -> M:
        attempt = 0
        while True:
            error: Optional[StarsgateError] = None
            response: Optional[httpx.Response] = None
            try:
                response = self._http.send(self._core.build_request(self._http, op, attempt))
            except httpx.TransportError as exc:
                # Raised below, outside this block, so the httpx error (which holds the request body) is not chained.
                error = self._core.transport_error(op, exc)
            if response is not None and response.is_success:
                self._core.log_attempt(op, attempt, str(response.status_code), None)
                return self._core.parse(op, response, model)
            if response is not None:
                error = self._core.status_error(op, response)
            assert error is not None
            delay = self._core.retry_delay(op, attempt, response)
            self._core.log_attempt(op, attempt, error.code or type(error).__name__, delay)
            if delay is None:
                raise error
            self._sleep(delay)
            attempt += 1

    def _quantity_fields(
        self,
        product: StrOrEnum,
        amount: Optional[int],
        winners: Optional[int],
        months: Optional[int],
        quantities: Optional[Mapping[str, int]],
    ) -> Dict[str, Optional[int]]:
        """The order's quantities as the request sends them: `amount`, `winners`, `months` as given, or
        `quantities` by the catalogue's names (`{"winners": 10}` → `winners`), for any product."""
        fields: Dict[str, Optional[int]] = {"amount": amount, "winners": winners, "months": months}
        if quantities is None:
            return fields
        if any(value is not None for value in fields.values()):
            raise InvalidArgumentError("pass quantities, or amount/winners/months, not both")
        if self._catalog is None:
            self._catalog = self.list_products()
        return dict(self._catalog.request_fields(product, quantities))

    def _poll(self, fetch: Callable[[], M], poller: Poller) -> M:
        while True:
            current = fetch()
            delay = poller.step(current)
            if delay is None:
                return current
            self._sleep(delay)

    # -- availability and prices ----------------------------------------------------------------

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
    ) -> AvailabilityCheck:
        """Can this recipient receive this product, paid this way? A point-in-time answer, not a reservation.

        Any product: `amount`, or a product's own fields (a giveaway's `winners` and `months`), or
        `quantities` by the catalogue's names (`{"winners": 10, "months": 3}`)."""
        fields = self._quantity_fields(product, amount, winners, months, quantities)
        method: StrOrEnum = _required("payment_method", payment_method)
        op = ops.check_availability(product, username, method, fields)
        return self._call(op, AvailabilityCheck)

    def get_prices(self) -> PriceList:
        return self._call(ops.get_prices(), PriceList)

    def list_products(self) -> ProductCatalog:
        """Every product the gateway sells: fields and limits, payment methods, recipient kind, and prices."""
        return self._call(ops.list_products(), ProductCatalog)

    def get_quote(
        self,
        product: StrOrEnum,
        amount: Optional[int] = None,
        *,
        winners: Optional[int] = None,
        months: Optional[int] = None,
        quantities: Optional[Mapping[str, int]] = None,
    ) -> PriceQuote:
        """`get_quote(product, amount)`, a product's own fields (`winners=10, months=3`), or its `quantities` by name."""
        fields = self._quantity_fields(product, amount, winners, months, quantities)
        return self._call(ops.get_quote(product, fields), PriceQuote)

    def get_price(self, product: StrOrEnum, amount: int) -> PriceQuote:
        """`get_quote` under the hosted SDK's name."""
        return self.get_quote(product, amount)

    # -- wallets and purchases ------------------------------------------------------------------

    def resolve_wallet(
        self, seed: str, wallet_address: Optional[str] = None, account_index: Optional[int] = None
    ) -> ResolvedWallet:
        return self._call(ops.resolve_wallet(seed, wallet_address, account_index), ResolvedWallet)

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
    ) -> PurchaseAccepted:
        """Any product: `amount`, or a product's own fields (a giveaway's `winners=10, months=3`), or
        `quantities` by the catalogue's names (GET /api/v1/products).

        202 means accepted, not delivered: follow it with `wait`. Retries reuse `idempotency_key`."""
        key = _required("idempotency_key", idempotency_key)
        method: StrOrEnum = _required("payment_method", payment_method)
        secret: str = _required("seed", seed)
        fields = self._quantity_fields(product, amount, winners, months, quantities)
        amount = fields.pop("amount", None)
        op = ops.create_purchase(product, username, amount, method, secret, key, wallet_address, account_index, **fields)
        return self._call(op, PurchaseAccepted)

    def get_purchase(self, purchase_id: str) -> Purchase:
        return self._call(ops.get_purchase(purchase_id), Purchase)

    def wait(
        self,
        purchase_id: str,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        on_update: Optional[Callable[[Purchase], object]] = None,
    ) -> Purchase:
        """Polls until a terminal status and returns the purchase, also for `failed` and
        `reconciliation_required` (see `purchase.advice`: never create a replacement for the latter).
        Raises WaitTimeoutError when `timeout` passes first."""
        poller = Poller(f"purchase {purchase_id}", timeout, poll_interval, on_update)
        return self._poll(lambda: self.get_purchase(purchase_id), poller)

    # -- client-signed checkouts ----------------------------------------------------------------

    def create_checkout(
        self,
        product: StrOrEnum,
        username: str,
        amount: Optional[int] = None,
        payment_method: Optional[StrOrEnum] = None,
        payer_address: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        payer_public_key: Optional[str] = None,
        payer_state_init: Optional[str] = None,
        ton_proof: Optional[Mapping[str, object]] = None,
        *,
        winners: Optional[int] = None,
        months: Optional[int] = None,
        quantities: Optional[Mapping[str, int]] = None,
    ) -> CheckoutAccepted:
        """The buyer's wallet will sign: no seed. `payer_public_key`/`payer_state_init` come from TON Connect's account.

        `ton_proof`: the wallet's TON Connect proof (`{timestamp, domain, payload, signature}`) over a
        payload from `create_ton_proof_payload`; required where the gateway sets TON_PROOF_REQUIRED.
        Like a purchase, one `idempotency_key` per logical order, reused on every retry; any product,
        its quantities given as to `create_purchase`."""
        key = _required("idempotency_key", idempotency_key)
        method: StrOrEnum = _required("payment_method", payment_method)
        payer: str = _required("payer_address", payer_address)
        fields = self._quantity_fields(product, amount, winners, months, quantities)
        op = ops.create_checkout(
            product,
            username,
            fields.pop("amount", None),
            method,
            payer,
            key,
            payer_public_key,
            payer_state_init,
            dict(ton_proof) if ton_proof is not None else None,
            **fields,
        )
        return self._call(op, CheckoutAccepted)

    def create_ton_proof_payload(self) -> TonProofPayload:
        """A payload to ask the buyer's wallet for TON Connect's ton_proof with, before create_checkout."""
        return self._call(ops.create_ton_proof_payload(), TonProofPayload)

    def get_checkout(self, checkout_id: str) -> Checkout:
        return self._call(ops.get_checkout(checkout_id), Checkout)

    def wait_for_checkout_transaction(
        self,
        checkout_id: str,
        timeout: float = DEFAULT_TRANSACTION_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_TRANSACTION_POLL_INTERVAL,
    ) -> Checkout:
        """Polls until the TON Connect `transaction` is ready to sign (or the checkout ended, e.g. TOP_UP_REQUIRED)."""
        poller = Poller(f"checkout {checkout_id}", timeout, poll_interval, done=transaction_ready)
        return self._poll(lambda: self.get_checkout(checkout_id), poller)

    def submit_checkout(self, checkout_id: str, boc: str) -> Checkout:
        """Hands the wallet's signed BOC to the service. Sending the same BOC again is harmless."""
        return self._call(ops.submit_checkout(checkout_id, boc), Checkout)

    def wait_for_checkout(
        self,
        checkout_id: str,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        on_update: Optional[Callable[[Checkout], object]] = None,
    ) -> Checkout:
        """Polls until completed, failed, expired or reconciliation_required."""
        poller = Poller(f"checkout {checkout_id}", timeout, poll_interval, on_update)
        return self._poll(lambda: self.get_checkout(checkout_id), poller)


class ProductsResource:
    """`client.products`: the catalogue of what the gateway sells."""

    def __init__(self, client: "Client") -> None:
        self._client = client

    def list(self) -> ProductCatalog:
        return self._client.list_products()


def _required(name: str, value: Any) -> Any:
    """An order field that has no default only because the quantity fields before it became optional."""
    if value is None or value == "":
        raise InvalidArgumentError(f"{name} is required")
    return value

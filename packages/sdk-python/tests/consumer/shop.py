"""A Telegram shop's purchase adapter, written the way shops built on `fragment_api` 1.3.0 write it.

Switching to starsgate changed one line, the import below (it was `from fragment_api import …`), and the
base URL the shop passes in. Nothing else here knows about starsgate: this file is the proof that the
hosted SDK's names, values and errors are ours.
"""

import time
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Awaitable, Callable, Optional, TypeVar

from starsgate import (
    AvailabilityCheck,
    ConflictError,
    FragmentAPI,
    FragmentAPIError,
    Prices,
    PriceQuote,
    Purchase,
    RateLimitError,
    ServiceUnavailableError,
)

T = TypeVar("T")

# Codes the shop hands to a person (`/retry <id>` after a top-up or a look at the case) instead of refunding.
MANUAL_REVIEW_CODES = {"TOP_UP_REQUIRED", "PRICE_INCREASE", "RECIPIENT_UNAVAILABLE"}
MARKUP = Decimal("1.10")


@dataclass
class Offer:
    username: str
    stars: int
    available: bool
    reason: Optional[str] = None
    upstream_price: Optional[str] = None  # shown as the SDK gave it: "1.25 GRAM"
    customer_price: Optional[str] = None
    checked_at: Optional[str] = None


@dataclass
class OrderResult:
    order_id: str
    outcome: str  # delivered | manual_review | stopped | failed
    purchase_id: Optional[str] = None
    code: Optional[str] = None
    message: Optional[str] = None


def price_text(prices: Prices, payment_method: str) -> str:
    return f"{getattr(prices, payment_method)} {payment_method.upper()}"


def customer_price(quote: PriceQuote, payment_method: str) -> str:
    # The payment layer converts the string once, with Decimal; nothing in between touches it.
    upstream = Decimal(getattr(quote.prices, payment_method))
    return f"{(upstream * MARKUP).quantize(Decimal('0.0001'))} {payment_method.upper()}"


def offer_from(check: AvailabilityCheck, quote: Optional[PriceQuote], username: str, stars: int, method: str) -> Offer:
    if not check.available or quote is None:
        return Offer(username, stars, False, reason=f"{check.code}: {check.message}", checked_at=check.checked_at)
    return Offer(
        username,
        stars,
        True,
        upstream_price=price_text(quote.prices, method),
        customer_price=customer_price(quote, method),
        checked_at=check.checked_at,
    )


def result_of(order_id: str, purchase: Purchase) -> OrderResult:
    if purchase.completed:
        return OrderResult(order_id, "delivered", purchase.purchase_id)
    if purchase.status == "reconciliation_required":
        # Never replaced automatically: a person settles it.
        return OrderResult(order_id, "manual_review", purchase.purchase_id, "RECONCILIATION_REQUIRED")
    error = purchase.error or {}
    code = error.get("code")
    outcome = "manual_review" if code in MANUAL_REVIEW_CODES else "failed"
    return OrderResult(order_id, outcome, purchase.purchase_id, code, error.get("message"))


def idempotency_key(order_id: str) -> str:
    # The shop's own key: the same order id always maps to the same purchase, also after a crash.
    return f"shop-order-{order_id}"


class StarsShop:
    def __init__(
        self,
        api: FragmentAPI,
        seed: str,
        account_index: Optional[int] = None,
        attempts: int = 4,
        sleep: Callable[[float], Any] = time.sleep,
        poll_timeout: float = 150,
        poll_interval: float = 0.25,
    ) -> None:
        self.api = api
        self.seed = seed
        self.account_index = account_index
        self.attempts = attempts
        self.sleep = sleep
        self.poll_timeout = poll_timeout
        self.poll_interval = poll_interval
        self.waited: list = []

    def _retrying(self, call: Callable[[], T]) -> T:
        for attempt in range(self.attempts):
            try:
                return call()
            except (RateLimitError, ServiceUnavailableError) as error:
                if attempt == self.attempts - 1:
                    raise
                delay = error.retry_after or 1
                self.waited.append(delay)
                self.sleep(delay)
        raise AssertionError("unreachable")

    def offer(self, username: str, stars: int, payment_method: str = "gram") -> Offer:
        check = self._retrying(lambda: self.api.check_stars_availability(username, stars, payment_method))
        quote = self._retrying(lambda: self.api.get_stars_price(stars)) if check.available else None
        return offer_from(check, quote, username, stars, payment_method)

    def fulfil(self, order_id: str, username: str, stars: int, payment_method: str = "gram") -> OrderResult:
        try:
            created = self._retrying(
                lambda: self.api.buy_stars(
                    username,
                    stars,
                    payment_method,
                    self.seed,
                    account_index=self.account_index,
                    idempotency_key=idempotency_key(order_id),
                )
            )
            purchase = self._retrying(
                lambda: self.api.wait(created.purchase_id, timeout=self.poll_timeout, poll_interval=self.poll_interval)
            )
        except ConflictError as error:
            # 409: this order id was used for a different order, or is still being created: stop, never re-buy.
            return OrderResult(order_id, "stopped", code=error.code, message=error.message)
        except FragmentAPIError as error:
            return OrderResult(order_id, "failed", code=error.code, message=str(error))
        return result_of(order_id, purchase)


class AsyncStarsShop:
    """The same adapter on an async client (`AsyncFragmentAPI`), for shops that moved off threads."""

    def __init__(
        self,
        api: Any,
        seed: str,
        account_index: Optional[int] = None,
        attempts: int = 4,
        sleep: Optional[Callable[[float], Awaitable[Any]]] = None,
        poll_interval: float = 0.25,
    ) -> None:
        import asyncio

        self.api = api
        self.seed = seed
        self.account_index = account_index
        self.attempts = attempts
        self.sleep = sleep or asyncio.sleep
        self.poll_interval = poll_interval
        self.waited: list = []

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        for attempt in range(self.attempts):
            try:
                return await call()
            except (RateLimitError, ServiceUnavailableError) as error:
                if attempt == self.attempts - 1:
                    raise
                delay = error.retry_after or 1
                self.waited.append(delay)
                await self.sleep(delay)
        raise AssertionError("unreachable")

    async def offer(self, username: str, stars: int, payment_method: str = "gram") -> Offer:
        check = await self._retrying(lambda: self.api.check_stars_availability(username, stars, payment_method))
        quote = await self._retrying(lambda: self.api.get_stars_price(stars)) if check.available else None
        return offer_from(check, quote, username, stars, payment_method)

    async def fulfil(self, order_id: str, username: str, stars: int, payment_method: str = "gram") -> OrderResult:
        try:
            created = await self._retrying(
                lambda: self.api.buy_stars(
                    username,
                    stars,
                    payment_method,
                    self.seed,
                    account_index=self.account_index,
                    idempotency_key=idempotency_key(order_id),
                )
            )
            purchase = await self._retrying(
                lambda: self.api.wait(created.purchase_id, timeout=150, poll_interval=self.poll_interval)
            )
        except ConflictError as error:
            return OrderResult(order_id, "stopped", code=error.code, message=error.message)
        except FragmentAPIError as error:
            return OrderResult(order_id, "failed", code=error.code, message=str(error))
        return result_of(order_id, purchase)

"""Typed errors. None of them holds a request body, so a seed can never travel inside one."""

import math
from decimal import Decimal
from typing import Any, Dict, List, Mapping, Optional, Sequence, Type

__all__ = [
    "StarsgateError",
    "InvalidArgumentError",
    "InsecureTransportError",
    "APIConnectionError",
    "APITimeoutError",
    "APIStatusError",
    "APIResponseValidationError",
    "ValidationError",
    "NotFoundError",
    "IdempotencyConflictError",
    "RateLimitError",
    "ServiceUnavailableError",
    "WalletSelectionRequiredError",
    "TopUpRequiredError",
    "Shortfall",
    "WaitTimeoutError",
    "OrderFailedError",
    "WebhookVerificationError",
]


class Shortfall:
    """One currency a payer wallet is short of (TOP_UP_REQUIRED details), exact Decimals."""

    __slots__ = ("currency", "required", "available", "shortfall")

    def __init__(self, currency: str, required: Decimal, available: Decimal, shortfall: Decimal) -> None:
        self.currency = currency
        self.required = required
        self.available = available
        self.shortfall = shortfall

    @classmethod
    def from_details(cls, details: Sequence[Mapping[str, Any]]) -> List["Shortfall"]:
        lines = []
        for entry in details:
            if "currency" in entry and "shortfall" in entry:
                lines.append(
                    cls(
                        str(entry["currency"]),
                        Decimal(str(entry.get("required", "0"))),
                        Decimal(str(entry.get("available", "0"))),
                        Decimal(str(entry["shortfall"])),
                    )
                )
        return lines

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shortfall) and all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __repr__(self) -> str:
        return (
            f"Shortfall(currency={self.currency!r}, required={self.required}, "
            f"available={self.available}, shortfall={self.shortfall})"
        )


def _text(body: Mapping[str, Any], name: str) -> Optional[str]:
    value = body.get(name)
    return value if isinstance(value, str) else None


def _seconds(value: Any) -> Optional[int]:
    """`retry_after` is whole seconds (rounded up, so waiting it is always enough)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        return None
    return int(math.ceil(value))


class StarsgateError(Exception):
    """Base of every error the SDK raises (`FragmentAPIError` is this class under the hosted SDK's name).

    Built like the hosted SDK's errors, `FragmentAPIError(message, status_code=409, response=body)`:
    `code`, `action`, `retry_after` and `details` are read from the parsed error body unless given.
    `request` is only ``"METHOD URL"``: never headers or a body.
    """

    def __init__(
        self,
        message: Optional[str] = None,
        *,
        status_code: Optional[int] = None,
        response: Optional[Mapping[str, Any]] = None,
        code: Optional[str] = None,
        details: Optional[List[Dict[str, Any]]] = None,
        action: Optional[str] = None,
        retry_after: Optional[float] = None,
        request_id: Optional[str] = None,
        request: Optional[str] = None,
    ) -> None:
        body: Dict[str, Any] = dict(response) if isinstance(response, Mapping) else {}
        text = message or _text(body, "message") or (f"HTTP {status_code}" if status_code else type(self).__name__)
        super().__init__(text)
        body_details = body.get("details")
        self.message = text
        self.status_code = status_code
        self.response: Dict[str, Any] = body
        self.code = code or _text(body, "code")
        self.details: List[Dict[str, Any]] = list(
            details if details is not None else body_details if isinstance(body_details, list) else []
        )
        self.action = action or _text(body, "action")
        self.retry_after: Optional[int] = _seconds(retry_after if retry_after is not None else body.get("retry_after"))
        self.request_id = request_id or _text(body, "request_id")
        self.request = request

    def __str__(self) -> str:
        parts = [f"{self.code}: {self.message}" if self.code else self.message]
        if self.action:
            parts.append(f"Action: {self.action}")
        if self.request_id:
            parts.append(f"(request_id {self.request_id})")
        return " ".join(parts)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status_code={self.status_code!r}, code={self.code!r}, "
            f"message={self.message!r}, request_id={self.request_id!r})"
        )


class InvalidArgumentError(StarsgateError, ValueError):
    """A call the SDK refused before sending anything (an empty id, a bad base_url, ...). Also a `ValueError`."""

    def __init__(self, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("code", "INVALID_ARGUMENT")
        super().__init__(message, **kwargs)


class InsecureTransportError(InvalidArgumentError):
    """A call that carries a seed was about to travel over plain http:// beyond this machine. Nothing was sent."""


class APIConnectionError(StarsgateError, ConnectionError):
    """The gateway could not be reached, or the connection broke before an answer (also an `OSError`)."""


class APITimeoutError(APIConnectionError, TimeoutError):
    """No answer within the timeout. For a purchase, the same idempotency key is safe to retry."""


class APIStatusError(StarsgateError):
    """The gateway answered with a non-2xx status and the standard error body."""


class APIResponseValidationError(StarsgateError):
    """A 2xx answer that is not the documented shape (a proxy's page, or a gateway newer than this SDK)."""


class ValidationError(APIStatusError):
    """400/413/415/422: fix the fields named in `details`."""


class NotFoundError(APIStatusError):
    """404: unknown purchase or checkout id (or the wrong environment)."""


class IdempotencyConflictError(APIStatusError):
    """409: the idempotency key was used for a different order, or is still in progress."""


class RateLimitError(APIStatusError):
    """429: wait `retry_after` seconds (an int)."""


class ServiceUnavailableError(APIStatusError):
    """503: nothing was stored; retry after `retry_after` seconds with the same idempotency key."""


class WalletSelectionRequiredError(ValidationError):
    """A 12-word seed needs `account_index`, `wallet_address`, or both."""


class TopUpRequiredError(StarsgateError):
    """The payer wallet is short of funds; `shortfall` lists each currency with exact amounts."""

    def __init__(self, message: Optional[str] = None, *, shortfall: Optional[List[Shortfall]] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.shortfall: List[Shortfall] = list(shortfall or Shortfall.from_details(self.details))


class OrderFailedError(StarsgateError):
    """A purchase or checkout ended `failed` (or `expired`): nothing was paid, a new order with a new key is safe."""


class WaitTimeoutError(StarsgateError):
    """`wait` gave up before a terminal status. The order goes on: keep polling it, never replace it."""

    def __init__(self, message: Optional[str] = None, *, last: Any = None) -> None:
        super().__init__(message, code="WAIT_TIMEOUT")
        self.last = last


class WebhookVerificationError(StarsgateError):
    """A webhook delivery whose signature is missing, malformed, outside the tolerance, or wrong."""


_BY_CODE: Dict[str, Type[StarsgateError]] = {
    "WALLET_SELECTION_REQUIRED": WalletSelectionRequiredError,
    "TOP_UP_REQUIRED": TopUpRequiredError,
    "IDEMPOTENCY_KEY_REUSED": IdempotencyConflictError,
    "IDEMPOTENCY_REQUEST_IN_PROGRESS": IdempotencyConflictError,
    "RATE_LIMITED": RateLimitError,
    "AVAILABILITY_RATE_LIMITED": RateLimitError,
}

_BY_STATUS: Dict[int, Type[StarsgateError]] = {
    400: ValidationError,
    404: NotFoundError,
    409: IdempotencyConflictError,
    413: ValidationError,
    415: ValidationError,
    422: ValidationError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_class_for(status_code: Optional[int], code: Optional[str]) -> Type[StarsgateError]:
    """One code map, then one status map: the class a caller catches."""
    if code and code in _BY_CODE:
        return _BY_CODE[code]
    if status_code is not None and status_code in _BY_STATUS:
        return _BY_STATUS[status_code]
    return APIStatusError

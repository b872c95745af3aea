"""The one core both clients share: building requests, deciding retries, turning answers into results or errors.

The sync and async clients only do the I/O (send, sleep); every decision is made here.
"""

import ipaddress
import json
import logging
import os
import random
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Mapping, Optional, Type, TypeVar, Union
from urllib.parse import quote, urlsplit

import httpx
from pydantic import BaseModel
from pydantic import ValidationError as ModelValidationError

from ._constants import (
    INITIAL_RETRY_DELAY,
    MAX_RETRY_AFTER,
    MAX_RETRY_DELAY,
    RETRY_JITTER,
    RETRYABLE_STATUSES,
)
from ._exceptions import (
    APIConnectionError,
    APIResponseValidationError,
    APITimeoutError,
    InsecureTransportError,
    InvalidArgumentError,
    StarsgateError,
    TopUpRequiredError,
    error_class_for,
)
from ._version import __version__

log = logging.getLogger("starsgate")

M = TypeVar("M", bound=BaseModel)

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}


@dataclass(frozen=True)
class Operation:
    """One API call, described once for both clients. `body` may hold a seed: it is never in repr or logs."""

    method: str
    path: str
    body: Optional[Dict[str, Any]] = field(default=None, repr=False)
    params: Optional[Dict[str, Any]] = None
    # Safe to send twice: a GET, a POST carrying its idempotency key, or a POST that stores nothing.
    # A POST without one of these is never retried (a retry could create a second order).
    replay_safe: bool = False
    # Sets `replayed` on the result from the Idempotent-Replayed header.
    reports_replay: bool = False
    # The body holds a seed: never sent over plain http:// beyond this machine unless the caller allows it.
    carries_secret: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"


def path_segment(value: str) -> str:
    """An id as one path segment: a caller's string can never reach another route."""
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError("an id must be a non-empty string")
    return quote(value, safe="")


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# The setting's two spellings, named in the refusal: the keyword, and the environment variable that
# lets a deployment allow it without a code change (a shop that only swapped its import and base URL).
INSECURE_HTTP_SETTING = "allow_insecure_http=True"
INSECURE_HTTP_ENV = "STARSGATE_ALLOW_INSECURE_HTTP"


def insecure_http_allowed_by_env() -> bool:
    return os.environ.get(INSECURE_HTTP_ENV, "").strip().lower() in ("1", "true", "yes")


def check_base_url(base_url: str) -> str:
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidArgumentError(f"base_url must be an http(s) URL, got {base_url!r}")
    return base_url.rstrip("/")


def seed_travels_in_clear(base_url: str) -> bool:
    """Plain http to another machine: anyone on the path could read a seed. Loopback never leaves the host."""
    parts = urlsplit(base_url)
    return parts.scheme == "http" and not is_loopback_host(parts.hostname or "")


class ClientCore:
    def __init__(
        self,
        base_url: str,
        timeout: float,
        max_retries: int,
        headers: Optional[Mapping[str, str]],
        allow_insecure_http: bool,
        random_fraction: Callable[[], float] = random.random,
    ) -> None:
        if max_retries < 0:
            raise InvalidArgumentError("max_retries must be >= 0")
        self.base_url = check_base_url(base_url)
        self.timeout = timeout
        self.max_retries = max_retries
        self.allow_insecure_http = allow_insecure_http or insecure_http_allowed_by_env()
        self.headers: Dict[str, str] = {
            "Accept": "application/json",
            "User-Agent": f"starsgate-python/{__version__}",
            **dict(headers or {}),
        }
        self._random_fraction = random_fraction

    def __repr__(self) -> str:
        return f"ClientCore(base_url={self.base_url!r}, timeout={self.timeout!r}, max_retries={self.max_retries!r})"

    # -- requests -------------------------------------------------------------------------------

    def check_transport(self, op: Operation) -> None:
        """Calls without a secret (prices, availability, status) may use http:// inside a private network;
        a seed may not, unless the caller allowed it. Raised before anything is sent."""
        if op.carries_secret and not self.allow_insecure_http and seed_travels_in_clear(self.base_url):
            raise InsecureTransportError(
                f"Refusing to send a seed over plain http:// to {urlsplit(self.base_url).hostname} ({op.label}): "
                "it would travel unencrypted.",
                code="INSECURE_TRANSPORT",
                request=op.label,
                action=f"Use https://, or, if the network path is private and trusted, pass {INSECURE_HTTP_SETTING} "
                f"to the client or set {INSECURE_HTTP_ENV}=1.",
            )

    def build_request(self, http: Union[httpx.Client, httpx.AsyncClient], op: Operation, attempt: int) -> httpx.Request:
        self.check_transport(op)
        headers = dict(self.headers)
        if attempt > 0:
            headers["X-Starsgate-Retry-Count"] = str(attempt)
        return http.build_request(
            op.method,
            self.base_url + op.path,
            params=op.params,
            json=op.body,
            headers=headers,
        )

    # -- retries --------------------------------------------------------------------------------

    def retry_delay(self, op: Operation, attempt: int, response: Optional[httpx.Response]) -> Optional[float]:
        """Seconds to wait before the next attempt, or None when this outcome is final."""
        if attempt >= self.max_retries or not op.replay_safe:
            return None
        if response is not None:
            should_retry = response.headers.get("x-should-retry")
            if should_retry == "false":
                return None
            if should_retry != "true" and response.status_code not in RETRYABLE_STATUSES:
                return None
            retry_after = parse_retry_after(response.headers)
            if retry_after is not None:
                # Longer than a call should block: the caller gets the error and its retry_after.
                return retry_after if retry_after <= MAX_RETRY_AFTER else None
        backoff = min(INITIAL_RETRY_DELAY * (2.0**attempt), MAX_RETRY_DELAY)
        return backoff * (1 - RETRY_JITTER * self._random_fraction())

    # -- answers --------------------------------------------------------------------------------

    def parse(self, op: Operation, response: httpx.Response, model: Type[M]) -> M:
        try:
            data = response.json()
            if op.reports_replay and isinstance(data, dict):
                data = {**data, "replayed": response.headers.get("idempotent-replayed") == "true"}
            return model.model_validate(data)
        except (ValueError, ModelValidationError) as error:
            # Field locations only: pydantic's own message quotes the values it was given.
            where = (
                ", ".join(".".join(str(part) for part in e["loc"]) or "body" for e in error.errors())
                if isinstance(error, ModelValidationError)
                else "body is not JSON"
            )
            problem = APIResponseValidationError(
                f"{op.label} answered {response.status_code} with an unexpected {model.__name__} ({where}).",
                status_code=response.status_code,
                code="UNEXPECTED_RESPONSE",
                request_id=response.headers.get("request-id"),
                request=op.label,
            )
        raise problem

    def status_error(self, op: Operation, response: httpx.Response) -> StarsgateError:
        try:
            body = response.json()
        except (json.JSONDecodeError, ValueError):
            body = None
        if not isinstance(body, dict):
            body = {}
        code = body.get("code") if isinstance(body.get("code"), str) else None
        retry_after = parse_retry_after(response.headers)
        cls = error_class_for(response.status_code, code)
        kwargs: Dict[str, Any] = dict(
            status_code=response.status_code,
            response=body,
            retry_after=retry_after,
            request_id=response.headers.get("request-id"),
            request=op.label,
        )
        text = body.get("message") if isinstance(body.get("message"), str) else None
        return cls(text or f"HTTP {response.status_code} from {op.label}", **kwargs)

    def transport_error(self, op: Operation, error: Exception) -> StarsgateError:
        """Only the error's class and the route: httpx's own error text and request are left behind."""
        if isinstance(error, httpx.TimeoutException):
            return APITimeoutError(
                f"No answer from {op.label} within {self.timeout} s ({type(error).__name__}).",
                request=op.label,
                action="Retry; a purchase or checkout retried with the same idempotency_key is never duplicated.",
            )
        return APIConnectionError(
            f"Could not reach the gateway for {op.label} ({type(error).__name__}).",
            request=op.label,
            action="Check base_url and that the gateway is running.",
        )

    def log_attempt(self, op: Operation, attempt: int, outcome: str, delay: Optional[float]) -> None:
        if delay is None:
            log.debug("%s -> %s (attempt %d)", op.label, outcome, attempt + 1)
        else:
            log.info("%s -> %s; retrying in %.2f s (attempt %d)", op.label, outcome, delay, attempt + 1)


def parse_retry_after(headers: Mapping[str, str]) -> Optional[float]:
    """`retry-after-ms`, then `Retry-After` in seconds or as an HTTP date."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())

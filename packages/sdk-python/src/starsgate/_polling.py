"""The polling rules `wait` and the checkout waits share; the clients only sleep."""

import time
from typing import Any, Callable, Optional

from ._exceptions import InvalidArgumentError, WaitTimeoutError


class Poller:
    def __init__(
        self,
        what: str,
        timeout: float,
        poll_interval: float,
        on_update: Optional[Callable[[Any], Any]] = None,
        done: Callable[[Any], bool] = lambda current: bool(current.is_terminal),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if timeout < 0 or poll_interval <= 0:
            raise InvalidArgumentError("timeout must be >= 0 and poll_interval > 0")
        self._what = what
        self._poll_interval = poll_interval
        self._on_update = on_update
        self._done = done
        self._clock = clock
        self._deadline = clock() + timeout
        self._timeout = timeout
        self._last_status: Optional[str] = None

    def step(self, current: Any) -> Optional[float]:
        """None when `current` is what we wait for; else seconds to sleep. Raises WaitTimeoutError at the deadline."""
        status = str(current.status)
        if self._on_update is not None and status != self._last_status:
            self._on_update(current)
        self._last_status = status
        if self._done(current):
            return None
        remaining = self._deadline - self._clock()
        if remaining <= 0:
            raise WaitTimeoutError(
                f"{self._what} still {status} after {self._timeout:g} s; it goes on by itself: "
                "keep polling the same id, never create a replacement.",
                last=current,
            )
        return min(self._poll_interval, remaining)


def transaction_ready(checkout: Any) -> bool:
    """A checkout is ready to sign once its TON Connect transaction is there (or it already ended)."""
    return checkout.transaction is not None or bool(checkout.is_terminal)

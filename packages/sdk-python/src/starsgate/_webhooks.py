"""Verifying `Starsgate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=…]`."""

import hashlib
import hmac
import json
import re
import time
from datetime import datetime
from typing import Any, Dict, List, Optional, Sequence, Union

from pydantic import BaseModel, ConfigDict

from ._constants import DEFAULT_WEBHOOK_TOLERANCE
from ._exceptions import InvalidArgumentError, WebhookVerificationError

SIGNATURE_HEADER = "Starsgate-Signature"
_HEX_DIGEST = re.compile(r"^[0-9a-f]{64}$")


class WebhookEvent(BaseModel):
    """`data` is the public GET body of the purchase (or checkout) at that status."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    type: str
    created_at: datetime
    sequence: int
    data: Dict[str, Any]


def _parse_header(header: str) -> "tuple[int, List[str]]":
    timestamp: Optional[int] = None
    signatures: List[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1" and _HEX_DIGEST.match(value.strip().lower()):
            signatures.append(value.strip().lower())
    if timestamp is None or not signatures:
        raise WebhookVerificationError(
            f"Malformed {SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex>.", code="WEBHOOK_SIGNATURE_MALFORMED"
        )
    return timestamp, signatures


def verify_webhook(
    payload: Union[bytes, str],
    signature_header: Optional[str],
    secret: Union[str, Sequence[str]],
    *,
    tolerance: int = DEFAULT_WEBHOOK_TOLERANCE,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Checks a delivery and returns its event; raises WebhookVerificationError otherwise.

    `payload` must be the raw request body exactly as received (not re-serialised JSON). `secret`
    may be a list while you rotate secrets on your side; the gateway itself sends one `v1` per
    valid secret during its own rotation, and any match is accepted. Comparison is constant-time.
    """
    if not signature_header:
        raise WebhookVerificationError(f"Missing {SIGNATURE_HEADER} header.", code="WEBHOOK_SIGNATURE_MISSING")
    raw = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    timestamp, signatures = _parse_header(signature_header)
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise WebhookVerificationError(
            f"Signature timestamp is outside the {tolerance} s tolerance (replayed or clock skew).",
            code="WEBHOOK_TIMESTAMP_OUTSIDE_TOLERANCE",
        )
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets or not all(secrets):
        raise InvalidArgumentError("secret must be a non-empty string (or a list of them)")
    signed = str(timestamp).encode("ascii") + b"." + raw
    matched = False
    for key in secrets:
        expected = hmac.new(key.encode("utf-8"), signed, hashlib.sha256).hexdigest()
        for candidate in signatures:
            # Every pair is compared (no early exit) so timing says nothing about which part matched.
            matched = hmac.compare_digest(expected, candidate) or matched
    if not matched:
        raise WebhookVerificationError("No v1 signature matches this payload and secret.", code="WEBHOOK_SIGNATURE_MISMATCH")
    try:
        return WebhookEvent.model_validate(json.loads(raw))
    except ValueError:
        raise WebhookVerificationError("Signed payload is not a webhook event.", code="WEBHOOK_PAYLOAD_INVALID") from None

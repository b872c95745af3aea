import json
from pathlib import Path

import pytest

from starsgate import WebhookVerificationError, verify_webhook

VECTORS = json.loads((Path(__file__).parents[2] / "sdk" / "test" / "fixtures" / "webhook-vectors.json").read_text())
BODY: str = VECTORS["body"]
T: int = VECTORS["timestamp"]


def test_a_valid_delivery_returns_its_event():
    event = verify_webhook(BODY.encode(), VECTORS["header"], VECTORS["secret"], now=T + 10)
    assert event.type == "purchase.completed" and event.sequence == 7
    assert event.data["purchase_id"] == "5b3c3a52-6f0e-4c4e-9d1e-1f1f6c7b8a90"
    assert verify_webhook(BODY, VECTORS["header"], VECTORS["secret"], now=T).id == "evt_01"


def test_during_rotation_either_secret_matches():
    header = VECTORS["rotation_header"]
    assert verify_webhook(BODY, header, VECTORS["secret"], now=T).id == "evt_01"
    assert verify_webhook(BODY, header, VECTORS["old_secret"], now=T).id == "evt_01"
    # A receiver rotating on its side passes both of its secrets.
    only_old = f"t={T},v1={VECTORS['v1_previous']}"
    assert verify_webhook(BODY, only_old, [VECTORS["secret"], VECTORS["old_secret"]], now=T).id == "evt_01"


@pytest.mark.parametrize(
    "body,header,secret,now,code",
    [
        (BODY, VECTORS["header"], "wrong", T, "WEBHOOK_SIGNATURE_MISMATCH"),
        (BODY.replace("completed", "failed"), VECTORS["header"], VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MISMATCH"),
        (BODY, VECTORS["header"], VECTORS["secret"], T + 301, "WEBHOOK_TIMESTAMP_OUTSIDE_TOLERANCE"),
        (BODY, VECTORS["header"], VECTORS["secret"], T - 301, "WEBHOOK_TIMESTAMP_OUTSIDE_TOLERANCE"),
        (BODY, f"t={T + 1},v1={VECTORS['v1_current']}", VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MISMATCH"),
        (BODY, f"v1={VECTORS['v1_current']}", VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MALFORMED"),
        (BODY, f"t={T},v1=zz", VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MALFORMED"),
        (BODY, f"t={T},v1=é{VECTORS['v1_current'][1:]}", VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MALFORMED"),
        (BODY, "", VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MISSING"),
        (BODY, None, VECTORS["secret"], T, "WEBHOOK_SIGNATURE_MISSING"),
    ],
    ids=["wrong-secret", "tampered-body", "too-old", "from-the-future", "other-timestamp", "no-t", "not-hex", "non-ascii", "empty", "none"],
)
def test_refusals(body, header, secret, now, code):
    with pytest.raises(WebhookVerificationError) as caught:
        verify_webhook(body, header, secret, now=now)
    assert caught.value.code == code


def test_the_tolerance_is_configurable():
    assert verify_webhook(BODY, VECTORS["header"], VECTORS["secret"], now=T + 1000, tolerance=1000).id == "evt_01"


def test_a_signed_body_that_is_not_an_event_is_refused():
    import hashlib
    import hmac

    body = "not json"
    sig = hmac.new(b"s", f"{T}.{body}".encode(), hashlib.sha256).hexdigest()
    with pytest.raises(WebhookVerificationError) as caught:
        verify_webhook(body, f"t={T},v1={sig}", "s", now=T)
    assert caught.value.code == "WEBHOOK_PAYLOAD_INVALID"

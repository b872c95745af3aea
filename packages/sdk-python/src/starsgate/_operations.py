"""Every API call, described once. Both clients turn these into requests through the shared core."""

from enum import Enum
from typing import Any, Dict, Mapping, Optional, Union

from ._core import Operation, path_segment
from ._exceptions import InvalidArgumentError

StrOrEnum = Union[str, Enum]


def _value(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _body(**fields: Any) -> Dict[str, Any]:
    """Only the fields the caller set: an omitted optional field is absent, never null."""
    return {name: _value(value) for name, value in fields.items() if value is not None}


# The request fields that carry an order's quantities (`amount`, `winners`, `months`, …), as the
# catalogue (GET /api/v1/products) names them for each product.
QuantityFields = Mapping[str, Optional[int]]


def check_availability(
    product: StrOrEnum, username: str, payment_method: StrOrEnum, quantity_fields: QuantityFields
) -> Operation:
    # Stores nothing: safe to repeat.
    return Operation(
        "POST",
        "/api/v1/availability/check",
        body=_body(product=product, username=username, **quantity_fields, payment_method=payment_method),
        replay_safe=True,
    )


def list_products() -> Operation:
    return Operation("GET", "/api/v1/products", replay_safe=True)


def get_prices() -> Operation:
    return Operation("GET", "/api/v1/prices", replay_safe=True)


def get_quote(product: StrOrEnum, quantity_fields: QuantityFields) -> Operation:
    params = {"product": _value(product), **{name: value for name, value in quantity_fields.items() if value is not None}}
    return Operation("GET", "/api/v1/prices/quote", params=params, replay_safe=True)


def resolve_wallet(seed: str, wallet_address: Optional[str], account_index: Optional[int]) -> Operation:
    # Derives and reads balances, stores nothing: safe to repeat.
    return Operation(
        "POST",
        "/api/v1/wallets/resolve",
        body=_body(seed=seed, wallet_address=wallet_address, account_index=account_index),
        replay_safe=True,
        carries_secret=True,
    )


def _keyed_order(path: str, idempotency_key: str, carries_secret: bool, **fields: Any) -> Operation:
    """A POST that creates an order: retried only with its key, which the gateway answers as a replay."""
    if not idempotency_key:
        raise InvalidArgumentError("idempotency_key is required: one key per logical order, reused on every retry")
    return Operation(
        "POST",
        path,
        body=_body(**fields, idempotency_key=idempotency_key),
        replay_safe=True,
        reports_replay=True,
        carries_secret=carries_secret,
    )


def create_purchase(
    product: StrOrEnum,
    username: str,
    amount: Optional[int],
    payment_method: StrOrEnum,
    seed: str,
    idempotency_key: str,
    wallet_address: Optional[str],
    account_index: Optional[int],
    **quantity_fields: Optional[int],
) -> Operation:
    """`quantity_fields`: a product's quantity fields beyond `amount` (a giveaway's `winners`, `months`)."""
    return _keyed_order(
        "/api/v1/purchases",
        idempotency_key,
        True,
        product=product,
        username=username,
        amount=amount,
        **quantity_fields,
        payment_method=payment_method,
        seed=seed,
        wallet_address=wallet_address,
        account_index=account_index,
    )


def get_purchase(purchase_id: str) -> Operation:
    return Operation("GET", f"/api/v1/purchases/{path_segment(purchase_id)}", replay_safe=True)


def create_checkout(
    product: StrOrEnum,
    username: str,
    amount: Optional[int],
    payment_method: StrOrEnum,
    payer_address: str,
    idempotency_key: str,
    payer_public_key: Optional[str],
    payer_state_init: Optional[str],
    ton_proof: Optional[Dict[str, Any]] = None,
    **quantity_fields: Optional[int],
) -> Operation:
    return _keyed_order(
        "/api/v1/checkouts",
        idempotency_key,
        False,
        product=product,
        username=username,
        amount=amount,
        **quantity_fields,
        payment_method=payment_method,
        payer_address=payer_address,
        payer_public_key=payer_public_key,
        payer_state_init=payer_state_init,
        ton_proof=ton_proof,
    )


def create_ton_proof_payload() -> Operation:
    # Each call issues a fresh payload; a retry after a lost answer only issues another.
    return Operation("POST", "/api/v1/checkouts/ton-proof-payload", replay_safe=True)


def get_checkout(checkout_id: str) -> Operation:
    return Operation("GET", f"/api/v1/checkouts/{path_segment(checkout_id)}", replay_safe=True)


def submit_checkout(checkout_id: str, boc: str) -> Operation:
    # The same BOC again is answered as a replay (202, same checkout): the BOC is its own idempotency key.
    return Operation(
        "POST",
        f"/api/v1/checkouts/{path_segment(checkout_id)}/submitted",
        body={"boc": boc},
        replay_safe=True,
    )

"""Every public route of the gateway and the SDK method that calls it (both clients).

Kept free of imports so a test can read it without installing the package; the route coverage
tests fail when the gateway's /openapi.json has a public route missing here.
"""

ROUTES = {
    "POST /api/v1/availability/check": "check_availability",
    "GET /api/v1/prices": "get_prices",
    "GET /api/v1/products": "list_products",
    "GET /api/v1/prices/quote": "get_quote",
    "POST /api/v1/wallets/resolve": "resolve_wallet",
    "POST /api/v1/purchases": "create_purchase",
    "GET /api/v1/purchases/{purchase_id}": "get_purchase",
    "POST /api/v1/checkouts/ton-proof-payload": "create_ton_proof_payload",
    "POST /api/v1/checkouts": "create_checkout",
    "GET /api/v1/checkouts/{checkout_id}": "get_checkout",
    "POST /api/v1/checkouts/{checkout_id}/submitted": "submit_checkout",
}

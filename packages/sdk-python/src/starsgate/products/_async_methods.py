# Generated from products/methods.py by scripts/make_async_client.py: edit products/methods.py, then run it.
"""Every product's named methods together: what `Client` mixes in (as coroutines)."""

from ._async_gram import AsyncGramMethods
from ._async_premium import AsyncPremiumMethods
from ._async_stars import AsyncStarsMethods


class AsyncProductMethods(AsyncStarsMethods, AsyncPremiumMethods, AsyncGramMethods):
    """`buy_<product>`, `get_<product>_price` and `check_<product>_availability` of each product that has them."""

"""Every product's named methods together: what `Client` mixes in (the source of `_async_methods.py`)."""

from .gram import GramMethods
from .premium import PremiumMethods
from .stars import StarsMethods


class ProductMethods(StarsMethods, PremiumMethods, GramMethods):
    """`buy_<product>`, `get_<product>_price` and `check_<product>_availability` of each product that has them."""

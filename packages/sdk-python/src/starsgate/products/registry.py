"""The products this SDK names: the `Product` enum of the API's `product` field."""

from enum import Enum


class Product(str, Enum):
    STARS = "stars"
    PREMIUM = "premium"
    GRAM = "gram"
    PREMIUM_GIVEAWAY = "premium_giveaway"

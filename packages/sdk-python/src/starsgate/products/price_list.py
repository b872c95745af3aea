"""GET /api/v1/prices: the reference price list, keyed by the products it lists."""

from typing import Any, Dict, Optional

from pydantic import ConfigDict, field_serializer, field_validator

from .._models import PriceTable, Timestamp, _Model


class PriceList(_Model):
    """Reference prices: `catalog.stars` (50 Stars) and `catalog.premium` (3, 6 and 12 months)."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True, arbitrary_types_allowed=True)

    stars: PriceTable
    premium: PriceTable
    stale: bool = False
    updated_at: Optional[Timestamp] = None

    @field_validator("stars", "premium", mode="before")
    @classmethod
    def _table(cls, value: Any) -> PriceTable:
        return PriceTable.from_wire(value)

    @field_serializer("stars", "premium")
    def _wire_table(self, table: PriceTable) -> Dict[str, Dict[str, str]]:
        """Back to the API's shape, so a dumped list validates again (a shop's cache)."""
        return {str(row.amount): {"gram": row.prices.gram, "usdt": row.prices.usdt} for row in table}

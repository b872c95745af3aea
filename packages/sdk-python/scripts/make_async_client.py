"""Writes src/starsgate/_async_client.py from _client.py, and each products/<name>.py's async twin
products/_async_<name>.py (the approach of httpcore's `unasync`).

The sync client is the one source of the surface; the async one is its mechanical translation, so the
two cannot drift. tests/test_async_parity.py fails when the committed file is not this script's output.
Run: python scripts/make_async_client.py
"""

import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "starsgate"

HEADER = "# Generated from _client.py by scripts/make_async_client.py: edit _client.py, then run it.\n"

REPLACEMENTS = [
    (
        '"""The synchronous client, and the source of `_async_client.py` (scripts/make_async_client.py writes it)."""',
        '"""The asynchronous client: `Client`\'s methods as coroutines, on the same core."""',
    ),
    ("import time\n", "import asyncio\n"),
    ("from typing import Any, Callable, Dict, Mapping,", "from typing import Any, Awaitable, Callable, Dict, Mapping,"),
    ("from .products.methods import ProductMethods\n", "from .products._async_methods import AsyncProductMethods\n"),
    ("class Client(ProductMethods):\n", "class AsyncClient(AsyncProductMethods):\n"),
    ("Use as a context manager, or call `close()`.", "Use as an async context manager, or await `close()`."),
    ("_sleep = staticmethod(time.sleep)", "_sleep = staticmethod(asyncio.sleep)"),
    ("Optional[httpx.Client]", "Optional[httpx.AsyncClient]"),
    ("httpx.Client(timeout", "httpx.AsyncClient(timeout"),
    ('return f"Client(base_url=', 'return f"AsyncClient(base_url='),
    ('def __enter__(self) -> "Client":', 'async def __aenter__(self) -> "AsyncClient":'),
    ("def __exit__(", "async def __aexit__("),
    ("        self.close()\n", "        await self.close()\n"),
    ("self._http.close()", "await self._http.aclose()"),
    ("self._http.send(", "await self._http.send("),
    ("            self._sleep(delay)", "            await self._sleep(delay)"),
    ("fetch: Callable[[], M]", "fetch: Callable[[], Awaitable[M]]"),
    ("current = fetch()", "current = await fetch()"),
    ('def products(self) -> "ProductsResource":', 'def products(self) -> "AsyncProductsResource":'),
    ("return ProductsResource(self)", "return AsyncProductsResource(self)"),
    ("class ProductsResource:", "class AsyncProductsResource:"),
    ('def __init__(self, client: "Client")', 'def __init__(self, client: "AsyncClient")'),
    ("self._catalog = self.list_products()", "self._catalog = await self.list_products()"),
    ("fields = self._quantity_fields(", "fields = await self._quantity_fields("),
    ("return self._client.list_products()", "return await self._client.list_products()"),
]


def translate(source: str) -> str:
    for old, new in REPLACEMENTS:
        if old not in source:
            raise SystemExit(f"_client.py no longer contains {old!r}: update scripts/make_async_client.py")
        source = source.replace(old, new)
    # Every method but the constructor and the property becomes a coroutine, and awaits what it delegates to.
    source = re.sub(r"\n    def (?!__init__|base_url|products|__repr__)(\w+)\(", r"\n    async def \1(", source)
    source = re.sub(r"return self\.(_call|_poll|check_availability|get_quote|create_purchase)\(", r"return await self.\1(", source)
    return HEADER + source


PRODUCT_HEADER = "# Generated from {name} by scripts/make_async_client.py: edit {name}, then run it.\n"


def translate_product(source: str) -> str:
    """A product's named methods as coroutines over the async client's generic calls."""
    source = re.sub(r" \(the source of `_async_\w+\.py`\)", " (as coroutines)", source)
    source = re.sub(r"^from \.(\w+) import", r"from ._async_\1 import", source, flags=re.MULTILINE)
    source = re.sub(r"\b([A-Z]\w*Methods|GenericOrders)\b", r"Async\1", source)
    source = re.sub(r"\n    def (\w+)\(", r"\n    async def \1(", source)
    source = re.sub(r"return self\.(check_availability|get_quote|create_purchase)\(", r"return await self.\1(", source)
    return source


def product_sources() -> list[Path]:
    """The products' files of named methods and the protocol they are written over (not their models)."""
    sources = (PACKAGE / "products").glob("*.py")
    return sorted(
        path
        for path in sources
        if path.name == "orders.py" or (not path.name.startswith("_") and "Methods" in path.read_text())
    )


def outputs() -> dict[Path, str]:
    """Every generated file and what this script writes into it."""
    written = {PACKAGE / "_async_client.py": translate((PACKAGE / "_client.py").read_text())}
    for source in product_sources():
        header = PRODUCT_HEADER.format(name=f"products/{source.name}")
        written[source.with_name(f"_async_{source.name}")] = header + translate_product(source.read_text())
    return written


def main() -> int:
    for target, text in outputs().items():
        target.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

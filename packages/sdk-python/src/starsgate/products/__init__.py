"""Each product's part of the SDK: its named methods (`stars.py`, … mixed into `Client`, their
`_async_` twins into `AsyncClient`), the `Product` enum and the reference price list's shape."""

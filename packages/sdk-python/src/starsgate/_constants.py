DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 2

# Backoff between retries: 0.5 s doubled per attempt, capped at 8 s, minus up to 25 % jitter so
# that clients that failed together do not come back together.
INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
RETRY_JITTER = 0.25
# A Retry-After longer than this is not waited for inside one call: the error is raised with
# `retry_after` so the caller can schedule the retry itself.
MAX_RETRY_AFTER = 60.0

# Statuses worth another try: the request did not take effect (429, 503) or may be replayed safely
# with the same idempotency key (408, 500, 502, 504).
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})

DEFAULT_WAIT_TIMEOUT = 300.0
DEFAULT_POLL_INTERVAL = 2.0
DEFAULT_TRANSACTION_WAIT_TIMEOUT = 60.0
DEFAULT_TRANSACTION_POLL_INTERVAL = 1.0

# The signature tolerance of verify_webhook: a delivery signed longer ago (or in the future) is refused.
DEFAULT_WEBHOOK_TOLERANCE = 300

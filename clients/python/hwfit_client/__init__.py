"""Python client for the hwfit REST server (``hwfit serve``).

hwfit answers "which hardware should this ML model run on, how fast, how big".
Its server reproduces the REST API of IPFS Accelerate's Hardware-Aware Model
Selection API, and this client keeps that API's Python method names::

    from hwfit_client import HardwareSelectionClient, NotFoundError

    client = HardwareSelectionClient("http://127.0.0.1:8000")
    rec = client.select_hardware("bert-base-uncased", batch_size=16, available_hardware=["cpu", "cuda"])
    print(rec["primary_recommendation"], rec["fallback_options"])
    device = client.get_optimal_device("bert-base-uncased")   # torch.device or "cpu"/"cuda"/"mps"

Standard library only; no runtime dependencies.
"""

from .client import DEFAULT_BASE_URL, HardwareSelectionClient, __version__, torch_device_string
from .errors import (
    AuthenticationError,
    BadRequestError,
    ConnectionFailed,
    HwfitError,
    NotFoundError,
    PayloadTooLargeError,
    ServerError,
    ValidationError,
)

__all__ = [
    "HardwareSelectionClient",
    "DEFAULT_BASE_URL",
    "torch_device_string",
    "HwfitError",
    "BadRequestError",
    "AuthenticationError",
    "NotFoundError",
    "PayloadTooLargeError",
    "ValidationError",
    "ServerError",
    "ConnectionFailed",
    "__version__",
]

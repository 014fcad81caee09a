"""Exceptions raised by :class:`hwfit_client.HardwareSelectionClient`.

Every error is an :class:`HwfitError`. The server answers a failed request with a
non-2xx status and a JSON body ``{"status": "error", "message": "..."}``; the
status picks the subclass and ``message`` becomes :attr:`HwfitError.message`.

=====================  ======  ===========================================
class                  status  meaning
=====================  ======  ===========================================
BadRequestError        400     the body is not valid JSON / malformed
AuthenticationError    401     API key missing or wrong
NotFoundError          404     unknown model, device or path
PayloadTooLargeError   413     request body too large
ValidationError        422     a field has a bad name, type or range
ServerError            5xx     the server failed
ConnectionFailed       None    server unreachable, timed out, connection lost
HwfitError             other   any other failure (other 4xx, bad response)
=====================  ======  ===========================================

:class:`BadRequestError`, :class:`NotFoundError` and :class:`ValidationError`
are also :class:`ValueError` subclasses, so code written for the IPFS Accelerate
client (``except ValueError`` around ``select_hardware`` for an invalid model)
keeps working.
"""

from typing import Any, Optional, Type

__all__ = [
    "HwfitError",
    "BadRequestError",
    "AuthenticationError",
    "NotFoundError",
    "PayloadTooLargeError",
    "ValidationError",
    "ServerError",
    "ConnectionFailed",
    "error_for_status",
]


class HwfitError(Exception):
    """Base class of every error the client raises.

    Attributes:
        status: the HTTP status code, or ``None`` when no HTTP answer came
            (connection failures, client-side misuse).
        message: the server's ``message`` (or a description of what went wrong).
        body: the parsed JSON error body, the raw text when it was not JSON,
            or ``None``.
        url: the URL of the failed request, when there was one.
    """

    status: Optional[int]
    message: str
    body: Any
    url: Optional[str]

    def __init__(
        self,
        message: str,
        status: Optional[int] = None,
        *,
        body: Any = None,
        url: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.body = body
        self.url = url

    def __str__(self) -> str:
        if self.status is None:
            return self.message
        return f"HTTP {self.status}: {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, message={self.message!r})"

    def __reduce__(self) -> Any:
        # Keep pickling (e.g. across multiprocessing) working with keyword-only fields.
        return (_rebuild, (type(self), self.message, self.status, self.body, self.url))


def _rebuild(
    cls: Type["HwfitError"], message: str, status: Optional[int], body: Any, url: Optional[str]
) -> "HwfitError":
    return cls(message, status, body=body, url=url)


class BadRequestError(HwfitError, ValueError):
    """400: the request body is malformed (for example not valid JSON)."""


class AuthenticationError(HwfitError):
    """401: the server requires an API key and none, or a wrong one, was sent."""


class NotFoundError(HwfitError, ValueError):
    """404: unknown model, device or endpoint."""


class PayloadTooLargeError(HwfitError):
    """413: the request body is larger than the server accepts."""


class ValidationError(HwfitError, ValueError):
    """422: a field is unknown, of the wrong type or out of range; the message names it."""


class ServerError(HwfitError):
    """5xx: the server failed to answer the request."""


class ConnectionFailed(HwfitError):
    """The server could not be reached, the connection broke, or the request timed out.

    :attr:`status` is always ``None``.
    """


_BY_STATUS = {
    400: BadRequestError,
    401: AuthenticationError,
    404: NotFoundError,
    413: PayloadTooLargeError,
    422: ValidationError,
}


def error_for_status(status: int, message: str, *, body: Any = None, url: Optional[str] = None) -> HwfitError:
    """Build the exception that matches an HTTP ``status``.

    400, 401, 404, 413 and 422 get their own class, every 5xx is a
    :class:`ServerError`, anything else a plain :class:`HwfitError`.
    """
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = ServerError if 500 <= status <= 599 else HwfitError
    return cls(message, status, body=body, url=url)

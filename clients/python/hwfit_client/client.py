"""HTTP client for the hwfit REST server (``hwfit serve``).

The server reproduces the REST API of IPFS Accelerate's Hardware-Aware Model
Selection API; this client keeps the method names of that API's Python client
(``select_hardware``, ``get_optimal_device``, ``select_hardware_for_models``,
``get_distributed_training_config`` ...) and talks JSON with snake_case keys.

Only the standard library is used (``urllib.request`` and ``json``).
"""

import http.client
import ipaddress
import json
import math
import os
import re
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from http.client import HTTPException, responses
from typing import Any, Dict, List, Optional, Sequence, Union

from .questions import QUESTIONS, Question
from .errors import ConnectionFailed, HwfitError, error_for_status

__all__ = ["HardwareSelectionClient", "DEFAULT_BASE_URL", "torch_device_string"]

__version__ = "0.1.0"

#: Base URL used when neither ``base_url`` nor ``$HWFIT_URL`` is given.
DEFAULT_BASE_URL = "http://127.0.0.1:8000"

#: Environment variable with the default base URL.
ENV_URL = "HWFIT_URL"

#: Environment variable with the default API key.
ENV_API_KEY = "HWFIT_API_KEY"

# Hardware types whose PyTorch device type is "cuda" (ROCm builds of PyTorch also say "cuda").
_CUDA_TYPES = frozenset({"cuda", "rocm", "hip"})
_KNOWN_TYPES = frozenset({"cpu", "cuda", "rocm", "hip", "mps", "openvino", "qnn", "webnn", "webgpu", "wasm"})

JsonDict = Dict[str, Any]
StrOrList = Union[str, Sequence[Any]]
ModelConfig = Union[Mapping[str, Any], str, "os.PathLike[str]"]
Browser = Union[str, Mapping[str, Any]]


def _hardware_name(value: Any) -> str:
    """A hardware type or device name as the server expects it.

    Strings pass through unchanged; a ``torch.device`` (anything with a string
    ``type`` attribute) gives its type (``torch.device("cuda:0")`` -> ``"cuda"``);
    anything else its ``str()``.
    """
    if isinstance(value, str):
        return value
    kind = getattr(value, "type", None)
    if isinstance(kind, str):
        return kind
    return str(value)


def _str_list(value: Optional[Any], field: str, *, hardware: bool = False) -> Optional[List[str]]:
    """``None`` stays ``None``; a single string (or torch.device) becomes a one-item list."""
    if value is None:
        return None
    if isinstance(value, str) or (hardware and isinstance(getattr(value, "type", None), str)):
        return [_hardware_name(value) if hardware else value]
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"{field} must be a string or a list of strings, not {type(value).__name__}")
    return [_hardware_name(v) if hardware else (v if isinstance(v, str) else str(v)) for v in value]


def _browser(value: Optional[Browser]) -> Optional[Union[str, JsonDict]]:
    """A browser's facts in words, or the probe's ``capabilities`` mapping, as sent."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"browser: a string of facts or a mapping, not {type(value).__name__}")


def _int_list(value: Optional[Any], field: str) -> Optional[List[Any]]:
    """``None`` stays ``None``; a single number becomes a one-item list."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [value]
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"{field} must be a number or a list of numbers, not {type(value).__name__}")
    return list(value)


def _model_config(value: Optional[Any]) -> Optional[Any]:
    """A Hugging Face ``config.json``: a mapping, or a path whose file is read. ``transformers``
    writes ``Infinity`` and ``NaN`` where a field holds one (Nemotron-H's ``time_step_limit``);
    JSON has no such numbers, so they are sent as ``null``, as hwfit reads them."""
    if value is None:
        return value
    if isinstance(value, Mapping):
        return _finite(value)
    if isinstance(value, (str, os.PathLike)):
        with open(value, encoding="utf-8") as f:
            return _finite(json.load(f))
    raise TypeError(f"model_config must be a dict or the path of a config.json, not {type(value).__name__}")


def _finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float replaced by ``None``."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _compact(fields: Mapping[str, Any]) -> JsonDict:
    """The request body: every field that is not ``None``."""
    return {k: v for k, v in fields.items() if v is not None}


def torch_device_string(recommendation: str) -> str:
    """Map a hardware recommendation to a PyTorch device string.

    ``cuda`` and ``rocm`` give ``"cuda"`` (ROCm builds of PyTorch use the cuda
    device type), keeping an index (``"cuda:1"`` -> ``"cuda:1"``,
    ``"rocm:0"`` -> ``"cuda:0"``); ``mps`` gives ``"mps"``; everything else
    (``cpu``, ``openvino``, ``qnn``, ``webgpu``, ...) gives ``"cpu"``.
    """
    if not isinstance(recommendation, str) or not recommendation.strip():
        raise HwfitError(f"no hardware recommendation to map to a torch device: {recommendation!r}")
    kind, _, index = recommendation.strip().lower().partition(":")
    if kind in _CUDA_TYPES:
        return f"cuda:{index}" if index.isdigit() else "cuda"
    if kind == "mps":
        return "mps"
    return "cpu"


def _is_loopback(host: Optional[str]) -> bool:
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _collapse(text: str, limit: int = 500) -> str:
    """One line of at most ``limit`` characters; HTML tags removed."""
    if "<" in text and ">" in text:
        text = re.sub(r"<[^>]+>", " ", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _TolerantSend:
    """Connection mixin: a server that refuses a request before reading all of its body.

    A server may answer at once (413 from the Content-Length, 401 before the body)
    and close; the rest of the upload then fails with a broken pipe. The answer is
    usually already in the socket's receive buffer, so the rest of the body is
    dropped and ``getresponse()`` reads it; if there is none, that raises and the
    client reports a connection failure.
    """

    sock: Any
    _refused_upload: Optional[OSError] = None

    def send(self, data: Any) -> None:
        if self._refused_upload is not None:
            return
        try:
            super().send(data)  # type: ignore[misc]
        except (BrokenPipeError, ConnectionResetError) as e:
            if self.sock is None:
                raise
            self._refused_upload = e


_tolerant_classes: Dict[type, type] = {}


def _tolerant(connection_class: type) -> Any:
    cls = _tolerant_classes.get(connection_class)
    if cls is None:
        cls = type("Tolerant" + connection_class.__name__, (_TolerantSend, connection_class), {})
        _tolerant_classes[connection_class] = cls
    return cls


class _HTTPHandler(urllib.request.HTTPHandler):
    def do_open(self, http_class: Any, req: urllib.request.Request, **http_conn_args: Any) -> Any:
        return super().do_open(_tolerant(http_class), req, **http_conn_args)


_HANDLER_CLASSES: List[Any] = [_HTTPHandler]

if hasattr(http.client, "HTTPSConnection"):  # Python built with ssl

    class _HTTPSHandler(urllib.request.HTTPSHandler):
        def do_open(self, http_class: Any, req: urllib.request.Request, **http_conn_args: Any) -> Any:
            return super().do_open(_tolerant(http_class), req, **http_conn_args)

    _HANDLER_CLASSES.append(_HTTPSHandler)


class HardwareSelectionClient:
    """Client of the hwfit REST server.

    Args:
        base_url: the server, e.g. ``"http://127.0.0.1:8000"``. Defaults to
            ``$HWFIT_URL``, else ``http://127.0.0.1:8000``. A URL without a scheme
            gets ``http://``.
        timeout: seconds to wait for a connection and for each read
            (``None``: wait forever).
        api_key: sent as ``Authorization: Bearer <key>`` on every request.
            Defaults to ``$HWFIT_API_KEY`` (unset or empty: no header).

    Every method returns the server's decoded JSON and raises a
    :class:`~hwfit_client.errors.HwfitError` subclass on failure. Keyword
    arguments mirror the JSON fields; arguments left at ``None`` are not sent,
    so the server's defaults apply. Requests to a loopback host
    (``localhost``, ``127.0.0.0/8``, ``::1``) never go through a proxy; other
    hosts honour the usual ``*_proxy`` environment variables.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        timeout: Optional[float] = 10.0,
        api_key: Optional[str] = None,
    ) -> None:
        if base_url is None:
            base_url = os.environ.get(ENV_URL) or DEFAULT_BASE_URL
        base_url = base_url.strip()
        if "://" not in base_url:
            base_url = "http://" + base_url
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        self.base_url: str = base_url.rstrip("/")
        self.timeout: Optional[float] = timeout
        if api_key is None:
            api_key = os.environ.get(ENV_API_KEY) or None
        self.api_key: Optional[str] = api_key
        handlers: List[urllib.request.BaseHandler] = [cls() for cls in _HANDLER_CLASSES]
        if _is_loopback(parsed.hostname):
            handlers.append(urllib.request.ProxyHandler({}))
        self._opener = urllib.request.build_opener(*handlers)

    def __repr__(self) -> str:
        key = ", api_key=***" if self.api_key else ""
        return f"HardwareSelectionClient(base_url={self.base_url!r}, timeout={self.timeout!r}{key})"

    # ------------------------------------------------------------------ transport

    def request(
        self,
        method: str,
        path: str,
        body: Optional[Any] = None,
        params: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """Send one request and return the decoded JSON answer.

        The building block of every other method; use it for endpoints this
        client does not wrap. ``params`` with value ``None`` are left out of the
        query string.

        Raises:
            ConnectionFailed: the server could not be reached or timed out.
            HwfitError: a subclass matching the HTTP status of an error answer,
                or a plain ``HwfitError`` for a success answer that is not JSON.
        """
        url = self.base_url + "/" + path.lstrip("/")
        if params:
            query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
            if query:
                url += "?" + query
        headers = {
            "Accept": "application/json",
            "User-Agent": f"hwfit-client/{__version__} (python)",
        }
        data: Optional[bytes] = None
        if body is not None:
            try:
                data = json.dumps(body, allow_nan=False).encode("utf-8")
            except (TypeError, ValueError) as e:
                raise HwfitError(f"request body is not valid JSON: {e}", url=url) from e
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(url, data=data, headers=headers, method=method.upper())

        try:
            with self._opener.open(req, timeout=self.timeout) as resp:
                status = resp.status
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raise self._http_error(e, url) from None
        except urllib.error.URLError as e:
            reason = e.reason
            if isinstance(reason, socket.timeout):
                raise ConnectionFailed(self._timeout_message(), url=url) from e
            raise ConnectionFailed(f"cannot reach hwfit server at {self.base_url}: {reason}", url=url) from e
        except socket.timeout as e:  # TimeoutError on 3.10+
            raise ConnectionFailed(self._timeout_message(), url=url) from e
        except (OSError, HTTPException) as e:
            raise ConnectionFailed(
                f"connection to hwfit server at {self.base_url} failed: {type(e).__name__}: {e}", url=url
            ) from e

        if not raw.strip():
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise HwfitError(
                f"server answered {status} with a body that is not JSON: "
                f"{_collapse(raw.decode('utf-8', 'replace'), 200)}",
                status,
                body=raw.decode("utf-8", "replace"),
                url=url,
            ) from e

    def _timeout_message(self) -> str:
        return f"hwfit server at {self.base_url} did not answer within {self.timeout} s"

    @staticmethod
    def _http_error(e: urllib.error.HTTPError, url: str) -> HwfitError:
        status = e.code
        try:
            raw = e.read() or b""
        except (OSError, HTTPException):
            raw = b""
        finally:
            e.close()
        text = raw.decode("utf-8", "replace").strip()
        body: Any = text or None
        message: Optional[str] = None
        if text:
            try:
                body = json.loads(text)
            except ValueError:
                message = _collapse(text)
        if isinstance(body, dict):
            found = body.get("message", body.get("detail", body.get("error")))
            if isinstance(found, str):
                message = found
            elif found is not None:
                message = json.dumps(found)
        elif body is not None and message is None:
            message = _collapse(text)
        if not message:
            message = str(e.reason or responses.get(status, "HTTP error"))
        return error_for_status(status, message, body=body, url=url)

    def _get(self, path: str, params: Optional[Mapping[str, Any]] = None) -> Any:
        return self.request("GET", path, params=params)

    def _get_object(self, path: str) -> JsonDict:
        return self._object(self._get(path), "GET", path)

    def _post(self, path: str, body: Mapping[str, Any]) -> JsonDict:
        return self._object(self.request("POST", path, body=_compact(body)), "POST", path)

    def _object(self, answer: Any, method: str, path: str) -> JsonDict:
        if not isinstance(answer, dict):
            raise HwfitError(
                f"{method} {path} answered {type(answer).__name__} where a JSON object was expected",
                body=answer,
                url=self.base_url + path,
            )
        return answer

    # ------------------------------------------------------------------ questions

    def ask(self, question: str, request: Optional[Mapping[str, Any]] = None, **fields: Any) -> Any:
        """Ask any of the core's questions by its one name (``"select"``, ``"batch-select"``,
        ``"resourcePool"``, ``"resource_pool"`` …; the CLI's, JS's or Python's spelling, or a former
        name) with a request of IPFS Accelerate's field names, given as a mapping and/or keywords.

        The same question asked with ``hwfit <name> … --json`` or the npm package's export gives
        the same answer. ``questions`` lists them; every question also has a method of its
        Python name (``client.resource_pool(models=[...])``).

        Raises:
            ValueError: no question has that name.
        """
        q = _question(question)
        body = {**(request or {}), **fields}
        if q.method == "GET":
            params = {k: (",".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in body.items()}
            return self._get(q.path, params)
        return self.request("POST", q.path, body=_compact(body))

    @staticmethod
    def questions() -> List[Question]:
        """The questions this client can ask (the core's list: ``GET /questions``)."""
        return list(QUESTIONS)

    # ------------------------------------------------------------------ system

    def health(self) -> JsonDict:
        """``GET /health``: ``{status, version, available_components, database_connected}``.

        Open even when the server requires an API key.
        """
        return self._get_object("/health")

    def detect_hardware(self) -> JsonDict:
        """``GET /hardware/detect``: the server machine's hardware.

        ``{"hardware": {"cpu": true, "cuda": false, ...}, "torch_device": "cpu", ...}``.
        """
        return self._get_object("/hardware/detect")

    # ------------------------------------------------------------------ hardware

    def select_hardware(
        self,
        model_name: str,
        *,
        model_family: Optional[str] = None,
        batch_size: Optional[int] = None,
        sequence_length: Optional[int] = None,
        mode: Optional[str] = None,
        precision: Optional[str] = None,
        available_hardware: Optional[StrOrList] = None,
        devices: Optional[StrOrList] = None,
        task_type: Optional[str] = None,
        distributed: Optional[bool] = None,
        gpu_count: Optional[int] = None,
        model_config: Optional[ModelConfig] = None,
        threads: Optional[int] = None,
        browser: Optional[Browser] = None,
        mixed_precision: Optional[bool] = None,
    ) -> JsonDict:
        """``POST /hardware/select``: the best hardware for one model.

        Args:
            model_name: a catalog name (``"bert-base-uncased"``), any spelling hwfit resolves.
            model_family: ``embedding``, ``text_generation``, ``vision``, ``audio`` or ``multimodal``.
            batch_size: items per batch.
            sequence_length: tokens per item.
            mode: ``inference`` or ``training``.
            precision: ``fp32``, ``fp16``, ``bf16``, ``int8``, ``awq``, ``mxfp4``, ``q4_k_m`` ...;
                omitted: the checkpoint's own format where its config or name states one
                (an FP8, AWQ or MXFP4 checkpoint), else ``fp32``.
            available_hardware: hardware types to choose from (a string is one type);
                omitted: what the server detects.
            devices: catalog device names to choose from (``"RTX 4090"``, ``"H100 SXM"``).
            task_type: a pipeline task, e.g. ``"text-classification"``.
            distributed: also plan distributed training over ``gpu_count`` GPUs.
            gpu_count: GPUs for the distributed plan.
            model_config: a Hugging Face ``config.json`` (a dict, or the file's path)
                to read the architecture from instead of the catalog.
            threads: threads the run uses on a CPU candidate (llama.cpp's ``-t``);
                omitted: every core.
            browser: a browser whose WebGPU, WebAssembly and WebNN back-ends join the
                candidates, as the npm package's probe describes it: the facts in words
                (``"firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16"``) or the probe's
                ``capabilities`` dict.
            mixed_precision: training at ``fp16``/``bf16``: ``True`` (the default) keeps fp32
                weights, gradients and AdamW state with the products under autocast (PyTorch's
                AMP); ``False`` trains everything at the precision (pure 16-bit training).

        Returns:
            ``{model_family, model_name, model_size, model_size_category, batch_size,
            sequence_length, precision, mode, primary_recommendation, fallback_options,
            compatible_hardware, explanation, prediction_source, all_scores, ...}``.
        """
        return self._post(
            "/hardware/select",
            {
                "model_name": model_name,
                "model_family": model_family,
                "batch_size": batch_size,
                "sequence_length": sequence_length,
                "mode": mode,
                "precision": precision,
                "available_hardware": _str_list(available_hardware, "available_hardware", hardware=True),
                "devices": _str_list(devices, "devices"),
                "task_type": task_type,
                "distributed": distributed,
                "gpu_count": gpu_count,
                "model_config": _model_config(model_config),
                "threads": threads,
                "browser": _browser(browser),
                "mixed_precision": mixed_precision,
            },
        )

    def batch_select(self, models: Iterable[Union[str, Mapping[str, Any]]], **common: Any) -> JsonDict:
        """``POST /hardware/batch``: hardware for several models at once.

        Args:
            models: ``{"name": ..., "family": ..., "model_config": ...}`` dicts or
                plain model names (a name ``s`` is sent as ``{"name": s}``).
            **common: fields that apply to every model and mirror the JSON body
                (``batch_size``, ``mode``, ``precision``, ``sequence_length``,
                ``available_hardware``, ``devices`` ...); ``None`` values are dropped.

        Returns:
            ``{<model name>: {"primary": ..., "fallbacks": [...], "explanation": ...}}``.
        """
        if isinstance(models, (str, Mapping)):
            models = [models]
        entries: List[JsonDict] = []
        for m in models:
            if isinstance(m, str):
                entries.append({"name": m})
            elif isinstance(m, Mapping):
                if "name" not in m:
                    raise TypeError(f"each model needs a 'name': {dict(m)!r}")
                entry = _compact(m)
                if "model_config" in entry:
                    entry["model_config"] = _model_config(entry["model_config"])
                entries.append(entry)
            else:
                raise TypeError(f"a model must be a name or a dict with 'name', not {type(m).__name__}")
        body: JsonDict = dict(common)
        for field in ("available_hardware", "hardware", "hardware_platforms"):
            if field in body:
                body[field] = _str_list(body[field], field, hardware=True)
        if "devices" in body:
            body["devices"] = _str_list(body["devices"], "devices")
        body["models"] = entries
        return self._post("/hardware/batch", body)

    #: Name used by the IPFS Accelerate client.
    select_hardware_for_models = batch_select

    def create_hardware_map(
        self,
        model_families: Optional[StrOrList] = None,
        batch_sizes: Optional[Union[int, Sequence[int]]] = None,
        hardware_platforms: Optional[StrOrList] = None,
        *,
        devices: Optional[StrOrList] = None,
    ) -> JsonDict:
        """``POST /hardware/map``: per family, the hardware for each model size and batch size.

        Arguments left at ``None`` take the server's defaults (every family, batch
        sizes 1, 4, 16, 32, 64, every hardware type).

        Returns:
            ``{"model_families": {<family>: {"model_sizes": {<size>: {<mode>: {primary,
            fallbacks, ...}}}, "inference": {"batch_sizes": {"1": {primary, fallbacks}, ...}},
            "training": {...}}}, ...}``.
        """
        return self._post(
            "/hardware/map",
            {
                "model_families": _str_list(model_families, "model_families"),
                "batch_sizes": _int_list(batch_sizes, "batch_sizes"),
                "hardware_platforms": _str_list(hardware_platforms, "hardware_platforms", hardware=True),
                "devices": _str_list(devices, "devices"),
            },
        )

    # ------------------------------------------------------------------ performance

    def predict_performance(
        self,
        model_name: str,
        hardware: Optional[Union[StrOrList, Any]] = None,
        *,
        model_family: Optional[str] = None,
        devices: Optional[StrOrList] = None,
        batch_size: Optional[int] = None,
        sequence_length: Optional[int] = None,
        mode: Optional[str] = None,
        precision: Optional[str] = None,
        workload: Optional[str] = None,
        model_config: Optional[ModelConfig] = None,
        device_spec: Optional[Mapping[str, Any]] = None,
        runtime: Optional[str] = None,
        threads: Optional[int] = None,
        browser: Optional[Browser] = None,
        prompt_chunk: Optional[int] = None,
        mixed_precision: Optional[bool] = None,
    ) -> JsonDict:
        """``POST /performance/predict``: throughput, latency and memory per hardware.

        Args:
            model_name: the model.
            hardware: hardware types; a single string (or a ``torch.device``, whose
                type is used) is wrapped in a list. Omitted: what the server detects.
            model_family: family override.
            devices: catalog device names.
            batch_size, sequence_length, mode, precision: the workload (precision omitted:
                the checkpoint's own format where its config or name states one, else ``fp32``).
            workload: ``forward``, ``prefill``, ``decode`` or ``train-step``.
            model_config: a Hugging Face ``config.json`` (a dict, or the file's path).
            device_spec: a device by its numbers (``hardware_type``, ``memory_gb``,
                ``memory_bandwidth_gbs``, ``dense_tflops: {fp32, fp16?, ...}``, ``name?``).
            runtime: the runtime to predict for (``llama.cpp``, ``tensorrt``, ``vllm``,
                ``pytorch`` (eager), ``pytorch-compiled``, ``onnxruntime``, ...); omitted: the
                best-documented one per target.
            threads: threads the run uses on a CPU target (llama.cpp's ``-t``,
                ``torch.set_num_threads``); fewer than its cores compute and read at the part
                of the CPU they use (the device is named ``... (4 of 96 cores)``); omitted:
                every core.
            browser: a browser whose back-ends join the targets (see ``select_hardware``):
                ``"safari, webgpu=integrated, cores=8"`` or the probe's ``capabilities`` dict;
                the answer is the one the npm package gives in that browser.
            prompt_chunk: prompt tokens per forward pass of a prefill (llama.cpp's
                ``--ubatch-size``, mlx-lm's ``prefill_step_size``); omitted: the runtime's (512
                for llama.cpp, 2048 for MLX, the whole prompt elsewhere). Each pass reads the
                weights its tokens reach; ``prompt_passes`` in the answer says how many.
            mixed_precision: training at ``fp16``/``bf16``: ``True`` (the default) keeps fp32
                weights, gradients and AdamW state with the products under autocast (PyTorch's
                AMP); ``False`` trains everything at the precision (pure 16-bit training).
                The answer's ``mixed_precision`` says which a training step was predicted for.

        Returns:
            ``{model_name, ..., "predictions": {<hw>: {throughput, latency, memory_usage, source,
            runtime, bound, runtimes, ...}}}``; ``source`` is ``learned`` where the learned predictor
            corrected the analytic model (then ``analytic_throughput`` is the uncorrected figure);
            ``runtimes`` is the same step on each runtime fitted for the target's hardware type
            (``runtime``, ``throughput``, ``latency``, ``bound``, ``source``); ``bound`` is ``host``
            where issuing the runtime's operators bounds the step (``host_costs`` says how).
            ``refused`` maps each target that cannot run the step as asked to why, when others
            can; when none can, the server's 422 is raised.
        """
        return self._post(
            "/performance/predict",
            {
                "model_name": model_name,
                "device_spec": dict(device_spec) if device_spec is not None else None,
                "model_family": model_family,
                "hardware": _str_list(hardware, "hardware", hardware=True),
                "devices": _str_list(devices, "devices"),
                "batch_size": batch_size,
                "sequence_length": sequence_length,
                "mode": mode,
                "precision": precision,
                "workload": workload,
                "model_config": _model_config(model_config),
                "runtime": runtime,
                "threads": threads,
                "browser": _browser(browser),
                "prompt_chunk": prompt_chunk,
                "mixed_precision": mixed_precision,
            },
        )

    # ------------------------------------------------------------------ training

    def get_distributed_config(
        self,
        model_name: str,
        gpu_count: int,
        batch_size: int,
        *,
        model_family: Optional[str] = None,
        max_memory_gb: Optional[float] = None,
        device: Optional[str] = None,
        sequence_length: Optional[int] = None,
        model_config: Optional[ModelConfig] = None,
    ) -> JsonDict:
        """``POST /training/distributed``: a distributed training configuration.

        Args:
            model_name: the model.
            gpu_count: GPUs to train on.
            batch_size: the per-GPU batch size asked for.
            model_family: family override.
            max_memory_gb: memory budget per GPU.
            device: catalog device of the GPUs (``"H100 SXM"``).
            sequence_length: tokens per sample.
            model_config: a Hugging Face ``config.json`` (a dict, or the file's path).

        Returns:
            ``{distributed_strategy, gpu_count, per_gpu_batch_size, global_batch_size,
            gradient_accumulation_steps, mixed_precision, estimated_memory, ...}``.
        """
        return self._post(
            "/training/distributed",
            {
                "model_name": model_name,
                "model_family": model_family,
                "gpu_count": gpu_count,
                "batch_size": batch_size,
                "max_memory_gb": max_memory_gb,
                "device": device,
                "sequence_length": sequence_length,
                "model_config": _model_config(model_config),
            },
        )

    #: Name used by the IPFS Accelerate client.
    get_distributed_training_config = get_distributed_config

    # ------------------------------------------------------------------ analysis

    def analyze_model(
        self,
        model_name: str,
        *,
        model_family: Optional[str] = None,
        batch_sizes: Optional[Union[int, Sequence[int]]] = None,
        hardware_platforms: Optional[StrOrList] = None,
        devices: Optional[StrOrList] = None,
        precision: Optional[str] = None,
        sequence_length: Optional[int] = None,
        model_config: Optional[ModelConfig] = None,
        mixed_precision: Optional[bool] = None,
    ) -> JsonDict:
        """``POST /analysis/model``: performance and recommendations per batch size and hardware.

        ``hardware_platforms`` are hardware types (a string is one type), ``devices``
        catalog device names; neither: what the server detects. ``mixed_precision``: the
        training part at ``fp16``/``bf16`` in mixed precision (``True``, the default) or pure
        (``False``), as in ``predict_performance``.

        Returns:
            ``{model_name, model_family, hardware_platforms, batch_sizes,
            "inference": {"performance": {"<batch>": {<hw>: {throughput, latency,
            memory_usage, ...}}}, "recommendations": {"<batch>": {primary, fallbacks}}},
            "training": {...}}``.
        """
        return self._post(
            "/analysis/model",
            {
                "model_name": model_name,
                "model_family": model_family,
                "batch_sizes": _int_list(batch_sizes, "batch_sizes"),
                "hardware_platforms": _str_list(hardware_platforms, "hardware_platforms", hardware=True),
                "devices": _str_list(devices, "devices"),
                "precision": precision,
                "sequence_length": sequence_length,
                "model_config": _model_config(model_config),
                "mixed_precision": mixed_precision,
            },
        )

    # ------------------------------------------------------------------ models, devices, resources

    def classify_model(
        self,
        model_name: str,
        *,
        model_class: Optional[str] = None,
        tasks: Optional[StrOrList] = None,
        methods: Optional[StrOrList] = None,
        model_config: Optional[ModelConfig] = None,
    ) -> JsonDict:
        """``POST /models/classify``: the model's family and subfamily, with evidence.

        Args:
            model_name: the model id.
            model_class: its ``transformers`` class, e.g. ``"BertForMaskedLM"``.
            tasks: pipeline tasks (a string is one task).
            methods: method names the model object has (``"generate"`` ...).
            model_config: a Hugging Face ``config.json`` (a dict, or the file's path);
                its ``_name_or_path`` and ``architectures[0]`` fill a missing name and class.

        Returns:
            ``{model_name, family, subfamily, confidence, subfamily_confidence, source,
            analyses, recommended_template, ...}``.
        """
        return self._post(
            "/models/classify",
            {
                "model_name": model_name,
                "model_class": model_class,
                "tasks": _str_list(tasks, "tasks"),
                "methods": _str_list(methods, "methods"),
                "model_config": _model_config(model_config),
            },
        )

    def list_models(self, family: Optional[str] = None) -> Any:
        """``GET /models``: the model catalog, optionally only one ``family``."""
        return self._get("/models", {"family": family})

    def list_devices(
        self, hardware: Optional[str] = None, *, all: bool = False, query: Optional[str] = None
    ) -> Any:
        """``GET /devices``: the curated device catalog, optionally only one ``hardware`` type;
        ``all=True`` adds the device database (~2,000 GPUs and SoCs), ``query`` searches it by the
        words of a name (``"rtx 4070 super"``)."""
        return self._get(
            "/devices",
            {
                "hardware": _hardware_name(hardware) if hardware is not None else None,
                "all": "true" if all else None,
                "query": query,
            },
        )

    def list_benchmarks(
        self,
        *,
        model: Optional[str] = None,
        hardware: Optional[Any] = None,
        device: Optional[str] = None,
        runtime: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> Any:
        """``GET /benchmarks``: measurements in the server's benchmark database (``hwfit bench``,
        ``hwfit db import``), newest first; ``model``/``device`` match by substring, ``hardware``
        and ``runtime`` exactly; ``limit`` defaults to 100. A server started without
        ``--database`` answers 503 (:class:`HwfitError` with ``status`` 503)."""
        return self._get(
            "/benchmarks",
            {
                "model": model,
                "hardware": _hardware_name(hardware) if hardware is not None else None,
                "device": device,
                "runtime": runtime,
                "limit": str(limit) if limit is not None else None,
            },
        )

    def benchmark_stats(self) -> JsonDict:
        """``GET /benchmarks/stats``: what the server's benchmark database holds (records, models,
        devices, counts by hardware type, runtime and import)."""
        return self._get_object("/benchmarks/stats")

    def estimate_resources(
        self,
        model_name: str,
        *,
        hardware: Optional[Any] = None,
        precision: Optional[str] = None,
        batch_size: Optional[int] = None,
        sequence_length: Optional[int] = None,
        mode: Optional[str] = None,
        model_family: Optional[str] = None,
        model_config: Optional[ModelConfig] = None,
        mixed_precision: Optional[bool] = None,
    ) -> JsonDict:
        """``POST /resources``: memory, CPU cores and disk the model needs on one hardware type.

        ``hardware`` is one hardware type (a ``torch.device`` gives its type);
        the server's default is ``cpu``. ``mixed_precision`` (training at ``fp16``/``bf16``):
        ``True``, the default, counts fp32 weights with autocast's 16-bit copies, fp32 gradients
        and AdamW moments (18 bytes per parameter); ``False`` all of them at the precision
        (8 bytes per parameter at ``bf16``).

        Returns:
            ``{model_name, family, ..., "resource_requirements": {min_memory_mb,
            recommended_memory_mb, cpu_cores, disk_space_mb, batch_size, breakdown, ...}}``.
        """
        return self._post(
            "/resources",
            {
                "model_name": model_name,
                "hardware": _hardware_name(hardware) if hardware is not None else None,
                "precision": precision,
                "batch_size": batch_size,
                "sequence_length": sequence_length,
                "mode": mode,
                "model_family": model_family,
                "model_config": _model_config(model_config),
                "mixed_precision": mixed_precision,
            },
        )

    # ------------------------------------------------------------------ PyTorch

    def get_torch_device(self, model_name: str, **select_kwargs: Any) -> Any:
        """The PyTorch device to run ``model_name`` on.

        Calls :meth:`select_hardware` (``select_kwargs`` are its keyword
        arguments) and maps ``primary_recommendation`` with
        :func:`torch_device_string`: ``cuda``/``rocm`` -> ``"cuda"`` (index
        kept: ``"cuda:1"``), ``mps`` -> ``"mps"``, anything else -> ``"cpu"``.
        When the recommendation is a catalog device id rather than a hardware
        type, its ``hardware_type`` in ``all_scores`` decides.

        Returns:
            ``torch.device(...)`` when ``torch`` is importable, else the string.

        Raises:
            HwfitError: the server made no recommendation (nothing fits), or any
                error of :meth:`select_hardware`.
        """
        result = self.select_hardware(model_name, **select_kwargs)
        primary = result.get("primary_recommendation") if isinstance(result, dict) else None
        if not isinstance(primary, str) or not primary.strip():
            explanation = result.get("explanation") if isinstance(result, dict) else None
            detail = f": {explanation}" if explanation else ""
            raise HwfitError(f"no hardware recommendation for {model_name}{detail}", body=result)
        kind = primary.strip().lower().partition(":")[0]
        if kind not in _KNOWN_TYPES:
            scores = result.get("all_scores")
            entry = scores.get(primary) if isinstance(scores, dict) else None
            hw_type = None
            if isinstance(entry, dict):
                hw_type = entry.get("hardware_type") or entry.get("hardware")
            if isinstance(hw_type, str) and hw_type:
                primary = hw_type
        device = torch_device_string(primary)
        try:
            import torch  # type: ignore[import-not-found]
        except ImportError:
            return device
        return torch.device(device)

    #: Name used by the IPFS Accelerate client.
    get_optimal_device = get_torch_device


def _question(name: str) -> Question:
    key = re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", name.strip()).lower().replace("_", "-")
    for q in QUESTIONS:
        if key == q.name or key in q.aliases:
            return q
    known = ", ".join(q.name for q in QUESTIONS)
    raise ValueError(f"no question named {name!r} (the questions: {known})")


def _question_method(q: Question) -> Any:
    def method(self: "HardwareSelectionClient", request: Optional[Mapping[str, Any]] = None, **fields: Any) -> Any:
        return self.ask(q.name, request, **fields)

    method.__name__ = q.python
    method.__qualname__ = f"HardwareSelectionClient.{q.python}"
    local = " On the server's own devices when no hardware is named." if q.targeted else ""
    method.__doc__ = f"``{q.method} {q.path}``: {q.summary}.{local} Fields as in ``ask``."
    return method


# One method per question, named as in every face (IPFS Accelerate's names above stay as they are).
for _q in QUESTIONS:
    if not hasattr(HardwareSelectionClient, _q.python):
        setattr(HardwareSelectionClient, _q.python, _question_method(_q))


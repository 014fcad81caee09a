"""Tests of hwfit_client against a real ``hwfit serve``.

The server binary comes from ``$HWFIT_BIN``, else ``hwfit`` on ``PATH``; without
either the server tests fail (they are never skipped). Each server is started
on a free port of 127.0.0.1 and stopped at the end (SIGTERM, then SIGKILL after
5 s). Run from the repository root::

    HWFIT_BIN=target/release/hwfit python3 -m unittest discover -s clients/python/tests -v

The package is imported from the source tree (``clients/python``) unless
``HWFIT_CLIENT_INSTALLED=1`` asks for the installed one.

Environment knobs: ``HWFIT_TEST_START_TIMEOUT`` (seconds to wait for
``/health``, default 10), ``HWFIT_TEST_REQUEST_TIMEOUT`` (client timeout,
default 60).
"""

import atexit
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union
from unittest import mock

if os.environ.get("HWFIT_CLIENT_INSTALLED") != "1":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hwfit_client import (  # noqa: E402
    AuthenticationError,
    ConnectionFailed,
    HardwareSelectionClient,
    HwfitError,
    NotFoundError,
    PayloadTooLargeError,
    ValidationError,
    torch_device_string,
)

START_TIMEOUT = float(os.environ.get("HWFIT_TEST_START_TIMEOUT", "10"))
REQUEST_TIMEOUT = float(os.environ.get("HWFIT_TEST_REQUEST_TIMEOUT", "60"))
API_KEY = "secret"
UNKNOWN_MODEL = "no-such-model-xyz"
TORCH_DEVICES = ("cpu", "cuda", "mps")


def find_binary() -> str:
    """The ``hwfit`` binary: ``$HWFIT_BIN``, else ``hwfit`` on PATH; fails clearly otherwise."""
    env = os.environ.get("HWFIT_BIN")
    if env:
        path = shutil.which(env) or env
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise AssertionError(f"HWFIT_BIN={env!r} is not an executable file")
        return os.path.abspath(path)
    found = shutil.which("hwfit")
    if found:
        return found
    raise AssertionError(
        "no hwfit binary to test against: set HWFIT_BIN to the built binary "
        "(e.g. HWFIT_BIN=target/release/hwfit after `cargo build --release -p hwfit-cli`) "
        "or put `hwfit` on PATH"
    )


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """One ``hwfit serve`` on 127.0.0.1 and a free port."""

    def __init__(self, *extra_args: str) -> None:
        self.binary = find_binary()
        self.extra_args = list(extra_args)
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.port = 0
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in close())
            prefix="hwfit-serve-", suffix=".log", delete=False
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, limit: int = 4000) -> str:
        self.log.flush()
        text = Path(self.log.name).read_text(errors="replace")
        return text[-limit:]

    def start(self) -> "ServerProcess":
        atexit.register(self.stop)  # also when the run is interrupted
        # A port picked free can be taken before the server binds it: if the server exits, try
        # another port (twice more); if it runs but does not answer, fail at once.
        for _attempt in range(3):
            self.port = free_port()
            cmd = [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.extra_args]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
            state = self._wait_healthy()
            if state == "healthy":
                return self
            self.stop()
            if state == "silent":
                raise AssertionError(
                    f"`{' '.join(cmd)}` did not answer GET /health within {START_TIMEOUT} s "
                    f"(HWFIT_TEST_START_TIMEOUT); its output:\n{self.log_tail()}"
                )
        raise AssertionError(f"`{' '.join(cmd)}` exited without serving; its output:\n{self.log_tail()}")

    def _wait_healthy(self) -> str:
        """``healthy``, ``exited`` or ``silent`` (running, but no answer in time)."""
        assert self.proc is not None
        deadline = time.monotonic() + START_TIMEOUT
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return "exited"
            try:
                with opener.open(self.url + "/health", timeout=1) as resp:
                    if resp.status == 200:
                        return "healthy"
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        return "silent"

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def close(self) -> None:
        self.stop()
        self.log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)


def items(response: Any, key: str) -> List[Dict[str, Any]]:
    """The list a listing endpoint returns: a bare list or ``{key: [...]}``."""
    if isinstance(response, dict) and isinstance(response.get(key), list):
        return response[key]
    assert isinstance(response, list), f"expected a list or {{{key!r}: [...]}}, got {str(response)[:300]}"
    return response


def walk(value: Any, key: str) -> Iterator[Any]:
    """Every value stored under ``key`` anywhere in a JSON document."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield v
            yield from walk(v, key)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)


def is_torch_device(value: Any) -> bool:
    if isinstance(value, str):
        return value in TORCH_DEVICES or value.startswith("cuda:")
    kind = getattr(value, "type", None)  # torch.device
    return kind in TORCH_DEVICES


# One server for every ServerTest class, started by the first of them.
_server: Optional[ServerProcess] = None
_server_error: Optional[BaseException] = None


def shared_server() -> ServerProcess:
    global _server, _server_error
    if _server_error is not None:
        raise AssertionError(f"hwfit serve is not running: {_server_error}")
    if _server is None:
        try:
            _server = ServerProcess().start()
        except BaseException as e:
            _server_error = e
            raise
    return _server


def tearDownModule() -> None:  # noqa: N802 (unittest's name)
    if _server is not None:
        _server.close()


class ServerTest(unittest.TestCase):
    """Tests against the shared server; they fail (never skip) when it cannot start."""

    client: HardwareSelectionClient

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = HardwareSelectionClient(shared_server().url, timeout=REQUEST_TIMEOUT)


class SystemTests(ServerTest):
    def test_health(self) -> None:
        h = self.client.health()
        self.assertEqual(h["status"], "healthy")
        self.assertIsInstance(h["version"], str)
        self.assertTrue(h["version"])
        self.assertIsInstance(h["available_components"], dict)
        self.assertIsInstance(h["database_connected"], bool)

    def test_base_url_from_environment(self) -> None:
        url = shared_server().url
        with mock.patch.dict(os.environ, {"HWFIT_URL": url}):
            client = HardwareSelectionClient(timeout=REQUEST_TIMEOUT)
        self.assertEqual(client.base_url, url)
        self.assertEqual(client.health()["status"], "healthy")

    def test_detect_hardware(self) -> None:
        d = self.client.detect_hardware()
        hw = d["hardware"]
        self.assertIsInstance(hw, dict)
        self.assertIs(hw["cpu"], True)
        for name in ("cuda", "rocm", "mps", "openvino"):
            self.assertIsInstance(hw.get(name), bool, name)
        self.assertIsInstance(d["torch_device"], str)
        self.assertTrue(is_torch_device(d["torch_device"]), d["torch_device"])


class HardwareTests(ServerTest):
    SELECT_KEYS = (
        "model_family",
        "model_name",
        "model_size",
        "model_size_category",
        "batch_size",
        "sequence_length",
        "precision",
        "mode",
        "primary_recommendation",
        "fallback_options",
        "compatible_hardware",
        "explanation",
        "prediction_source",
        "all_scores",
    )

    def test_select_hardware(self) -> None:
        r = self.client.select_hardware(
            "bert-base-uncased",
            batch_size=16,
            sequence_length=128,
            mode="inference",
            precision="fp32",
            available_hardware=["cpu", "cuda"],
        )
        for key in self.SELECT_KEYS:
            self.assertIn(key, r)
        self.assertIn(r["primary_recommendation"], ["cpu", "cuda"])
        self.assertIsInstance(r["fallback_options"], list)
        self.assertTrue(set(r["fallback_options"]) <= {"cpu", "cuda"}, r["fallback_options"])
        self.assertNotIn(r["primary_recommendation"], r["fallback_options"])
        self.assertIn(r["primary_recommendation"], r["compatible_hardware"])
        self.assertEqual(r["model_family"], "embedding")
        self.assertEqual(r["batch_size"], 16)
        self.assertEqual(r["sequence_length"], 128)
        self.assertEqual(r["mode"], "inference")
        self.assertEqual(r["precision"], "fp32")
        self.assertIsInstance(r["model_size"], int)
        self.assertGreater(r["model_size"], 50_000_000)
        self.assertIsInstance(r["explanation"], str)
        self.assertIsInstance(r["all_scores"], dict)

    def test_select_hardware_single_string(self) -> None:
        r = self.client.select_hardware("gpt2", available_hardware="cpu")
        self.assertEqual(r["primary_recommendation"], "cpu")

    def test_batch_select(self) -> None:
        models: List[Union[str, Dict[str, str]]] = [
            {"name": "bert-base-uncased", "family": "embedding"},
            {"name": "gpt2", "family": "text_generation"},
            "t5-small",
        ]
        r = self.client.batch_select(models, batch_size=1, mode="inference", available_hardware=["cpu", "cuda"])
        self.assertEqual(len(r), 3, r)
        for name in ("bert-base-uncased", "gpt2", "t5-small"):
            self.assertIn(name, r)
            entry = r[name]
            self.assertIn(entry["primary"], ["cpu", "cuda"])
            self.assertIsInstance(entry["fallbacks"], list)
            self.assertIsInstance(entry["explanation"], str)

    def test_select_hardware_for_models_alias(self) -> None:
        models = [
            {"name": "bert-base-uncased", "family": "embedding"},
            {"name": "gpt2", "family": "text_generation"},
            {"name": "t5-small", "family": "text_generation"},
        ]
        r = self.client.select_hardware_for_models(models)
        self.assertEqual(sorted(r), ["bert-base-uncased", "gpt2", "t5-small"])
        for entry in r.values():
            self.assertIn("primary", entry)
            self.assertIn("fallbacks", entry)

    def test_create_hardware_map(self) -> None:
        r = self.client.create_hardware_map(
            model_families=["embedding", "vision"], batch_sizes=[1, 8], hardware_platforms=["cpu", "cuda"]
        )
        families = r["model_families"]
        self.assertIn("embedding", families)
        self.assertIn("vision", families)
        batch_sizes = families["embedding"]["inference"]["batch_sizes"]
        self.assertIn("1", batch_sizes)
        self.assertIn("8", batch_sizes)
        self.assertIn("model_sizes", families["embedding"])
        primaries = [p for p in walk(r, "primary") if p is not None]
        self.assertTrue(primaries)
        self.assertTrue(set(primaries) <= {"cpu", "cuda"}, set(primaries))


class PerformanceTests(ServerTest):
    def test_predict_performance(self) -> None:
        r = self.client.predict_performance("bert-base-uncased", ["cpu", "cuda"], batch_size=16)
        self.assertIn("model_name", r)
        preds = r["predictions"]
        for hw in ("cpu", "cuda"):
            self.assertIn(hw, preds)
            p = preds[hw]
            for metric in ("throughput", "latency", "memory_usage"):
                self.assertIsInstance(p[metric], (int, float), f"{hw}.{metric}")
                self.assertGreater(p[metric], 0, f"{hw}.{metric}")
            self.assertIsInstance(p["source"], str)
            self.assertTrue(p["source"])
        # The cuda reference device (a data-centre GPU) outruns a CPU.
        self.assertGreater(preds["cuda"]["throughput"], preds["cpu"]["throughput"])

    def test_predict_performance_single_hardware_string(self) -> None:
        r = self.client.predict_performance("gpt2", hardware="cpu")
        self.assertIn("cpu", r["predictions"])

    def test_predict_performance_runtime_and_learned_source(self) -> None:
        r = self.client.predict_performance("Llama 3 8B", devices="rtx 4090", precision="q4_k_m")
        p = r["predictions"]["nvidia-rtx-4090"]
        self.assertEqual(p["runtime"], "llama.cpp")
        self.assertEqual(p["source"], "learned")
        self.assertGreater(p["analytic_throughput"], 0)
        r = self.client.predict_performance("gpt2", "cuda", runtime="pytorch")
        self.assertEqual(r["predictions"]["cuda"]["runtime"], "pytorch")

    def test_predict_performance_on_part_of_a_cpu(self) -> None:
        whole = self.client.predict_performance("Llama 3 8B", devices="EPYC 9654", precision="q4_k_m")
        part = self.client.predict_performance("Llama 3 8B", devices="EPYC 9654", precision="q4_k_m", threads=4)
        p = part["predictions"]["amd-epyc-9654"]
        self.assertEqual(p["device"], "AMD EPYC 9654 (Genoa) (4 of 96 cores)")
        self.assertLess(p["throughput"], whole["predictions"]["amd-epyc-9654"]["throughput"])
        with self.assertRaises(HwfitError) as raised:
            self.client.predict_performance("gpt2", devices="H100 SXM", threads=8)
        self.assertIn("no target is a CPU", str(raised.exception))

    def test_predict_performance_prompt_chunk(self) -> None:
        # A 2048-token prompt of a mixture of experts in llama.cpp's 512-token physical batches:
        # four passes, each reading the experts its tokens reach; in one pass it reads them once.
        ask = dict(devices="DGX Spark", precision="q8_0", workload="prefill", sequence_length=2048)
        chunked = self.client.predict_performance("Qwen/Qwen3-30B-A3B", **ask)
        p = chunked["predictions"]["nvidia-dgx-spark"]
        self.assertEqual(p["prompt_passes"], {"chunk": 512, "passes": 4})
        whole = self.client.predict_performance("Qwen/Qwen3-30B-A3B", prompt_chunk=2048, **ask)
        q = whole["predictions"]["nvidia-dgx-spark"]
        self.assertEqual(q["prompt_passes"], {"chunk": 2048, "passes": 1})
        self.assertGreater(q["throughput"], p["throughput"])
        with self.assertRaises(HwfitError) as raised:
            self.client.predict_performance("Qwen/Qwen3-30B-A3B", prompt_chunk=0, **ask)
        self.assertIn("prompt_chunk", str(raised.exception))

    def test_training_in_mixed_precision_or_pure(self) -> None:
        # A bf16 training step is mixed precision unless asked pure: fp32 weights, gradients and
        # AdamW state (18 bytes per parameter) against all of them at bf16 (8), and the mixed
        # step streams the fp32 optimizer state and autocast's casts.
        ask = dict(devices="H100 SXM", precision="bf16", mode="training", batch_size=1, sequence_length=512)
        mixed = self.client.predict_performance("meta-llama/Llama-3.2-1B", **ask)
        pure = self.client.predict_performance("meta-llama/Llama-3.2-1B", mixed_precision=False, **ask)
        self.assertIs(mixed["mixed_precision"], True)
        self.assertIs(pure["mixed_precision"], False)
        m, p = mixed["predictions"]["nvidia-h100-sxm"], pure["predictions"]["nvidia-h100-sxm"]
        self.assertGreater(m["memory_usage"], p["memory_usage"])
        self.assertGreater(m["latency"], p["latency"])
        ram = {
            flag: self.client.estimate_resources(
                "meta-llama/Llama-3.2-1B", hardware="cuda", mixed_precision=flag, **{k: v for k, v in ask.items() if k != "devices"}
            )["resource_requirements"]
            for flag in (True, False)
        }
        self.assertIs(ram[False]["mixed_precision"], False)
        b = ram[True]["breakdown"]
        self.assertAlmostEqual(b["optimizer_state_mb"], 2 * b["gradients_mb"], delta=1)

    def test_get_distributed_config(self) -> None:
        r = self.client.get_distributed_config("gpt2", 8, 16)
        for key in (
            "distributed_strategy",
            "gpu_count",
            "per_gpu_batch_size",
            "global_batch_size",
            "gradient_accumulation_steps",
            "mixed_precision",
            "estimated_memory",
        ):
            self.assertIn(key, r)
        self.assertEqual(r["gpu_count"], 8)
        self.assertEqual(r["global_batch_size"], 8 * r["per_gpu_batch_size"] * r["gradient_accumulation_steps"], r)
        self.assertIsInstance(r["distributed_strategy"], str)

    def test_get_distributed_training_config_alias(self) -> None:
        r = self.client.get_distributed_training_config(model_name="gpt2", gpu_count=8, batch_size=16, max_memory_gb=16)
        self.assertEqual(r["global_batch_size"], 8 * r["per_gpu_batch_size"] * r["gradient_accumulation_steps"])

    def test_analyze_model(self) -> None:
        r = self.client.analyze_model("bert-base-uncased", batch_sizes=[1, 8], hardware_platforms=["cpu", "cuda"])
        self.assertIn("model_name", r)
        inference = r["inference"]
        self.assertIn("performance", inference)
        self.assertIn("recommendations", inference)
        self.assertIn("1", inference["performance"])
        self.assertIn("8", inference["recommendations"])
        cell = inference["performance"]["1"]["cpu"]
        self.assertGreater(cell["throughput"], 0)


class QuestionTests(ServerTest):
    def test_the_question_table_is_the_servers(self) -> None:
        served = self.client.request("GET", "/questions")
        mine = [
            {"name": q.name, "python": q.python, "method": q.method, "path": q.path,
             "targeted": q.targeted, "aliases": list(q.aliases), "summary": q.summary}
            for q in self.client.questions()
        ]
        theirs = [{k: q[k] for k in ("name", "python", "method", "path", "targeted", "aliases", "summary")} for q in served]
        self.assertEqual(mine, theirs, "hwfit_client/questions.py is out of date with hwfit questions --json")

    def test_every_question_is_a_method_and_ask_takes_every_spelling(self) -> None:
        for q in self.client.questions():
            self.assertTrue(callable(getattr(self.client, q.python)), q.python)
        pool = self.client.resource_pool(models=["gpt2"], hardware=["cpu"])
        self.assertEqual(pool, self.client.ask("resource-config", {"models": ["gpt2"], "hardware": ["cpu"]}))
        self.assertEqual(pool, self.client.ask("resource_pool", models=["gpt2"], hardware="cpu"))
        self.assertEqual(pool, self.client.ask("resourcePool", models=["gpt2"], hardware=["cpu"]))
        devices = self.client.devices(hardware="rocm")
        self.assertTrue(devices and all(d["hardware_type"] == "rocm" for d in devices))
        self.assertIn("embedding", self.client.compatibility()["model_families"])
        with self.assertRaises(ValueError):
            self.client.ask("no-such-question")
        with self.assertRaises(NotFoundError):
            self.client.select(model_name="no-such-model-xyz", hardware=["cpu"])


class CatalogTests(ServerTest):
    def test_classify_model(self) -> None:
        r = self.client.classify_model("bert-base-uncased")
        self.assertEqual(r["family"], "embedding")
        self.assertIsInstance(r["confidence"], (int, float))
        r = self.client.classify_model("openai/whisper-small", tasks="automatic-speech-recognition")
        self.assertEqual(r["family"], "audio")

    def test_list_models(self) -> None:
        all_models = items(self.client.list_models(), "models")
        self.assertGreater(len(all_models), 10)
        for m in all_models:
            self.assertIn("name", m)
            self.assertIn("family", m)
        multimodal = items(self.client.list_models(family="multimodal"), "models")
        self.assertTrue(multimodal)
        self.assertLess(len(multimodal), len(all_models))
        self.assertTrue(all(m["family"] == "multimodal" for m in multimodal))

    def test_list_devices(self) -> None:
        all_devices = items(self.client.list_devices(), "devices")
        self.assertGreater(len(all_devices), 10)
        for d in all_devices:
            self.assertIn("id", d)
            self.assertIn("hardware_type", d)
        cuda = items(self.client.list_devices(hardware="cuda"), "devices")
        self.assertTrue(cuda)
        self.assertLess(len(cuda), len(all_devices))
        self.assertTrue(all(d["hardware_type"] == "cuda" for d in cuda))
        database = items(self.client.list_devices(all=True), "devices")
        self.assertGreaterEqual(len(database), 2000)
        found = items(self.client.list_devices(query="rtx 3080 ti"), "devices")
        self.assertIn("nvidia-geforce-rtx-3080-ti", [d["id"] for d in found])
        self.assertTrue(all("3080" in d["name"] for d in found))

    def test_predict_on_a_device_spec(self) -> None:
        spec = {"name": "Lab Box", "hardware_type": "cuda", "memory_gb": 48, "memory_bandwidth_gbs": 864,
                "dense_tflops": {"fp32": 91.6, "fp16": 181}}
        r = self.client.predict_performance("gpt2", device_spec=spec)
        self.assertGreater(r["predictions"]["spec-lab-box"]["throughput"], 0)
        with self.assertRaises(HwfitError) as caught:
            self.client.predict_performance("gpt2", device_spec={**spec, "memory_gb": 0})
        self.assertIn("device_spec.memory_gb", str(caught.exception))

    def test_predict_in_a_described_browser(self) -> None:
        words = "firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16"
        r = self.client.predict_performance("sentence-transformers/all-MiniLM-L6-v2", browser=words)
        self.assertEqual(sorted(r["predictions"]), ["wasm", "webgpu"])
        self.assertIn("RTX 3080", r["predictions"]["webgpu"]["device"])
        self.assertIn("4 threads", r["predictions"]["wasm"]["device"])
        facts = {"engine": "firefox", "wasm": True, "crossOriginIsolated": True, "hardwareConcurrency": 16,
                 "webgpu": {"vendor": "nvidia", "description": "NVIDIA GeForce RTX 3080"}}
        same = self.client.predict_performance("sentence-transformers/all-MiniLM-L6-v2", browser=facts)
        self.assertEqual(same["predictions"]["wasm"], r["predictions"]["wasm"])
        self.assertEqual(same["predictions"]["webgpu"]["throughput"], r["predictions"]["webgpu"]["throughput"])
        chosen = self.client.select_hardware("sentence-transformers/all-MiniLM-L6-v2", browser=words, batch_size=64)
        self.assertEqual(chosen["primary_recommendation"], "webgpu")
        with self.assertRaises(HwfitError) as caught:
            self.client.predict_performance("bert-base-uncased", browser="netscape")
        self.assertIn("not a browser fact", str(caught.exception))
        with self.assertRaises(TypeError):
            self.client.predict_performance("bert-base-uncased", browser=3)  # type: ignore[arg-type]

    def test_estimate_resources(self) -> None:
        r = self.client.estimate_resources("gpt2", hardware="cpu", precision="fp32", batch_size=2)
        req = r["resource_requirements"]
        for key in ("min_memory_mb", "recommended_memory_mb", "cpu_cores", "disk_space_mb"):
            self.assertGreater(req[key], 0, key)
        self.assertGreaterEqual(req["recommended_memory_mb"], req["min_memory_mb"])


class TorchDeviceTests(ServerTest):
    def test_get_torch_device(self) -> None:
        d = self.client.get_torch_device("bert-base-uncased", available_hardware=["cpu"])
        self.assertTrue(is_torch_device(d), d)
        self.assertEqual(d if isinstance(d, str) else d.type, "cpu")

    def test_get_optimal_device(self) -> None:
        d = self.client.get_optimal_device("bert-base-uncased", available_hardware=["cpu", "cuda"])
        self.assertTrue(is_torch_device(d), d)


class ErrorTests(ServerTest):
    def test_unknown_model_is_not_found_and_value_error(self) -> None:
        with self.assertRaises(NotFoundError) as ctx:
            self.client.select_hardware(UNKNOWN_MODEL)
        e = ctx.exception
        self.assertIsInstance(e, ValueError)
        self.assertIsInstance(e, HwfitError)
        self.assertEqual(e.status, 404)
        self.assertIn(UNKNOWN_MODEL, e.message)
        # The IPFS Accelerate client's idiom keeps working.
        try:
            self.client.predict_performance(UNKNOWN_MODEL, ["cpu"])
        except ValueError as caught:
            self.assertIsInstance(caught, NotFoundError)
        else:
            self.fail("predict_performance of an unknown model did not raise")

    def test_unknown_device_is_not_found(self) -> None:
        with self.assertRaises(NotFoundError) as ctx:
            self.client.predict_performance("gpt2", devices=["no-such-device-xyz"])
        self.assertEqual(ctx.exception.status, 404)

    def test_zero_batch_size_is_validation_error(self) -> None:
        with self.assertRaises(ValidationError) as ctx:
            self.client.select_hardware("bert-base-uncased", batch_size=0)
        e = ctx.exception
        self.assertEqual(e.status, 422)
        self.assertIsInstance(e, ValueError)
        self.assertIn("batch_size", e.message)

    def test_wrong_type_is_validation_error(self) -> None:
        with self.assertRaises(ValidationError) as ctx:
            self.client.select_hardware("bert-base-uncased", batch_size="sixteen")  # type: ignore[arg-type]
        self.assertIn("batch_size", ctx.exception.message)

    def test_unknown_field_is_validation_error(self) -> None:
        with self.assertRaises(ValidationError) as ctx:
            self.client.request("POST", "/hardware/select", {"model_name": "gpt2", "batch_sise": 4})
        self.assertIn("batch_sise", ctx.exception.message)

    def test_error_body_shape(self) -> None:
        with self.assertRaises(HwfitError) as ctx:
            self.client.select_hardware(UNKNOWN_MODEL)
        body = ctx.exception.body
        self.assertIsInstance(body, dict)
        self.assertEqual(body["status"], "error")
        self.assertEqual(body["message"], ctx.exception.message)

    def test_malformed_json_is_400(self) -> None:
        req = urllib.request.Request(
            shared_server().url + "/hardware/select",
            data=b'{"model_name": "gpt2",',
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with self.assertRaises(urllib.error.HTTPError) as ctx:
            opener.open(req, timeout=REQUEST_TIMEOUT)
        self.assertEqual(ctx.exception.code, 400)
        body = json.loads(ctx.exception.read())
        ctx.exception.close()
        self.assertEqual(body["status"], "error")
        self.assertTrue(body["message"])

    def test_body_too_large_is_413(self) -> None:
        with self.assertRaises(PayloadTooLargeError) as ctx:
            self.client.select_hardware("x" * (3 * 1024 * 1024))
        self.assertEqual(ctx.exception.status, 413)

    def test_unreachable_server_fails_fast(self) -> None:
        client = HardwareSelectionClient(f"http://127.0.0.1:{free_port()}", timeout=2)
        start = time.monotonic()
        with self.assertRaises(ConnectionFailed) as ctx:
            client.health()
        self.assertLess(time.monotonic() - start, 3)
        self.assertIsNone(ctx.exception.status)
        self.assertIn("127.0.0.1", str(ctx.exception))


class BenchmarkDatabaseTests(unittest.TestCase):
    """A server reading a benchmark database that ``hwfit db import`` wrote."""

    server: ServerProcess

    @classmethod
    def setUpClass(cls) -> None:
        cls.dir = tempfile.TemporaryDirectory()
        db = str(Path(cls.dir.name) / "bench.sqlite")
        csv = Path(__file__).resolve().parents[3] / "data" / "measured" / "llm_tokens_per_second.csv"
        subprocess.run([find_binary(), "db", "import", str(csv), "--database", db], check=True, capture_output=True)
        cls.server = ServerProcess("--database", db).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.close()
        cls.dir.cleanup()

    def test_list_and_stats(self) -> None:
        client = HardwareSelectionClient(self.server.url, timeout=REQUEST_TIMEOUT)
        self.assertTrue(client.health()["database_connected"])
        stats = client.benchmark_stats()
        self.assertGreater(stats["records"], 50)
        rows = client.list_benchmarks(model="llama", hardware="cuda", limit=5)
        self.assertEqual(len(rows), 5)
        for row in rows:
            self.assertIn("llama", row["model_name"].lower())
            self.assertEqual(row["hardware_type"], "cuda")
            self.assertTrue(row["runtime"])
            self.assertGreater(row["throughput"], 0)
            self.assertTrue(row["source"])

    def test_no_database_is_503(self) -> None:
        client = HardwareSelectionClient(shared_server().url, timeout=REQUEST_TIMEOUT)
        with self.assertRaises(HwfitError) as ctx:
            client.list_benchmarks()
        self.assertEqual(ctx.exception.status, 503)


class AuthTests(unittest.TestCase):
    server: ServerProcess

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = ServerProcess("--api-key", API_KEY).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.close()

    def test_health_is_open(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("HWFIT_API_KEY", None)
            client = HardwareSelectionClient(self.server.url, timeout=REQUEST_TIMEOUT)
            self.assertIsNone(client.api_key)
            self.assertEqual(client.health()["status"], "healthy")

    def test_missing_key_is_401(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("HWFIT_API_KEY", None)
            client = HardwareSelectionClient(self.server.url, timeout=REQUEST_TIMEOUT)
        with self.assertRaises(AuthenticationError) as ctx:
            client.select_hardware("gpt2", available_hardware=["cpu"])
        self.assertEqual(ctx.exception.status, 401)
        self.assertTrue(ctx.exception.message)
        self.assertNotIsInstance(ctx.exception, ValueError)

    def test_wrong_key_is_401(self) -> None:
        client = HardwareSelectionClient(self.server.url, timeout=REQUEST_TIMEOUT, api_key="wrong")
        with self.assertRaises(AuthenticationError):
            client.predict_performance("gpt2", "cpu")

    def test_right_key(self) -> None:
        client = HardwareSelectionClient(self.server.url, timeout=REQUEST_TIMEOUT, api_key=API_KEY)
        r = client.select_hardware("gpt2", available_hardware=["cpu"])
        self.assertEqual(r["primary_recommendation"], "cpu")
        self.assertEqual(client.health()["status"], "healthy")

    def test_key_from_environment(self) -> None:
        with mock.patch.dict(os.environ, {"HWFIT_API_KEY": API_KEY}):
            client = HardwareSelectionClient(self.server.url, timeout=REQUEST_TIMEOUT)
        self.assertEqual(client.api_key, API_KEY)
        self.assertIn("predictions", client.predict_performance("gpt2", "cpu"))


class RecordingServer:
    """A stdlib HTTP server on 127.0.0.1 that records each request and answers ``{}``."""

    def __init__(self) -> None:
        import http.server

        self.requests: List[Dict[str, Any]] = []
        recorded = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                recorded.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": json.loads(raw) if raw else None,
                    }
                )
                payload = b"{}"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = _answer  # noqa: N815
            do_POST = _answer  # noqa: N815

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def last(self) -> Dict[str, Any]:
        return self.requests[-1]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeTorchDevice:
    """Stands in for torch.device: a ``type`` and an ``index``."""

    def __init__(self, kind: str, index: Optional[int] = None) -> None:
        self.type = kind
        self.index = index

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"


class RequestShapeTests(unittest.TestCase):
    """What the client sends, checked on a recording server (no hwfit needed)."""

    recorder: RecordingServer
    client: HardwareSelectionClient

    @classmethod
    def setUpClass(cls) -> None:
        cls.recorder = RecordingServer()
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("HWFIT_API_KEY", None)
            cls.client = HardwareSelectionClient(cls.recorder.url, timeout=5)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.recorder.close()

    def test_none_fields_are_left_out_and_strings_wrapped(self) -> None:
        self.client.select_hardware("gpt2", available_hardware="cpu", batch_size=None, devices="RTX 4090")
        req = self.recorder.last()
        self.assertEqual((req["method"], req["path"]), ("POST", "/hardware/select"))
        self.assertEqual(req["body"], {"model_name": "gpt2", "available_hardware": ["cpu"], "devices": ["RTX 4090"]})
        self.assertEqual(req["headers"]["content-type"], "application/json")
        self.assertNotIn("authorization", req["headers"])

    def test_batch_models_wrapped(self) -> None:
        self.client.batch_select(
            ["gpt2", {"name": "vit-base-patch16-224", "family": "vision", "model_config": None}],
            mode="inference",
            batch_size=None,
            available_hardware="cuda",
        )
        self.assertEqual(
            self.recorder.last()["body"],
            {
                "models": [{"name": "gpt2"}, {"name": "vit-base-patch16-224", "family": "vision"}],
                "mode": "inference",
                "available_hardware": ["cuda"],
            },
        )
        with self.assertRaises(TypeError):
            self.client.batch_select([{"family": "vision"}])

    def test_predict_hardware_forms(self) -> None:
        self.client.predict_performance("gpt2", "cuda")
        self.assertEqual(self.recorder.last()["body"], {"model_name": "gpt2", "hardware": ["cuda"]})
        self.client.predict_performance("gpt2", FakeTorchDevice("cuda", 0), workload="decode")
        self.assertEqual(
            self.recorder.last()["body"], {"model_name": "gpt2", "hardware": ["cuda"], "workload": "decode"}
        )
        self.client.predict_performance("gpt2", ("cpu", FakeTorchDevice("mps")))
        self.assertEqual(self.recorder.last()["body"]["hardware"], ["cpu", "mps"])
        self.client.predict_performance("gpt2")
        self.assertEqual(self.recorder.last()["body"], {"model_name": "gpt2"})

    def test_other_bodies(self) -> None:
        self.client.get_distributed_training_config("gpt2", 8, 16, max_memory_gb=16)
        self.assertEqual(self.recorder.last()["path"], "/training/distributed")
        self.assertEqual(
            self.recorder.last()["body"], {"model_name": "gpt2", "gpu_count": 8, "batch_size": 16, "max_memory_gb": 16}
        )
        self.client.create_hardware_map()
        self.assertEqual((self.recorder.last()["path"], self.recorder.last()["body"]), ("/hardware/map", {}))
        self.client.analyze_model("bert-base-uncased", batch_sizes=8)
        self.assertEqual(self.recorder.last()["body"], {"model_name": "bert-base-uncased", "batch_sizes": [8]})
        self.client.classify_model("openai/whisper-small", tasks="automatic-speech-recognition")
        self.assertEqual(
            (self.recorder.last()["path"], self.recorder.last()["body"]),
            ("/models/classify", {"model_name": "openai/whisper-small", "tasks": ["automatic-speech-recognition"]}),
        )
        self.client.estimate_resources("gpt2", hardware=FakeTorchDevice("cuda", 1), precision="fp16")
        self.assertEqual(
            (self.recorder.last()["path"], self.recorder.last()["body"]),
            ("/resources", {"model_name": "gpt2", "hardware": "cuda", "precision": "fp16"}),
        )

    def test_model_config_from_path(self) -> None:
        config = {"model_type": "gpt2", "n_layer": 2}
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "config.json"
            path.write_text(json.dumps(config))
            self.client.select_hardware("tiny-gpt2", model_config=path)
        self.assertEqual(self.recorder.last()["body"], {"model_name": "tiny-gpt2", "model_config": config})
        self.client.predict_performance("tiny-gpt2", model_config=config)
        self.assertEqual(self.recorder.last()["body"]["model_config"], config)

    def test_model_config_infinities_are_sent_as_null(self) -> None:
        # transformers writes Python's Infinity into config.json (Nemotron-H's time_step_limit).
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "config.json"
            path.write_text('{"model_type": "nemotron_h", "time_step_limit": [0.0, Infinity], "x": NaN}')
            self.client.predict_performance("nemotron", model_config=path)
        self.assertEqual(
            self.recorder.last()["body"]["model_config"],
            {"model_type": "nemotron_h", "time_step_limit": [0.0, None], "x": None},
        )

    def test_queries(self) -> None:
        self.client.list_models()
        self.assertEqual((self.recorder.last()["method"], self.recorder.last()["path"]), ("GET", "/models"))
        self.client.list_models(family="text_generation")
        self.assertEqual(self.recorder.last()["path"], "/models?family=text_generation")
        self.client.list_devices(hardware="cuda")
        self.assertEqual(self.recorder.last()["path"], "/devices?hardware=cuda")
        self.client.detect_hardware()
        self.assertEqual(self.recorder.last()["path"], "/hardware/detect")
        self.assertIsNone(self.recorder.last()["body"])

    def test_api_key_header(self) -> None:
        client = HardwareSelectionClient(self.recorder.url, api_key="k3y")
        client.health()
        self.assertEqual(self.recorder.last()["headers"]["authorization"], "Bearer k3y")
        with mock.patch.dict(os.environ, {"HWFIT_API_KEY": "from-env"}):
            HardwareSelectionClient(self.recorder.url).list_devices()
        self.assertEqual(self.recorder.last()["headers"]["authorization"], "Bearer from-env")
        self.assertNotIn("k3y", repr(client))


class OfflineTests(unittest.TestCase):
    """Client behaviour that needs no hwfit server."""

    def test_torch_device_string(self) -> None:
        cases: List[Tuple[str, str]] = [
            ("cuda", "cuda"),
            ("CUDA", "cuda"),
            ("cuda:1", "cuda:1"),
            ("rocm", "cuda"),
            ("rocm:0", "cuda:0"),
            ("mps", "mps"),
            ("cpu", "cpu"),
            ("openvino", "cpu"),
            ("qnn", "cpu"),
            ("webgpu", "cpu"),
            ("wasm", "cpu"),
        ]
        for recommendation, expected in cases:
            self.assertEqual(torch_device_string(recommendation), expected, recommendation)
        with self.assertRaises(HwfitError):
            torch_device_string("")

    def test_read_timeout_is_connection_failed(self) -> None:
        # A socket that accepts connections but never answers.
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(4)
            port = listener.getsockname()[1]
            client = HardwareSelectionClient(f"http://127.0.0.1:{port}", timeout=0.5)
            start = time.monotonic()
            with self.assertRaises(ConnectionFailed) as ctx:
                client.health()
            self.assertLess(time.monotonic() - start, 3)
            self.assertIsNone(ctx.exception.status)

    def test_non_json_error_body_is_readable(self) -> None:
        import http.server

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                payload = b"<html><body><h1>502 Bad Gateway</h1> upstream down</body></html>"
                self.send_response(502)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        try:
            client = HardwareSelectionClient(f"http://127.0.0.1:{httpd.server_address[1]}", timeout=5)
            with self.assertRaises(HwfitError) as ctx:
                client.health()
            e = ctx.exception
            self.assertEqual(e.status, 502)
            self.assertEqual(type(e).__name__, "ServerError")
            self.assertIn("502 Bad Gateway", e.message)
            self.assertIn("upstream down", e.message)
            self.assertNotIn("<", e.message)
        finally:
            httpd.shutdown()
            httpd.server_close()

    def test_no_recommendation_raises(self) -> None:
        client = HardwareSelectionClient("http://127.0.0.1:9")
        answer = {"primary_recommendation": None, "explanation": "nothing fits"}
        with mock.patch.object(client, "select_hardware", return_value=answer), self.assertRaises(HwfitError) as ctx:
            client.get_torch_device("llama-3-70b", available_hardware=["webgpu"])
        self.assertIn("nothing fits", ctx.exception.message)

    def test_device_recommendation_uses_its_hardware_type(self) -> None:
        client = HardwareSelectionClient("http://127.0.0.1:9")
        answer = {
            "primary_recommendation": "nvidia-rtx-4090",
            "all_scores": {"nvidia-rtx-4090": {"hardware_type": "cuda"}, "apple-m2-max-38c": {"hardware_type": "mps"}},
        }
        with mock.patch.object(client, "select_hardware", return_value=answer):
            device = client.get_optimal_device("gpt2", devices=["RTX 4090", "M2 Max"])
        self.assertEqual(device if isinstance(device, str) else device.type, "cuda")

    def test_errors_pickle(self) -> None:
        import pickle

        e = pickle.loads(pickle.dumps(NotFoundError("unknown model 'x'", 404, body={"status": "error"})))
        self.assertIsInstance(e, NotFoundError)
        self.assertEqual((e.status, e.message, e.body), (404, "unknown model 'x'", {"status": "error"}))

    def test_package_version_matches_pyproject(self) -> None:
        import hwfit_client

        root = Path(__file__).resolve().parent.parent
        sys.path.insert(0, str(root / "_build_backend"))
        try:
            import hwfit_build  # type: ignore[import-not-found]  # the package's own build backend
        finally:
            sys.path.remove(str(root / "_build_backend"))
        text = (root / "pyproject.toml").read_text()
        table = hwfit_build.project()
        self.assertEqual(table["version"], hwfit_client.__version__)
        self.assertEqual(table["name"], "hwfit-client")
        self.assertEqual(hwfit_build._parse_project_subset(text), hwfit_build._parse_project_table(text))

    def test_base_url_normalised(self) -> None:
        self.assertEqual(HardwareSelectionClient("localhost:9000/").base_url, "http://localhost:9000")
        with self.assertRaises(ValueError):
            HardwareSelectionClient("ftp://example.invalid")


if __name__ == "__main__":
    unittest.main()

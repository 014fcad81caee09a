"""Tests of the PyTorch benchmark runner, ``python -m hwfit_client.bench``.

Most tests need only the standard library: statistics, record building,
argument checks, default workloads, the message without torch, packaging. The
real-run test builds a tiny Llama on the CPU and runs prefill, decode and a
train step; it is skipped, saying why, when torch and transformers do not
import in this interpreter. Run from the repository root::

    python3 -m unittest discover -s clients/python/tests -v

The package is imported from the source tree (``clients/python``) unless
``HWFIT_CLIENT_INSTALLED=1`` asks for the installed one.
"""

import contextlib
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

CLIENT_DIR = Path(__file__).resolve().parent.parent
if os.environ.get("HWFIT_CLIENT_INSTALLED") != "1":
    sys.path.insert(0, str(CLIENT_DIR))

from hwfit_client import bench  # noqa: E402

REPO_ROOT = CLIENT_DIR.parent.parent
CONFIGS = REPO_ROOT / "crates" / "hwfit-core" / "data" / "models" / "configs"

#: The record keys the Rust side accepts (deny_unknown_fields): a change here is a schema change.
ALLOWED_KEYS = {
    "model_name",
    "model_family",
    "model_parameters_m",
    "device",
    "device_name",
    "device_count",
    "hardware_type",
    "runtime",
    "runtime_version",
    "execution",
    "math_mode",
    "precision",
    "workload",
    "batch_size",
    "sequence_length",
    "throughput",
    "throughput_unit",
    "latency_mean_ms",
    "latency_p50_ms",
    "latency_p90_ms",
    "memory_mb",
    "memory_device_mb",
    "warmup_runs",
    "timed_runs",
    "source",
    "host",
    "measured_at",
    "notes",
}

TINY_LLAMA: Dict[str, Any] = {
    "model_type": "llama",
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "vocab_size": 256,
    "max_position_embeddings": 128,
    "torch_dtype": "bfloat16",
}
TINY_BERT: Dict[str, Any] = {
    "model_type": "bert",
    "architectures": ["BertModel"],
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 128,
    "vocab_size": 256,
    "max_position_embeddings": 64,
}
TINY_VIT: Dict[str, Any] = {"model_type": "vit", "architectures": ["ViTModel"], "image_size": 32, "patch_size": 8}


def python_env() -> Dict[str, str]:
    """The environment of a child Python that imports this source tree's package."""
    env = dict(os.environ)
    if os.environ.get("HWFIT_CLIENT_INSTALLED") != "1":
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CLIENT_DIR), env.get("PYTHONPATH")]))
    return env


@contextlib.contextmanager
def config_file(config: Dict[str, Any], name: str = "model.json") -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(json.dumps(config), encoding="utf-8")
        yield str(path)


def parse_error(argv: List[str]) -> Tuple[int, str]:
    """Exit code and stderr of ``parse_args(argv)``, which must fail."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), unittest.TestCase().assertRaises(SystemExit) as ctx:
        bench.parse_args(argv)
    return int(ctx.exception.code or 0), err.getvalue()


class StatisticsTests(unittest.TestCase):
    def test_percentile_is_nearest_rank_like_the_rust_runners(self) -> None:
        runs = [3.0, 1.0, 2.0, 5.0, 4.0]
        self.assertEqual(bench.percentile(runs, 0.5), 3.0)
        self.assertEqual(bench.percentile(runs, 0.9), 5.0)  # round(4 * 0.9) = 4
        self.assertEqual(bench.percentile(runs, 0.0), 1.0)
        self.assertEqual(bench.percentile(runs, 1.0), 5.0)
        self.assertEqual(bench.percentile([1.0, 2.0, 3.0, 4.0], 0.5), 3.0)  # index 1.5 rounds up
        self.assertEqual(bench.percentile([7.0], 0.9), 7.0)
        with self.assertRaises(ValueError):
            bench.percentile([], 0.5)
        with self.assertRaises(ValueError):
            bench.percentile([1.0], 1.5)

    def test_summarize(self) -> None:
        timing = bench.summarize([3.0, 4.0, 5.0, 6.0, 7.0], warmup_runs=2)
        self.assertEqual((timing.p50_ms, timing.p90_ms, timing.mean_ms), (5.0, 7.0, 5.0))
        self.assertEqual((timing.timed_runs, timing.warmup_runs), (5, 2))
        for bad in ([], [1.0, float("nan")], [-1.0]):
            with self.assertRaises(ValueError):
                bench.summarize(bad)

    def test_time_runs_takes_warmup_min_max_and_budget(self) -> None:
        calls: List[int] = []

        def step() -> float:
            calls.append(1)
            return float(len(calls))

        timing = bench.time_runs(step, warmup=2, min_runs=5, max_runs=5, budget_ms=1e9)
        self.assertEqual(len(calls), 7)
        self.assertEqual(timing.runs_ms, (3.0, 4.0, 5.0, 6.0, 7.0))
        self.assertEqual((timing.p50_ms, timing.p90_ms, timing.mean_ms), (5.0, 7.0, 5.0))

        # A budget already spent: min_runs and no more.
        now = [0.0]

        def clock() -> float:
            now[0] += 1.0  # every look at the clock: one second later
            return now[0]

        calls.clear()
        timing = bench.time_runs(step, warmup=0, min_runs=3, max_runs=15, budget_ms=10.0, clock=clock)
        self.assertEqual(timing.timed_runs, 3)
        # An open budget: up to max_runs.
        calls.clear()
        timing = bench.time_runs(step, warmup=1, min_runs=1, max_runs=4, budget_ms=1e12, clock=clock)
        self.assertEqual(timing.timed_runs, 4)


class RecordTests(unittest.TestCase):
    def fields(self, **extra: Any) -> Dict[str, Any]:
        base: Dict[str, Any] = {
            "model_name": "HuggingFaceTB/SmolLM2-135M-Instruct",
            "model_family": "text_generation",
            "model_parameters_m": 134.515008,
            "device": "cpu",
            "device_name": "AMD EPYC",
            "device_count": 1,
            "hardware_type": "cpu",
            "runtime": "PyTorch",
            "runtime_version": "2.5.1",
            "execution": "eager",
            "math_mode": "fp32",
            "precision": "fp32",
            "workload": "prefill",
            "batch_size": 1,
            "sequence_length": 16,
            "throughput": 321.5,
            "throughput_unit": "tokens/s",
            "latency_mean_ms": 50.1,
            "latency_p50_ms": 49.8,
            "latency_p90_ms": 52.0,
            "memory_mb": None,
            "memory_device_mb": 600.25,
            "warmup_runs": 0,
            "timed_runs": 3,
            "source": bench.SOURCE,
            "host": {"cpu": "AMD EPYC", "gpu": None, "threads": 2},
            "measured_at": "2026-01-01T00:00:00.000000Z",
            "notes": "random weights",
        }
        base.update(extra)
        return base

    def test_keys_are_the_allowed_set(self) -> None:
        self.assertEqual(set(bench.RECORD_KEYS), ALLOWED_KEYS)
        self.assertEqual(len(bench.RECORD_KEYS), len(ALLOWED_KEYS))

    def test_record_drops_none_and_keeps_key_order(self) -> None:
        record = bench.build_record(self.fields())
        self.assertNotIn("memory_mb", record)
        self.assertNotIn(None, record.values())
        self.assertEqual(record["host"], {"cpu": "AMD EPYC", "threads": 2})
        self.assertLessEqual(set(record), ALLOWED_KEYS)
        order = [k for k in bench.RECORD_KEYS if k in record]
        self.assertEqual(list(record), order)
        self.assertEqual(record["warmup_runs"], 0)
        json.dumps(record, allow_nan=False)

    def test_record_rejects_bad_fields(self) -> None:
        bad: List[Dict[str, Any]] = [
            {"unknown_key": 1},
            {"model_name": ""},
            {"runtime": None},  # required
            {"throughput": float("nan")},
            {"throughput": float("inf")},
            {"latency_p50_ms": 0.0},
            {"memory_device_mb": -1.0},
            {"throughput": True},
            {"batch_size": 0},
            {"batch_size": 1.5},
            {"timed_runs": 0},
            {"warmup_runs": -1},
            {"host": "a string"},
        ]
        for change in bad:
            with self.subTest(change=change), self.assertRaises(ValueError):
                bench.build_record(self.fields(**change))

    def test_small_positive_numbers_stay_positive(self) -> None:
        record = bench.build_record(self.fields(memory_device_mb=1e-9, throughput=123456789.123))
        self.assertGreater(record["memory_device_mb"], 0)
        self.assertEqual(record["throughput"], 123457000.0)  # six significant digits

    def test_now_is_rfc3339_utc(self) -> None:
        self.assertRegex(bench.now_rfc3339(), r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


class ModelTests(unittest.TestCase):
    def test_model_kinds(self) -> None:
        self.assertEqual(bench.model_kind(TINY_LLAMA), bench.CAUSAL_LM)
        gpt2 = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"]}
        self.assertEqual(bench.model_kind(gpt2), bench.CAUSAL_LM)
        self.assertEqual(bench.model_kind(TINY_BERT), bench.TEXT_ENCODER)
        self.assertEqual(bench.model_kind(TINY_VIT), bench.VISION)
        self.assertEqual(bench.model_kind({"model_type": "dinov2", "image_size": 518}), bench.VISION)
        for bad in (
            {"model_type": "whisper", "is_encoder_decoder": True},
            {"model_type": "siglip", "text_config": {}, "vision_config": {}},
            {"architectures": ["LlamaForCausalLM"]},
        ):
            with self.subTest(config=bad), self.assertRaises(ValueError):
                bench.model_kind(bad)

    def test_default_workloads(self) -> None:
        self.assertEqual(bench.default_workloads(TINY_LLAMA), ["prefill", "decode"])
        self.assertEqual(bench.default_workloads(TINY_BERT), ["forward"])
        self.assertEqual(bench.default_workloads(TINY_VIT), ["forward"])
        for config in (TINY_LLAMA, TINY_BERT, TINY_VIT):
            self.assertEqual(bench.default_workloads(config, "training"), ["train-step"])

    def test_default_workloads_of_the_catalog_configs(self) -> None:
        if not CONFIGS.is_dir():
            self.skipTest(f"no catalog configs at {CONFIGS}")
        smol = json.loads((CONFIGS / "HuggingFaceTB__SmolLM2-135M-Instruct.json").read_text())
        minilm = json.loads((CONFIGS / "sentence-transformers__all-MiniLM-L6-v2.json").read_text())
        vit = json.loads((CONFIGS / "google__vit-base-patch16-224-in21k.json").read_text())
        self.assertEqual(bench.default_workloads(smol), ["prefill", "decode"])
        self.assertEqual(bench.default_workloads(minilm), ["forward"])
        self.assertEqual(bench.default_workloads(vit), ["forward"])

    def test_default_model_name(self) -> None:
        self.assertEqual(bench.default_model_name({"_name_or_path": "org/model"}, "/x/y.json"), "org/model")
        # An id in the file's name wins over _name_or_path, which may name the base model.
        named = {"_name_or_path": "nreimers/MiniLM-L6-H384-uncased"}
        path = "/x/sentence-transformers__all-MiniLM-L6-v2.json"
        self.assertEqual(bench.default_model_name(named, path), "sentence-transformers/all-MiniLM-L6-v2")
        stem = bench.default_model_name({}, "/x/HuggingFaceTB__SmolLM2-135M.json")
        self.assertEqual(stem, "HuggingFaceTB/SmolLM2-135M")
        self.assertEqual(bench.default_model_name({}, "/x/gpt2.json"), "gpt2")
        self.assertEqual(bench.default_model_name({"_name_or_path": ""}, "/models/bert-tiny/config.json"), "bert-tiny")

    def test_cases_and_units(self) -> None:
        cases = bench.cases_for(bench.CAUSAL_LM, ["prefill", "decode"], [1, 4], [16, 64])
        self.assertEqual(len(cases), 8)
        self.assertEqual(cases[0], bench.Case("prefill", 1, 16))
        self.assertEqual(cases[-1], bench.Case("decode", 4, 64))
        vision = bench.cases_for(bench.VISION, ["forward"], [1, 4], [16, 64])
        self.assertEqual(vision, [bench.Case("forward", 1, None), bench.Case("forward", 4, None)])
        self.assertEqual(bench.throughput_unit("prefill", bench.CAUSAL_LM), "tokens/s")
        self.assertEqual(bench.throughput_unit("decode", bench.CAUSAL_LM), "tokens/s")
        self.assertEqual(bench.throughput_unit("forward", bench.TEXT_ENCODER), "items/s")
        self.assertEqual(bench.throughput_unit("train-step", bench.CAUSAL_LM), "samples/s")
        self.assertEqual(bench.throughput_unit("train-step", bench.VISION), "items/s")
        self.assertEqual(bench.items_per_step(bench.Case("prefill", 4, 64)), 256)
        self.assertEqual(bench.items_per_step(bench.Case("decode", 4, 64)), 4)
        self.assertEqual(bench.items_per_step(bench.Case("forward", 4, None)), 4)

    def test_host_facts_without_torch(self) -> None:
        facts = bench.base_host_facts()
        self.assertTrue(facts["cpu"])
        self.assertIsInstance(facts["python"], str)
        if facts.get("physical_cores") is not None:
            self.assertGreaterEqual(facts["physical_cores"], 1)


class ArgumentTests(unittest.TestCase):
    def test_defaults(self) -> None:
        with config_file(TINY_LLAMA, "HuggingFaceTB__Tiny.json") as path:
            args = bench.parse_args(["--config", path])
        self.assertEqual(args.workloads, ["prefill", "decode"])
        self.assertEqual((args.batch_sizes, args.seq_lengths), ([1, 4], [16, 64]))
        self.assertEqual((args.warmup, args.min_runs, args.max_runs, args.budget_ms), (2, 3, 15, 1500.0))
        self.assertEqual((args.hardware, args.precision, args.autocast, args.output), ("auto", "fp32", "none", "-"))
        self.assertEqual(args.model_name, "HuggingFaceTB/Tiny")
        self.assertFalse(args.compile)

    def test_lists_and_modes(self) -> None:
        with config_file(TINY_BERT) as path:
            args = bench.parse_args(
                ["--config", path, "--mode", "training", "--batch-sizes", "2,8,2", "--seq-lengths", "32"]
                + ["--model-name", "x/y"]
            )
            self.assertEqual((args.workloads, args.batch_sizes, args.seq_lengths), (["train-step"], [2, 8], [32]))
            self.assertEqual(args.model_name, "x/y")
            args = bench.parse_args(["--config", path, "--workloads", "forward,train_step", "--hardware", "CUDA"])
            self.assertEqual((args.workloads, args.hardware), (["forward", "train-step"], "cuda"))

    def test_bad_arguments_exit_2(self) -> None:
        with config_file(TINY_BERT) as bert, config_file(TINY_LLAMA) as llama, config_file(
            {"model_type": "t5", "is_encoder_decoder": True}
        ) as t5:
            cases = [
                ([], "--config"),
                (["--config", llama, "--batch-sizes", ""], "--batch-sizes"),
                (["--config", llama, "--batch-sizes", "0"], "--batch-sizes"),
                (["--config", llama, "--seq-lengths", "a"], "--seq-lengths"),
                (["--config", llama, "--workloads", "generate"], "unknown workload"),
                (["--config", llama, "--hardware", "tpu"], "--hardware"),
                (["--config", llama, "--precision", "int8"], "--precision"),
                (["--config", llama, "--autocast", "fp8"], "--autocast"),
                (["--config", llama, "--min-runs", "5", "--max-runs", "3"], "--max-runs"),
                (["--config", llama, "--config", bert, "--output", "a.json"], "one file per --config"),
                (["--config", llama, "--config", bert, "--output", "-", "--output", "b.json"], "a file each"),
                (["--config", llama, "--config", bert, "--model-name", "x"], "one per --config"),
                (["--config", llama, "--warmup", "-1"], "--warmup"),
                (["--config", llama, "--threads", "0"], "--threads"),
                (["--config", llama, "--budget-ms", "nan"], "--budget-ms"),
                (["--config", llama, "--model-name", " "], "--model-name"),
                (["--config", bert, "--workloads", "decode"], "cannot run decode"),
                (["--config", t5], "not supported"),
                (["--config", "/no/such/config.json"], "no such file"),
            ]
            for argv, needle in cases:
                with self.subTest(argv=argv):
                    code, err = parse_error(argv)
                    self.assertEqual(code, 2)
                    self.assertIn(needle, err)


class CompileTests(unittest.TestCase):
    def test_recompile_limits_are_raised_never_lowered(self) -> None:
        config = types.SimpleNamespace(recompile_limit=8, accumulated_recompile_limit=4096)
        sys.modules["fake_torch._dynamo.config"] = config
        try:
            bench.allow_recompiles(types.SimpleNamespace(__name__="fake_torch"))
        finally:
            del sys.modules["fake_torch._dynamo.config"]
        self.assertEqual((config.recompile_limit, config.accumulated_recompile_limit), (bench.RECOMPILE_LIMIT, 4096))

    def test_a_torch_without_dynamo_is_left_alone(self) -> None:
        bench.allow_recompiles(types.SimpleNamespace(__name__="no_such_torch"))


class WithoutTorchTests(unittest.TestCase):
    BLOCK = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('torch', 'transformers'):\n"
        "            raise ImportError(f'No module named {name!r} (blocked by the test)')\n"
        "sys.meta_path.insert(0, Block())\n"
    )

    def test_import_needs_only_the_standard_library(self) -> None:
        code = (
            "import sys\nimport hwfit_client.bench\n"
            "assert 'torch' not in sys.modules and 'transformers' not in sys.modules\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], env=python_env(), capture_output=True, text=True, timeout=60
        )
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_missing_torch_is_a_clear_message_and_status_2(self) -> None:
        with config_file(TINY_LLAMA) as path, tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "records.json"
            code = self.BLOCK + (
                "import runpy\n"
                f"sys.argv = ['hwfit_client.bench', '--config', {path!r}, '--output', {str(out)!r}]\n"
                "runpy.run_module('hwfit_client.bench', run_name='__main__')\n"
            )
            done = subprocess.run(
                [sys.executable, "-c", code], env=python_env(), capture_output=True, text=True, timeout=60
            )
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(done.stdout, "")
            self.assertIn("PyTorch is not installed", done.stderr)
            self.assertIn("hwfit-client[bench]", done.stderr)
            self.assertNotIn("Traceback", done.stderr)
            self.assertFalse(out.exists())


class PackagingTests(unittest.TestCase):
    def test_bench_extra_in_the_metadata(self) -> None:
        sys.path.insert(0, str(CLIENT_DIR / "_build_backend"))
        try:
            import hwfit_build  # type: ignore[import-not-found]  # the package's own build backend
        finally:
            sys.path.remove(str(CLIENT_DIR / "_build_backend"))
        text = (CLIENT_DIR / "pyproject.toml").read_text()
        table = hwfit_build.project()
        self.assertEqual(table["optional-dependencies"], {"bench": ["torch", "transformers"]})
        self.assertEqual(hwfit_build._parse_project_subset(text), hwfit_build._parse_project_table(text))
        metadata = hwfit_build._metadata(table).split("\n\n", 1)[0].splitlines()
        self.assertIn("Provides-Extra: bench", metadata)
        self.assertIn('Requires-Dist: torch; extra == "bench"', metadata)
        self.assertIn('Requires-Dist: transformers; extra == "bench"', metadata)
        self.assertFalse([line for line in metadata if line.startswith("Requires-Dist") and "extra" not in line])
        with tempfile.TemporaryDirectory() as tmp:
            import zipfile

            wheel = hwfit_build.build_wheel(tmp)
            with zipfile.ZipFile(Path(tmp) / wheel) as zf:
                self.assertIn("hwfit_client/bench.py", zf.namelist())


_TORCH_CHECK: Optional[str] = None


def torch_missing() -> Optional[str]:
    """Why torch and transformers cannot run here (``None`` when they import), checked once in a child."""
    global _TORCH_CHECK
    if _TORCH_CHECK is None:
        done = subprocess.run(
            [sys.executable, "-c", "import torch, transformers"], capture_output=True, text=True, timeout=300
        )
        lines = done.stderr.strip().splitlines()
        _TORCH_CHECK = "" if done.returncode == 0 else (lines[-1] if lines else f"exit status {done.returncode}")
    return _TORCH_CHECK or None


class RealRunTests(unittest.TestCase):
    def setUp(self) -> None:
        reason = torch_missing()
        if reason:
            self.skipTest(f"torch and transformers do not import in {sys.executable} ({reason}); "
                          "pip install 'hwfit-client[bench]' to run the real benchmark test")

    def check_record(self, r: Dict[str, Any], parameters_m: float = 0.106816) -> None:
        self.assertLessEqual(set(r), ALLOWED_KEYS)
        self.assertNotIn(None, r.values())
        for key in ("model_parameters_m", "throughput", "latency_mean_ms", "latency_p50_ms", "latency_p90_ms"):
            self.assertTrue(math.isfinite(r[key]) and r[key] > 0, f"{key}={r[key]!r}")
        for key in ("memory_mb", "memory_device_mb"):
            if key in r:
                self.assertTrue(math.isfinite(r[key]) and r[key] > 0, f"{key}={r[key]!r}")
        self.assertLessEqual(r["latency_p50_ms"], r["latency_p90_ms"])
        self.assertEqual((r["runtime"], r["source"], r["device_count"]), ("PyTorch", bench.SOURCE, 1))
        self.assertEqual((r["hardware_type"], r["device"]), ("cpu", "cpu"))
        self.assertEqual((r["precision"], r["math_mode"], r["execution"]), ("fp32", "fp32", "eager"))
        self.assertEqual((r["batch_size"], r["sequence_length"]), (1, 8))
        self.assertEqual(r["warmup_runs"], 1)
        self.assertTrue(1 <= r["timed_runs"] <= 2)
        self.assertAlmostEqual(r["model_parameters_m"], parameters_m, places=4)
        self.assertEqual(r["host"]["threads"], 1)
        self.assertIn("random weights", r["notes"])
        self.assertRegex(r["measured_at"], r"Z$")

    def test_tiny_llama_on_cpu(self) -> None:
        with config_file(TINY_LLAMA) as path:
            done = subprocess.run(
                [
                    sys.executable, "-m", "hwfit_client.bench",
                    "--config", path, "--model-name", "test/tiny-llama", "--hardware", "cpu",
                    "--workloads", "prefill,decode,train-step", "--batch-sizes", "1", "--seq-lengths", "8",
                    "--warmup", "1", "--min-runs", "1", "--max-runs", "2", "--budget-ms", "200",
                    "--threads", "1", "--output", "-",
                ],
                env=python_env(), capture_output=True, text=True, timeout=600,
            )  # fmt: skip
        self.assertEqual(done.returncode, 0, done.stderr)
        records = json.loads(done.stdout)  # stdout is the JSON array alone
        self.assertIn("[3/3] train-step b1 s8", done.stderr)
        self.assertEqual([r["workload"] for r in records], ["prefill", "decode", "train-step"])
        self.assertEqual([r["throughput_unit"] for r in records], ["tokens/s", "tokens/s", "samples/s"])
        for r in records:
            with self.subTest(workload=r["workload"]):
                self.check_record(r)
                self.assertEqual(r["model_name"], "test/tiny-llama")
                self.assertEqual(r["model_family"], "text_generation")
        # Throughput at the median: batch x seq tokens per prefill step, batch tokens per decode step.
        for record, items in ((records[0], 8), (records[1], 1)):
            expected = items / (record["latency_p50_ms"] / 1e3)
            self.assertAlmostEqual(record["throughput"], expected, delta=expected * 1e-4)

    def test_unsupported_case_is_skipped_not_a_crash(self) -> None:
        with config_file(TINY_BERT) as path, tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "records.json"
            done = subprocess.run(
                [
                    sys.executable, "-m", "hwfit_client.bench", "--config", path, "--hardware", "cpu",
                    "--batch-sizes", "1", "--seq-lengths", "8,100", "--warmup", "0", "--min-runs", "1",
                    "--max-runs", "1", "--threads", "1", "--output", str(out),
                ],
                env=python_env(), capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(done.stdout, "")
            self.assertIn("skipped: 100 positions exceed max_position_embeddings 64", done.stderr)
            records = json.loads(out.read_text())
        self.assertEqual([(r["workload"], r["sequence_length"]) for r in records], [("forward", 8)])
        self.assertEqual(records[0]["throughput_unit"], "items/s")

    def test_a_runner_stopped_part_way_keeps_the_cases_it_finished(self) -> None:
        # The process dies at its second case, as under a time limit: the first case's record is in
        # the file already.
        dies = (
            "import os, sys\n"
            "from hwfit_client import bench\n"
            "real, calls = bench.Bench.run_case, []\n"
            "def run_case(self, case):\n"
            "    calls.append(case)\n"
            "    if len(calls) == 2:\n"
            "        os._exit(9)\n"
            "    return real(self, case)\n"
            "bench.Bench.run_case = run_case\n"
            "sys.exit(bench.main(sys.argv[1:]))\n"
        )
        with config_file(TINY_BERT) as path, tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "records.json"
            done = subprocess.run(
                [
                    sys.executable, "-c", dies, "--config", path, "--hardware", "cpu",
                    "--batch-sizes", "1", "--seq-lengths", "8,16", "--warmup", "0", "--min-runs", "1",
                    "--max-runs", "1", "--threads", "1", "--output", str(out),
                ],
                env=python_env(), capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            self.assertEqual(done.returncode, 9, done.stderr)
            records = json.loads(out.read_text())
        self.assertEqual([(r["workload"], r["sequence_length"]) for r in records], [("forward", 8)])

    def test_compiled_cases_each_get_their_graph(self) -> None:
        with config_file(TINY_BERT) as path:
            done = subprocess.run(
                [
                    sys.executable, "-m", "hwfit_client.bench", "--config", path, "--hardware", "cpu",
                    "--compile", "--batch-sizes", "1", "--seq-lengths", "8,16", "--warmup", "1",
                    "--min-runs", "1", "--max-runs", "1", "--threads", "1", "--output", "-",
                ],
                env=python_env(), capture_output=True, text=True, timeout=600,
            )  # fmt: skip
        self.assertEqual(done.returncode, 0, done.stderr)
        records = json.loads(done.stdout)
        self.assertEqual([r["sequence_length"] for r in records], [8, 16])
        for r in records:
            self.assertEqual(r["execution"], "torch.compile")
            self.assertIn(f"up to {bench.RECOMPILE_LIMIT} graphs kept", r["notes"])

    def test_static_cache_decode_under_a_compile_mode(self) -> None:
        with config_file(TINY_LLAMA) as path:
            done = subprocess.run(
                [
                    sys.executable, "-m", "hwfit_client.bench", "--config", path, "--hardware", "cpu",
                    "--compile-mode", "reduce-overhead", "--kv-cache", "static", "--workloads", "decode",
                    "--batch-sizes", "1,2", "--seq-lengths", "8", "--warmup", "1", "--min-runs", "2",
                    "--max-runs", "2", "--threads", "1", "--output", "-",
                ],
                env=python_env(), capture_output=True, text=True, timeout=600,
            )  # fmt: skip
        self.assertEqual(done.returncode, 0, done.stderr)
        records = json.loads(done.stdout)
        self.assertEqual([(r["workload"], r["batch_size"]) for r in records], [("decode", 1), ("decode", 2)])
        for r in records:
            self.assertEqual(r["execution"], "torch.compile (reduce-overhead)")
            self.assertIn("StaticCache of 9 slots", r["notes"])
            self.assertIn("torch.compile (reduce-overhead mode)", r["notes"])

    def test_compile_mode_and_execution(self) -> None:
        with config_file(TINY_LLAMA) as path:
            eager = bench.parse_args(["--config", path])
            compiled = bench.parse_args(["--config", path, "--compile"])
            graphs = bench.parse_args(["--config", path, "--compile-mode", "reduce-overhead"])
        self.assertEqual((bench.compile_mode(eager), bench.execution(eager)), (None, "eager"))
        self.assertEqual((bench.compile_mode(compiled), bench.execution(compiled)), ("default", "torch.compile"))
        self.assertTrue(graphs.compile)
        self.assertEqual(bench.execution(graphs), "torch.compile (reduce-overhead)")
        self.assertEqual(eager.kv_cache, "dynamic")

    def test_several_models_in_one_process(self) -> None:
        broken = dict(TINY_BERT, num_attention_heads=5)  # 32 is not a multiple of 5: cannot build
        with config_file(TINY_LLAMA) as llama, config_file(TINY_BERT) as bert, config_file(
            broken
        ) as bad, tempfile.TemporaryDirectory() as tmp:
            outs = [Path(tmp) / f"records-{i}.json" for i in range(3)]
            done = subprocess.run(
                [
                    sys.executable, "-m", "hwfit_client.bench", "--hardware", "cpu",
                    "--config", llama, "--model-name", "test/tiny-llama", "--output", str(outs[0]),
                    "--config", bad, "--model-name", "test/broken", "--output", str(outs[1]),
                    "--config", bert, "--model-name", "test/tiny-bert", "--output", str(outs[2]),
                    "--batch-sizes", "1", "--seq-lengths", "8", "--warmup", "1", "--min-runs", "1",
                    "--max-runs", "2", "--budget-ms", "200", "--threads", "1",
                ],
                env=python_env(), capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            # The model that cannot be built fails alone: the others are measured, each in its file.
            self.assertEqual(done.returncode, bench.EXIT_NO_CASE, done.stderr)
            self.assertIn("test/broken: no case succeeded", done.stderr)
            llama_records, broken_records, bert_records = (json.loads(o.read_text()) for o in outs)
        self.assertEqual(broken_records, [])
        self.assertEqual([r["workload"] for r in llama_records], ["prefill", "decode"])
        self.assertEqual({r["model_name"] for r in llama_records}, {"test/tiny-llama"})
        self.assertEqual([(r["workload"], r["model_name"]) for r in bert_records], [("forward", "test/tiny-bert")])
        for r in llama_records:
            self.check_record(r)
        self.check_record(bert_records[0], parameters_m=bert_records[0]["model_parameters_m"])


if __name__ == "__main__":
    unittest.main()

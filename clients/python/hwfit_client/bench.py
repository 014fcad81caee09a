"""PyTorch benchmark runner: time a Hugging Face model built from its ``config.json``.

Run as ``python -m hwfit_client.bench --config config.json --model-name ID``. The
model is built with random weights from the config alone
(``transformers.AutoConfig.for_model(**config)`` and ``AutoModel*.from_config``),
so nothing is downloaded and the network is never touched. Each case (workload x
batch size x sequence length) is timed on cpu, cuda, rocm, mps or xpu, and the
results are printed as a JSON array of hwfit benchmark records, the shape
``hwfit db import`` and ``hwfit bench --runtime pytorch`` read. Progress and
diagnostics go to stderr only.

This module imports with the standard library alone; torch and transformers are
imported when a benchmark runs (``pip install 'hwfit-client[bench]'``). Without
them the command says so on stderr and exits with status 2.

Workloads:

``forward``
    One forward pass under ``torch.inference_mode()`` (encoders, vision models;
    for a causal LM: all positions' logits, no KV cache).
``prefill``
    A causal LM's forward over the prompt with ``use_cache=True``, logits of the
    last position only (as ``generate`` does).
``decode``
    One next-token step of a causal LM against a KV cache of ``seq`` tokens; the
    cache is built by an untimed prefill and cut back to ``seq`` tokens after each
    step, so every timed step sees the same context length.
``train-step``
    Forward with a loss, ``loss.backward()``, ``AdamW.step()`` and ``zero_grad``.

Exit status: 0 when at least one case was measured, 1 when none was, 2 for a
usage error or a missing torch/transformers.
"""

import argparse
import contextlib
import copy
import datetime
import gc
import importlib
import inspect
import json
import math
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

__all__ = [
    "RECORD_KEYS",
    "SOURCE",
    "WORKLOADS",
    "Case",
    "MissingDependency",
    "Timing",
    "build_parser",
    "build_record",
    "cases_for",
    "default_model_name",
    "default_workloads",
    "main",
    "model_kind",
    "percentile",
    "summarize",
    "throughput_unit",
    "time_runs",
]

#: ``source`` of every record this runner writes.
SOURCE = "measured here (hwfit_client.bench)"

#: ``runtime`` of every record.
RUNTIME = "PyTorch"

#: Every key a record may have, in output order. The Rust side reads records with
#: ``deny_unknown_fields``: never write any other key.
RECORD_KEYS: Tuple[str, ...] = (
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
)

#: Keys every record has.
REQUIRED_KEYS = frozenset({"model_name", "device", "device_name", "device_count", "runtime", "source"})

_STRING_KEYS = frozenset(
    {
        "model_name",
        "model_family",
        "device",
        "device_name",
        "hardware_type",
        "runtime",
        "runtime_version",
        "execution",
        "math_mode",
        "precision",
        "workload",
        "throughput_unit",
        "source",
        "measured_at",
        "notes",
    }
)
_INT_KEYS = frozenset({"device_count", "batch_size", "sequence_length", "timed_runs"})
_NON_NEGATIVE_INT_KEYS = frozenset({"warmup_runs"})
_FLOAT_KEYS = frozenset(
    {
        "model_parameters_m",
        "throughput",
        "latency_mean_ms",
        "latency_p50_ms",
        "latency_p90_ms",
        "memory_mb",
        "memory_device_mb",
    }
)

WORKLOADS: Tuple[str, ...] = ("forward", "prefill", "decode", "train-step")
HARDWARE: Tuple[str, ...] = ("auto", "cpu", "cuda", "rocm", "mps", "xpu")
PRECISIONS: Tuple[str, ...] = ("fp32", "fp16", "bf16")
AUTOCAST: Tuple[str, ...] = ("none", "fp16", "bf16")
#: ``torch.compile`` modes; ``reduce-overhead`` replays CUDA graphs.
COMPILE_MODES: Tuple[str, ...] = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
#: KV caches for decode: transformers' growing ``DynamicCache``, or a ``StaticCache`` of fixed
#: length (what compiled generation with CUDA graphs needs).
KV_CACHES: Tuple[str, ...] = ("dynamic", "static")

#: Model kinds: a decoder-only causal LM, a text encoder, a vision encoder.
CAUSAL_LM, TEXT_ENCODER, VISION = "causal-lm", "text-encoder", "vision"

#: Workloads each kind can run.
KIND_WORKLOADS: Dict[str, Tuple[str, ...]] = {
    CAUSAL_LM: ("forward", "prefill", "decode", "train-step"),
    TEXT_ENCODER: ("forward", "train-step"),
    VISION: ("forward", "train-step"),
}

#: hwfit model family of each kind.
KIND_FAMILY: Dict[str, str] = {CAUSAL_LM: "text_generation", TEXT_ENCODER: "embedding", VISION: "vision"}

EXIT_OK, EXIT_NO_CASE, EXIT_USAGE = 0, 1, 2

# model_type values of image encoders whose config need not say image_size.
_VISION_TYPES = frozenset(
    {
        "beit",
        "bit",
        "clip_vision_model",
        "convnext",
        "convnextv2",
        "deit",
        "dinov2",
        "dinov2_with_registers",
        "dinov3_vit",
        "efficientnet",
        "hiera",
        "levit",
        "mobilenet_v2",
        "mobilevit",
        "regnet",
        "resnet",
        "siglip_vision_model",
        "swin",
        "swinv2",
        "vit",
        "vit_mae",
    }
)
_CAUSAL_SUFFIXES = ("ForCausalLM", "LMHeadModel")
_COMPOSITE_KEYS = ("text_config", "vision_config", "audio_config", "encoder", "decoder")

_DTYPE_NAMES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
_MIB = 1024.0 * 1024.0


class MissingDependency(RuntimeError):
    """torch or transformers cannot be imported; the message says what to install."""


class CaseSkipped(Exception):
    """A case this model or device cannot run (the message says why)."""


# --------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by nearest rank.

    The value at sorted index ``round((n - 1) * q)``, halves rounded up: the
    definition hwfit's Rust runners use, so records from every runtime agree
    (the median of an even count is the upper middle value, not an average).
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} is not within 0..1")
    ordered = sorted(values)
    index = int(math.floor((len(ordered) - 1) * q + 0.5))
    return float(ordered[min(index, len(ordered) - 1)])


class Timing(NamedTuple):
    """Timed runs of one case, milliseconds."""

    runs_ms: Tuple[float, ...]
    warmup_runs: int
    mean_ms: float
    p50_ms: float
    p90_ms: float

    @property
    def timed_runs(self) -> int:
        return len(self.runs_ms)


def summarize(runs_ms: Sequence[float], warmup_runs: int = 0) -> Timing:
    """Mean, median and p90 of timed runs (milliseconds)."""
    if not runs_ms:
        raise ValueError("no timed runs")
    for value in runs_ms:
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"a run time must be a finite number >= 0, not {value!r}")
    runs = tuple(float(v) for v in runs_ms)
    return Timing(runs, warmup_runs, sum(runs) / len(runs), percentile(runs, 0.5), percentile(runs, 0.9))


def time_runs(
    step: Callable[[], float],
    *,
    warmup: int,
    min_runs: int,
    max_runs: int,
    budget_ms: float,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Run ``step`` (which returns its own milliseconds) ``warmup`` times untimed,
    then until ``min_runs`` timed runs are done and either ``max_runs`` runs are
    done or ``budget_ms`` has passed since the first timed run."""
    for _ in range(warmup):
        step()
    runs: List[float] = []
    started = clock()
    min_runs = max(1, min_runs)
    while len(runs) < min_runs or (len(runs) < max_runs and (clock() - started) * 1e3 < budget_ms):
        runs.append(step())
    return summarize(runs, warmup)


# --------------------------------------------------------------------------- models and cases


def _architectures(config: Mapping[str, Any]) -> List[str]:
    archs = config.get("architectures")
    return [a for a in archs if isinstance(a, str)] if isinstance(archs, list) else []


def model_kind(config: Mapping[str, Any]) -> str:
    """``causal-lm``, ``text-encoder`` or ``vision`` for a ``config.json`` dict.

    Raises ``ValueError`` for what this runner does not build: encoder-decoder
    and composite (multimodal) configs, or a config without ``model_type``.
    """
    model_type = config.get("model_type")
    if not isinstance(model_type, str) or not model_type:
        raise ValueError("the config has no model_type")
    archs = _architectures(config)
    if config.get("is_encoder_decoder") or any(k in config for k in _COMPOSITE_KEYS):
        parts = [k for k in _COMPOSITE_KEYS if k in config]
        raise ValueError(
            f"{model_type}: encoder-decoder or composite configs ({', '.join(parts) or 'is_encoder_decoder'}) are not "
            "supported; pass one part (e.g. its text_config or vision_config, with its own model_type) as the config"
        )
    if any(a.endswith(_CAUSAL_SUFFIXES) for a in archs):
        return CAUSAL_LM
    if (
        model_type in _VISION_TYPES
        or any("ForImageClassification" in a for a in archs)
        or ("image_size" in config and "vocab_size" not in config)
    ):
        return VISION
    return TEXT_ENCODER


def default_workloads(config: Mapping[str, Any], mode: str = "inference") -> List[str]:
    """Workloads run when ``--workloads`` is not given: ``train-step`` in training
    mode, else prefill and decode for a causal LM and forward for the rest."""
    if mode == "training":
        return ["train-step"]
    return ["prefill", "decode"] if model_kind(config) == CAUSAL_LM else ["forward"]


def default_model_name(config: Mapping[str, Any], path: Union[str, "os.PathLike[str]"]) -> str:
    """The id the file's stem writes as ``owner__name`` (``Qwen__Qwen3-8B.json``, or such a folder
    holding ``config.json``), else the config's ``_name_or_path`` (a fine-tuned model's config often
    leaves it as the base model's), else the file's stem."""
    stem = Path(path).stem
    if stem in ("config", ""):
        stem = Path(path).resolve().parent.name or stem
    if "__" in stem:
        return stem.replace("__", "/", 1)
    name = config.get("_name_or_path")
    if isinstance(name, str) and name.strip():
        return name.strip()
    return stem


class Case(NamedTuple):
    """One measurement: a workload at a batch size and (text models) a sequence length."""

    workload: str
    batch_size: int
    sequence_length: Optional[int]

    def label(self) -> str:
        seq = "" if self.sequence_length is None else f" s{self.sequence_length}"
        return f"{self.workload} b{self.batch_size}{seq}"


def cases_for(
    kind: str, workloads: Sequence[str], batch_sizes: Sequence[int], seq_lengths: Sequence[int]
) -> List[Case]:
    """Every workload x batch size x sequence length, in that order; a vision
    model's cases have no sequence length (its config's image size is used)."""
    out: List[Case] = []
    for workload in workloads:
        for batch in batch_sizes:
            if kind == VISION:
                out.append(Case(workload, batch, None))
            else:
                out.extend(Case(workload, batch, seq) for seq in seq_lengths)
    return out


def throughput_unit(workload: str, kind: str) -> str:
    """``tokens/s`` for prefill and decode, ``samples/s`` for a text model's
    train-step, ``items/s`` for the rest."""
    if workload in ("prefill", "decode"):
        return "tokens/s"
    if workload == "train-step" and kind != VISION:
        return "samples/s"
    return "items/s"


def items_per_step(case: Case) -> int:
    """What one timed step produces: prompt tokens (prefill), one token per
    sequence (decode), else one item per sequence or image."""
    if case.workload == "prefill":
        return case.batch_size * (case.sequence_length or 1)
    return case.batch_size


# --------------------------------------------------------------------------- records


def _significant(value: float, digits: int = 6) -> float:
    """``value`` rounded to ``digits`` significant digits (never to 0 for a value > 0)."""
    return float(f"{value:.{digits}g}")


def build_record(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """A record from ``fields``: ``None`` values dropped, keys in ``RECORD_KEYS``
    order. Raises ``ValueError`` for an unknown key, a missing required key, a
    value of the wrong type, or a number that is not finite and > 0
    (``warmup_runs`` may be 0)."""
    unknown = sorted(k for k in fields if k not in RECORD_KEYS)
    if unknown:
        raise ValueError(f"unknown record keys: {', '.join(unknown)}")
    record: Dict[str, Any] = {}
    for key in RECORD_KEYS:
        value = fields.get(key)
        if value is None:
            continue
        if key in _STRING_KEYS:
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{key} must be a non-empty string, not {value!r}")
        elif key in _INT_KEYS or key in _NON_NEGATIVE_INT_KEYS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key} must be an integer, not {value!r}")
            if value < (0 if key in _NON_NEGATIVE_INT_KEYS else 1):
                raise ValueError(f"{key} must be >= {0 if key in _NON_NEGATIVE_INT_KEYS else 1}, not {value}")
        elif key in _FLOAT_KEYS:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{key} must be a number, not {value!r}")
            if not math.isfinite(value) or value <= 0:
                raise ValueError(f"{key} must be finite and > 0, not {value!r}")
            value = _significant(float(value))
        elif key == "host":
            if not isinstance(value, Mapping):
                raise ValueError(f"host must be an object, not {value!r}")
            value = {k: v for k, v in value.items() if v is not None}
        record[key] = value
    missing = sorted(REQUIRED_KEYS - record.keys())
    if missing:
        raise ValueError(f"missing record keys: {', '.join(missing)}")
    return record


def now_rfc3339() -> str:
    """The current UTC time, RFC 3339 with microseconds and ``Z``."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --------------------------------------------------------------------------- host facts (stdlib)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def cpu_brand() -> str:
    """The CPU's brand string: ``model name`` of /proc/cpuinfo, macOS's
    ``machdep.cpu.brand_string``, else ``platform.processor()`` or the machine."""
    match = re.search(r"^model name\s*:\s*(.+)$", _read("/proc/cpuinfo"), re.MULTILINE)
    if match and match.group(1).strip():
        return match.group(1).strip()
    if sys.platform == "darwin":
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True, timeout=5, check=False
            ).stdout.strip()
            if out:
                return out
    return platform.processor() or platform.machine() or "cpu"


def physical_cores() -> Optional[int]:
    """Physical cores from /proc/cpuinfo (distinct physical id / core id pairs), when readable."""
    pairs = set()
    physical = core = None
    for line in _read("/proc/cpuinfo").splitlines() + [""]:
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "physical id":
            physical = value.strip()
        elif key == "core id":
            core = value.strip()
        elif not line.strip():
            if core is not None:
                pairs.add((physical, core))
            physical = core = None
    return len(pairs) or None


def total_memory_mb() -> Optional[int]:
    """Physical memory, MiB."""
    match = re.search(r"^MemTotal:\s+(\d+)\s+kB", _read("/proc/meminfo"), re.MULTILINE)
    if match:
        return int(match.group(1)) // 1024
    with contextlib.suppress(AttributeError, ValueError, OSError):
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024))
    return None


def load_average() -> Optional[float]:
    """The 1-minute load average, where the OS has one: a busy host slows CPU timings."""
    with contextlib.suppress(AttributeError, OSError):
        return round(os.getloadavg()[0], 2)
    return None


def base_host_facts() -> Dict[str, Any]:
    """Host facts that need no torch: CPU, cores, memory, OS, architecture, Python, load."""
    return {
        "cpu": cpu_brand(),
        "logical_cores": os.cpu_count(),
        "physical_cores": physical_cores(),
        "memory_mb": total_memory_mb(),
        "os": platform.system().lower() or sys.platform,
        "arch": platform.machine() or None,
        "python": platform.python_version(),
        "load_average_1m": load_average(),
    }


# --------------------------------------------------------------------------- command line


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not >= 1")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not >= 0")
    return value


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a finite number >= 0")
    return value


def _int_list(text: str) -> List[int]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise argparse.ArgumentTypeError("needs at least one value")
    values = [_positive_int(t) for t in items]
    return list(dict.fromkeys(values))


def _workload_list(text: str) -> List[str]:
    items = [t.strip().lower().replace("_", "-") for t in text.split(",") if t.strip()]
    if not items:
        raise argparse.ArgumentTypeError("needs at least one workload")
    aliases = {"train": "train-step", "training": "train-step", "trainstep": "train-step"}
    items = [aliases.get(t, t) for t in items]
    unknown = [t for t in items if t not in WORKLOADS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown workload {unknown[0]!r} (known: {', '.join(WORKLOADS)})")
    return list(dict.fromkeys(items))


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m hwfit_client.bench`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="python -m hwfit_client.bench",
        description=(
            "Time a Hugging Face transformers model built from its config.json (random weights, offline) with "
            "PyTorch and print hwfit benchmark records as JSON. Progress goes to stderr."
        ),
    )
    parser.add_argument(
        "--config",
        required=True,
        action="append",
        metavar="PATH",
        help="the model's Hugging Face config.json; repeat it to measure several models in one process "
        "(torch imported and the device initialised once), each with its own --output",
    )
    parser.add_argument(
        "--model-name",
        action="append",
        metavar="ID",
        help="model name in the records (default: _name_or_path, else the file stem); one per --config",
    )
    parser.add_argument(
        "--hardware",
        type=str.lower,
        choices=HARDWARE,
        default="auto",
        help="device type; auto: cuda/rocm when available, then xpu, then mps, else cpu (default auto)",
    )
    parser.add_argument(
        "--mode",
        type=str.lower,
        choices=("inference", "training"),
        default="inference",
        help="picks the default workloads (training: train-step)",
    )
    parser.add_argument(
        "--workloads",
        type=_workload_list,
        metavar="LIST",
        help="comma list of forward,prefill,decode,train-step (default: prefill,decode for causal LMs, "
        "forward for encoders and vision models, train-step with --mode training)",
    )
    parser.add_argument("--batch-sizes", type=_int_list, default=[1, 4], metavar="LIST", help="default 1,4")
    parser.add_argument(
        "--seq-lengths",
        type=_int_list,
        default=[16, 64],
        metavar="LIST",
        help="prompt tokens (forward, prefill, train-step) or KV-cache context (decode); "
        "vision models use their config's image_size (default 16,64)",
    )
    parser.add_argument("--precision", type=str.lower, choices=PRECISIONS, default="fp32", help="weights dtype")
    parser.add_argument(
        "--autocast", type=str.lower, choices=AUTOCAST, default="none", help="torch.autocast dtype (default none)"
    )
    parser.add_argument("--compile", action="store_true", help="run the model through torch.compile")
    parser.add_argument(
        "--compile-mode",
        type=str.lower,
        choices=COMPILE_MODES,
        help="torch.compile's mode (implies --compile; default: default)",
    )
    parser.add_argument(
        "--kv-cache",
        type=str.lower,
        choices=KV_CACHES,
        default="dynamic",
        help="decode's KV cache: dynamic (transformers' default) or static (a StaticCache one token longer "
        "than the context, the token's slot rewritten each step; what CUDA graphs need) (default dynamic)",
    )
    parser.add_argument("--threads", type=_positive_int, metavar="N", help="torch.set_num_threads(N)")
    parser.add_argument("--warmup", type=_non_negative_int, default=2, metavar="N", help="untimed runs (default 2)")
    parser.add_argument("--min-runs", type=_positive_int, default=3, metavar="N", help="default 3")
    parser.add_argument("--max-runs", type=_positive_int, default=15, metavar="N", help="default 15")
    parser.add_argument(
        "--budget-ms",
        type=_non_negative_float,
        default=1500.0,
        metavar="MS",
        help="stop adding timed runs after this, once --min-runs are done (default 1500)",
    )
    parser.add_argument("--seed", type=_non_negative_int, default=0, help="torch.manual_seed (default 0)")
    parser.add_argument(
        "--output",
        action="append",
        metavar="FILE",
        help="where the JSON array goes; - for stdout (the default for one model); one file per --config",
    )
    return parser


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """Parse and cross-check the command line; errors exit with status 2.

    The namespace describes the first model; ``jobs`` holds one namespace per ``--config``, in
    order (the first is the namespace itself)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.max_runs < args.min_runs:
        parser.error(f"--max-runs ({args.max_runs}) is less than --min-runs ({args.min_runs})")
    if args.compile_mode is not None:
        args.compile = True
    elif args.compile:
        args.compile_mode = "default"
    configs: List[str] = args.config
    names: List[str] = args.model_name or []
    outputs: List[str] = args.output or ["-"]
    if names and len(names) != len(configs):
        parser.error(f"--model-name: {len(names)} given for {len(configs)} --config; give one per --config")
    if len(outputs) != len(configs):
        parser.error(f"--output: {len(outputs)} given for {len(configs)} --config; give one file per --config")
    if len(configs) > 1 and "-" in outputs:
        parser.error("--output -: several models need a file each")
    jobs = [_job(parser, args, path, names[i] if names else None, outputs[i]) for i, path in enumerate(configs)]
    jobs[0].jobs = jobs
    return jobs[0]


def _job(
    parser: argparse.ArgumentParser, args: argparse.Namespace, path: str, name: Optional[str], output: str
) -> argparse.Namespace:
    """The namespace of one model: ``args`` with its config read and checked, its name, workloads and output."""
    job = argparse.Namespace(**vars(args))
    if not os.path.isfile(path):
        parser.error(f"--config {path}: no such file")
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except (OSError, ValueError) as e:
        parser.error(f"--config {path}: cannot read it as JSON: {e}")
    if not isinstance(config, dict):
        parser.error(f"--config {path}: not a JSON object")
    try:
        kind = model_kind(config)
    except ValueError as e:
        parser.error(f"--config {path}: {e}")
    if job.workloads is None:
        job.workloads = default_workloads(config, args.mode)
    unsupported = [w for w in job.workloads if w not in KIND_WORKLOADS[kind]]
    if unsupported:
        parser.error(
            f"--workloads: a {kind} model cannot run {', '.join(unsupported)} "
            f"(it runs {', '.join(KIND_WORKLOADS[kind])})"
        )
    if name is not None and not name.strip():
        parser.error("--model-name is empty")
    job.config = path
    job.output = output
    job.model_name = (name or default_model_name(config, path)).strip()
    job.config_dict = config
    job.kind = kind
    return job


# --------------------------------------------------------------------------- torch side


def _log(message: str) -> None:
    print(f"[hwfit bench] {message}", file=sys.stderr, flush=True)


def import_runtime() -> Tuple[Any, Any]:
    """``(torch, transformers)``, offline; ``MissingDependency`` when either is missing or broken."""
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY"):
        os.environ.setdefault(key, "1")
    hint = "install them with: pip install 'hwfit-client[bench]' (or: pip install torch transformers)"
    try:
        import torch
    except ImportError as e:
        raise MissingDependency(f"PyTorch is not installed ({e}); {hint}") from e
    except (OSError, ValueError) as e:  # a torch wheel whose CUDA libraries are missing
        raise MissingDependency(
            f"PyTorch is installed but does not load ({e}); reinstall it with its dependencies"
        ) from e
    try:
        import transformers
    except ImportError as e:
        raise MissingDependency(f"transformers is not installed ({e}); {hint}") from e
    with contextlib.suppress(Exception):
        transformers.logging.set_verbosity_error()
    return torch, transformers


def resolve_hardware(torch: Any, requested: str) -> str:
    """The hardware type to run on; raises ``RuntimeError`` when it is not available."""
    cuda_ok = bool(torch.cuda.is_available())
    gpu_kind = "rocm" if getattr(torch.version, "hip", None) else "cuda"
    xpu_ok = bool(getattr(torch, "xpu", None) is not None and torch.xpu.is_available())
    mps_backend = getattr(torch.backends, "mps", None)
    mps_ok = bool(mps_backend is not None and mps_backend.is_available())
    if requested == "auto":
        if cuda_ok:
            return gpu_kind
        if xpu_ok:
            return "xpu"
        if mps_ok:
            return "mps"
        return "cpu"
    if requested in ("cuda", "rocm"):
        if not cuda_ok:
            raise RuntimeError(f"--hardware {requested}: torch.cuda.is_available() is False")
        if requested != gpu_kind:
            raise RuntimeError(f"--hardware {requested}: this PyTorch build is for {gpu_kind}")
        return requested
    if requested == "xpu" and not xpu_ok:
        raise RuntimeError("--hardware xpu: torch.xpu.is_available() is False")
    if requested == "mps" and not mps_ok:
        raise RuntimeError("--hardware mps: torch.backends.mps.is_available() is False")
    return requested


def torch_device_type(hardware: str) -> str:
    """The torch device type of a hardware type (ROCm builds use ``cuda``)."""
    return "cuda" if hardware in ("cuda", "rocm") else hardware


def synchronize(torch: Any, hardware: str) -> None:
    """Wait for the device's queued work."""
    if hardware in ("cuda", "rocm"):
        torch.cuda.synchronize()
    elif hardware == "xpu":
        torch.xpu.synchronize()
    elif hardware == "mps":
        torch.mps.synchronize()


def empty_cache(torch: Any, hardware: str) -> None:
    """Collect garbage and hand cached device memory back."""
    gc.collect()
    with contextlib.suppress(Exception):
        if hardware in ("cuda", "rocm"):
            torch.cuda.empty_cache()
        elif hardware == "xpu":
            torch.xpu.empty_cache()
        elif hardware == "mps":
            torch.mps.empty_cache()


def device_names(torch: Any, hardware: str) -> Tuple[str, str]:
    """``(device, device_name)`` for the records: ``cpu`` and the CPU brand, or
    the GPU's lowercased name and its name as the runtime reports it."""
    if hardware == "cpu":
        return "cpu", cpu_brand()
    name = ""
    with contextlib.suppress(Exception):
        if hardware in ("cuda", "rocm"):
            name = torch.cuda.get_device_name(torch.cuda.current_device())
        elif hardware == "xpu":
            name = torch.xpu.get_device_name(0)
        elif hardware == "mps":
            name = cpu_brand()  # the GPU of an Apple chip goes by the chip's name
    name = (name or hardware).strip()
    return name.lower(), name


def _nvidia_driver() -> Optional[str]:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()
        if out:
            return out.splitlines()[0].strip()
    return None


def host_facts(torch: Any, transformers: Any, hardware: str) -> Dict[str, Any]:
    """Host facts for the records: CPU, cores, memory, OS, versions, threads, and the GPU's facts."""
    facts = base_host_facts()
    facts["torch"] = str(torch.__version__)
    facts["transformers"] = str(transformers.__version__)
    facts["threads"] = int(torch.get_num_threads())
    with contextlib.suppress(Exception):
        facts["cpu_capability"] = str(torch.backends.cpu.get_cpu_capability())
    if hardware in ("cuda", "rocm"):
        with contextlib.suppress(Exception):
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            facts["gpu"] = props.name
            facts["gpu_memory_mb"] = int(props.total_memory // (1024 * 1024))
            facts["gpu_multiprocessors"] = int(props.multi_processor_count)
            if hardware == "cuda":
                facts["gpu_compute_capability"] = f"{props.major}.{props.minor}"
            else:
                facts["gpu_arch"] = getattr(props, "gcnArchName", None) or f"{props.major}.{props.minor}"
        if hardware == "cuda":
            facts["cuda"] = torch.version.cuda
            facts["driver"] = _nvidia_driver()
        else:
            facts["hip"] = torch.version.hip
        facts["gpu_count"] = int(torch.cuda.device_count())
    elif hardware == "xpu":
        with contextlib.suppress(Exception):
            props = torch.xpu.get_device_properties(0)
            facts["gpu"] = props.name
            facts["gpu_memory_mb"] = int(props.total_memory // (1024 * 1024))
            facts["driver"] = getattr(props, "driver_version", None)
    elif hardware == "mps":
        facts["gpu"] = cpu_brand()
    return {k: v for k, v in facts.items() if v is not None}


def _tf32_matmul(torch: Any) -> bool:
    """Whether fp32 matmuls on CUDA may use TF32."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        setting = getattr(getattr(torch.backends.cuda, "matmul", None), "fp32_precision", None)
        if setting == "tf32":
            return True
        if setting == "ieee":
            return False
        with contextlib.suppress(Exception):
            if torch.backends.cuda.matmul.allow_tf32:
                return True
        return torch.get_float32_matmul_precision() != "highest"


def math_mode(torch: Any, hardware: str, precision: str, autocast: str) -> str:
    """``fp32``, ``fp32 with tf32 matmul``, ``fp16``, ``bf16``, ``autocast fp16`` or ``autocast bf16``."""
    if autocast != "none":
        return f"autocast {autocast}"
    if precision == "fp32" and hardware in ("cuda", "xpu") and _tf32_matmul(torch):
        return "fp32 with tf32 matmul"
    return precision


class MemoryProbe:
    """Peak memory of one case.

    cuda/rocm/xpu: the allocator's peak (``max_memory_allocated``, after
    ``reset_peak_memory_stats``) as ``memory_mb`` and its peak reservation from
    the device (``max_memory_reserved``, without the runtime's context) as
    ``memory_device_mb``. mps: the allocator's and the driver's allocation,
    sampled after each run (no peak counter). cpu: the process's peak resident
    set during the case (VmHWM, reset through /proc/self/clear_refs, else the
    lifetime peak ru_maxrss) minus what the process held without the model (the
    resident set once the model was built, less the model's weights and
    buffers), as ``memory_device_mb``: the weights plus what the case added,
    without the libraries and code loaded on the way; no ``memory_mb``.
    """

    def __init__(self, torch: Any, hardware: str) -> None:
        self.torch = torch
        self.hardware = hardware
        self.baseline_rss_mb: Optional[float] = None
        self._mps_peak = (0.0, 0.0)
        self._hwm_reset = False

    def model_built(self, model_bytes: int) -> None:
        """Called once the model is built: the cpu baseline is the resident set without the model."""
        if self.hardware == "cpu":
            self._trim()
            rss = self._rss_mb()
            self.baseline_rss_mb = rss - model_bytes / _MIB if rss is not None else None

    @staticmethod
    def _status_mb(field: str) -> Optional[float]:
        match = re.search(rf"^{field}:\s+(\d+)\s+kB", _read("/proc/self/status"), re.MULTILINE)
        return int(match.group(1)) / 1024.0 if match else None

    @staticmethod
    def _maxrss_mb() -> Optional[float]:
        try:
            import resource
        except ImportError:
            return None
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / _MIB if sys.platform == "darwin" else peak / 1024.0

    def _rss_mb(self) -> Optional[float]:
        rss = self._status_mb("VmRSS")
        return rss if rss is not None else self._maxrss_mb()

    @staticmethod
    def _trim() -> None:
        """Hand freed heap memory back to the OS (glibc), so the peak starts from what is live."""
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL("libc.so.6").malloc_trim(0)

    def start(self) -> None:
        """Reset the peak counters before a case."""
        t, hw = self.torch, self.hardware
        empty_cache(t, hw)
        if hw in ("cuda", "rocm"):
            t.cuda.reset_peak_memory_stats()
        elif hw == "xpu":
            with contextlib.suppress(Exception):
                t.xpu.reset_peak_memory_stats()
        elif hw == "mps":
            self._mps_peak = (0.0, 0.0)
        elif hw == "cpu":
            self._trim()
            self._hwm_reset = False
            with contextlib.suppress(OSError):
                with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
                    f.write("5")
                self._hwm_reset = self._status_mb("VmHWM") is not None

    def sample(self) -> None:
        """Called after each run; only mps needs it."""
        if self.hardware == "mps":
            with contextlib.suppress(Exception):
                alloc = self.torch.mps.current_allocated_memory() / _MIB
                driver = self.torch.mps.driver_allocated_memory() / _MIB
                self._mps_peak = (max(self._mps_peak[0], alloc), max(self._mps_peak[1], driver))

    def stop(self) -> Tuple[Optional[float], Optional[float], str]:
        """``(memory_mb, memory_device_mb, how)`` for the case just run."""
        t, hw = self.torch, self.hardware
        if hw in ("cuda", "rocm"):
            return (
                t.cuda.max_memory_allocated() / _MIB,
                t.cuda.max_memory_reserved() / _MIB,
                "memory: allocator peak (torch.cuda.max_memory_allocated) and its peak reservation "
                "(max_memory_reserved, without the CUDA context), weights included",
            )
        if hw == "xpu":
            with contextlib.suppress(Exception):
                return (
                    t.xpu.max_memory_allocated() / _MIB,
                    t.xpu.max_memory_reserved() / _MIB,
                    "memory: allocator peak (torch.xpu.max_memory_allocated) and peak reservation, weights included",
                )
            return None, None, "memory: not available on this xpu build"
        if hw == "mps":
            alloc, driver = self._mps_peak
            return (
                alloc or None,
                driver or None,
                "memory: torch.mps current/driver allocated memory sampled after each run (no peak counter)",
            )
        if self._hwm_reset:
            peak = self._status_mb("VmHWM")
            how = "peak RSS of the case (VmHWM, reset via /proc/self/clear_refs)"
        else:
            peak = self._maxrss_mb()
            how = "peak RSS of the process so far (ru_maxrss, not reset between cases)"
        base = self.baseline_rss_mb
        growth = peak - base if peak is not None and base is not None else None
        return (
            None,
            growth if growth is not None and growth > 0 else None,
            f"memory: {how} minus the RSS once the model was built plus the model's weights and buffers "
            "(libraries loaded on the way left out); no allocator peak on cpu",
        )


def _transformers_version(transformers: Any) -> Tuple[int, int]:
    match = re.match(r"(\d+)\.(\d+)", str(transformers.__version__))
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def model_bytes(model: Any) -> int:
    """Bytes of a module's parameters and buffers, shared tensors counted once."""
    seen = set()
    total = 0
    for tensor in list(model.parameters()) + list(model.buffers()):
        key = (tensor.device, tensor.data_ptr())
        if key in seen:
            continue
        seen.add(key)
        total += tensor.numel() * tensor.element_size()
    return total


def _has_experts(config: Any) -> bool:
    """Whether a transformers config describes a mixture of experts."""
    keys = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts")
    return any(int(getattr(config, k, 0) or 0) > 1 for k in keys)


class Bench:
    """A model built once, and the cases run on it."""

    def __init__(self, args: argparse.Namespace, torch: Any, transformers: Any, hardware: str) -> None:
        self.args = args
        self.torch = torch
        self.transformers = transformers
        self.hardware = hardware
        self.device = torch.device(torch_device_type(hardware))
        self.dtype = getattr(torch, _DTYPE_NAMES[args.precision])
        self.autocast_dtype = None if args.autocast == "none" else getattr(torch, _DTYPE_NAMES[args.autocast])
        self.kind: str = args.kind
        self.memory = MemoryProbe(torch, hardware)
        self.model, self.model_class = self._build()
        self.parameters = sum(p.numel() for p in self.model.parameters())
        self.memory.model_built(model_bytes(self.model))
        self.compile_mode = compile_mode(args)
        if self.compile_mode is None:
            self.runner = self.model
        elif self.compile_mode == "default":
            self.runner = torch.compile(self.model)
        else:
            self.runner = torch.compile(self.model, mode=self.compile_mode)
        forward = inspect.signature(self.model.forward).parameters
        self.cache_kwarg = "cache" if "cache" in forward and "past_key_values" not in forward else "past_key_values"
        self.logits_to_keep = next((k for k in ("logits_to_keep", "num_logits_to_keep") if k in forward), None)
        config = self.model.config
        self.vocab = int(getattr(config, "vocab_size", 0) or 0)
        self.max_positions = getattr(config, "max_position_embeddings", None)
        self.image_size = int(getattr(config, "image_size", 224) or 224)
        self.channels = int(getattr(config, "num_channels", 3) or 3)
        self.attention = getattr(config, "_attn_implementation", None)
        self.experts = getattr(config, "_experts_implementation", None) if _has_experts(config) else None

    # ---- building

    def _build(self) -> Tuple[Any, str]:
        t, tf = self.torch, self.transformers
        config_dict = {k: v for k, v in self.args.config_dict.items() if k not in ("torch_dtype", "dtype")}
        config_dict.pop("quantization_config", None)  # random weights are never quantized
        model_type = config_dict.pop("model_type")
        config = tf.AutoConfig.for_model(model_type, **config_dict)
        auto = tf.AutoModelForCausalLM if self.kind == CAUSAL_LM else tf.AutoModel
        dtype_kw = "dtype" if _transformers_version(tf) >= (4, 56) else "torch_dtype"
        t.manual_seed(self.args.seed)
        with self.device:
            model = auto.from_config(config, **{dtype_kw: self.dtype})
        floating = {p.dtype for p in model.parameters() if p.is_floating_point()}
        if floating != {self.dtype}:
            model = model.to(dtype=self.dtype)
        model = model.to(self.device)
        model.eval()
        return model, f"{auto.__name__}.from_config -> {type(model).__name__}"

    # ---- inputs

    def _ids(self, batch: int, seq: int) -> Any:
        return self.torch.randint(0, max(self.vocab, 2), (batch, seq), device=self.device)

    def _mask(self, batch: int, seq: int) -> Any:
        return self.torch.ones((batch, seq), dtype=self.torch.long, device=self.device)

    def _inputs(self, case: Case) -> Dict[str, Any]:
        if self.kind == VISION:
            pixels = self.torch.randn(
                (case.batch_size, self.channels, self.image_size, self.image_size), device=self.device
            )
            return {"pixel_values": pixels.to(self.dtype)}
        seq = case.sequence_length or 1
        return {"input_ids": self._ids(case.batch_size, seq), "attention_mask": self._mask(case.batch_size, seq)}

    def _autocast(self) -> Any:
        if self.autocast_dtype is None:
            return contextlib.nullcontext()
        return self.torch.autocast(device_type=self.device.type, dtype=self.autocast_dtype)

    # ---- steps: (timed step, after-step, what the notes say)

    def _check_positions(self, case: Case) -> None:
        seq = case.sequence_length
        if seq is None or not isinstance(self.max_positions, int) or self.max_positions <= 0:
            return
        need = seq + 1 if case.workload == "decode" else seq
        if need > self.max_positions:
            raise CaseSkipped(f"{need} positions exceed max_position_embeddings {self.max_positions}")

    def _forward_step(self, case: Case) -> Tuple[Callable[[], None], Callable[[], None], str]:
        inputs = self._inputs(case)
        if self.kind == CAUSAL_LM:
            inputs["use_cache"] = False
        t = self.torch

        def run() -> None:
            with t.inference_mode(), self._autocast():
                self.runner(**inputs)

        what = (
            f"one forward pass over {self.image_size}x{self.image_size} images"
            if self.kind == VISION
            else f"one forward pass over {case.sequence_length} tokens"
            + (" (all positions' logits, no KV cache)" if self.kind == CAUSAL_LM else "")
        )
        return run, lambda: None, what + " under torch.inference_mode()"

    def _prefill_step(self, case: Case) -> Tuple[Callable[[], None], Callable[[], None], str]:
        inputs = self._inputs(case)
        inputs["use_cache"] = True
        if self.logits_to_keep:
            inputs[self.logits_to_keep] = 1
        t = self.torch

        def run() -> None:
            with t.inference_mode(), self._autocast():
                self.runner(**inputs)

        last = ", logits of the last position only" if self.logits_to_keep else ""
        return run, lambda: None, (
            f"prefill: one forward pass over {case.sequence_length} prompt tokens with use_cache=True{last}, "
            "under torch.inference_mode()"
        )

    def _prefill_cache(self, batch: int, seq: int) -> Any:
        """A KV cache of ``seq`` tokens, from an untimed prefill."""
        t = self.torch
        prompt = {"input_ids": self._ids(batch, seq), "attention_mask": self._mask(batch, seq), "use_cache": True}
        if self.logits_to_keep:
            prompt[self.logits_to_keep] = 1
        with t.inference_mode(), self._autocast():
            out = self.model(**prompt)
        cache = getattr(out, "past_key_values", None)
        if cache is None:
            cache = getattr(out, "cache", None)
        if cache is None:
            raise CaseSkipped("the model returned no KV cache")
        return cache

    def _static_decode_step(self, case: Case) -> Tuple[Callable[[], None], Callable[[], None], str]:
        """Decode against a ``StaticCache`` of ``seq + 1`` slots: an untimed prefill fills the first
        ``seq``, and each step writes its token into the last, so every step sees the same context."""
        t = self.torch
        batch, seq = case.batch_size, case.sequence_length or 1
        static_cache = getattr(self.transformers, "StaticCache", None)
        if static_cache is None:
            raise CaseSkipped(f"transformers {self.transformers.__version__} has no StaticCache")
        try:
            cache = static_cache(config=self.model.config, max_cache_len=seq + 1)
        except Exception as e:  # noqa: BLE001 - a model whose cache StaticCache cannot hold is skipped
            raise CaseSkipped(f"no StaticCache for this model ({type(e).__name__}: {e})") from e
        prompt = {
            "input_ids": self._ids(batch, seq),
            "attention_mask": self._mask(batch, seq),
            "use_cache": True,
            self.cache_kwarg: cache,
        }
        if self.logits_to_keep:
            prompt[self.logits_to_keep] = 1
        with t.inference_mode(), self._autocast():
            self.model(**prompt)
        step_inputs = {
            "input_ids": self._ids(batch, 1),
            "attention_mask": self._mask(batch, seq + 1),
            "use_cache": True,
            self.cache_kwarg: cache,
        }

        def run() -> None:
            with t.inference_mode(), self._autocast():
                self.runner(**step_inputs)

        lengths = [getattr(layer, "cumulative_length", None) for layer in getattr(cache, "layers", ())]
        if not lengths or not all(t.is_tensor(n) for n in lengths) or int(cache.get_seq_length()) != seq:
            raise CaseSkipped("this StaticCache keeps no length tensor to set back after each step")

        def after() -> None:
            # Each layer's length is a tensor (its slots stay where they are): setting it back to the
            # context makes the next step write the same slot at the same position (on a GPU they
            # are inference tensors, set under inference mode as they were made).
            with t.inference_mode():
                for n in lengths:
                    n.fill_(seq)

        return run, after, (
            f"decode: one next-token step ({batch} token(s), one per sequence) against a StaticCache of "
            f"{seq + 1} slots whose first {seq} an untimed prefill filled (each step rewrites slot {seq}), "
            "under torch.inference_mode()"
        )

    def _decode_step(self, case: Case) -> Tuple[Callable[[], None], Callable[[], None], str]:
        if getattr(self.args, "kv_cache", "dynamic") == "static":
            return self._static_decode_step(case)
        t = self.torch
        batch, seq = case.batch_size, case.sequence_length or 1
        step_inputs = {
            "input_ids": self._ids(batch, 1),
            "attention_mask": self._mask(batch, seq + 1),
            "use_cache": True,
        }
        state: Dict[str, Any] = {"cache": self._prefill_cache(batch, seq)}

        def run() -> None:
            with t.inference_mode(), self._autocast():
                self.runner(**step_inputs, **{self.cache_kwarg: state["cache"]})

        def crop() -> bool:
            cache = state["cache"]
            if not (hasattr(cache, "crop") and hasattr(cache, "get_seq_length")):
                return False
            if getattr(cache, "is_croppable", True) is False:
                return False
            try:
                cache.crop(-1)  # negative: drop that many tokens (transformers 4.x and 5.x alike)
                return int(cache.get_seq_length()) == seq
            except Exception:  # noqa: BLE001 - a cache that cannot be cut back is deep-copied instead
                return False

        # One untimed trial step tells whether the cache can be cut back to `seq` tokens; if not,
        # every step gets a deep copy of a pristine cache (the copy is made outside the timing).
        run()
        pristine = None
        if not crop():
            state["cache"] = None
            pristine = self._prefill_cache(batch, seq)
            state["cache"] = copy.deepcopy(pristine)

        def after() -> None:
            if pristine is None:
                if not crop():
                    raise RuntimeError("the KV cache could not be cut back to its context length")
            else:
                state["cache"] = copy.deepcopy(pristine)

        how = "cut back with crop(-1) after each step" if pristine is None else "a fresh deep copy for each step"
        return run, after, (
            f"decode: one next-token step ({batch} token(s), one per sequence) against a KV cache of {seq} tokens "
            f"built by an untimed prefill, the cache {how}, under torch.inference_mode()"
        )

    def _train_step(self, case: Case) -> Tuple[Callable[[], None], Callable[[], None], str]:
        t = self.torch
        inputs = self._inputs(case)
        if self.kind == CAUSAL_LM:
            inputs["labels"] = inputs["input_ids"]
            inputs["use_cache"] = False
        self.model.train()
        optimizer = t.optim.AdamW([p for p in self.model.parameters() if p.requires_grad], lr=1e-5)
        self._optimizer = optimizer

        def run() -> None:
            with self._autocast():
                out = self.runner(**inputs)
                if self.kind == CAUSAL_LM:
                    loss = out.loss
                else:
                    hidden = out.last_hidden_state if hasattr(out, "last_hidden_state") else out[0]
                    loss = hidden.float().pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)

        loss_what = (
            "the LM loss on its own tokens" if self.kind == CAUSAL_LM else "mean square of the last hidden state"
        )
        over = (
            f"{self.image_size}x{self.image_size} images"
            if self.kind == VISION
            else f"{case.sequence_length} tokens per sample"
        )
        return run, lambda: None, (
            f"train-step: forward over {over} with {loss_what}, loss.backward(), torch.optim.AdamW step "
            "(default implementation), zero_grad(set_to_none=True); dropout on"
        )

    # ---- running

    def run_case(self, case: Case) -> Dict[str, Any]:
        """Measure one case and return its record fields."""
        t, hw, a = self.torch, self.hardware, self.args
        self._check_positions(case)
        self._optimizer = None
        self.memory.start()
        try:
            make = {
                "forward": self._forward_step,
                "prefill": self._prefill_step,
                "decode": self._decode_step,
                "train-step": self._train_step,
            }[case.workload]
            run, after, what = make(case)

            def step() -> float:
                synchronize(t, hw)
                started = time.perf_counter()
                run()
                synchronize(t, hw)
                elapsed = (time.perf_counter() - started) * 1e3
                self.memory.sample()
                after()
                return elapsed

            timing = time_runs(step, warmup=a.warmup, min_runs=a.min_runs, max_runs=a.max_runs, budget_ms=a.budget_ms)
            memory_mb, memory_device_mb, memory_how = self.memory.stop()
        finally:
            self.model.eval()
            if self._optimizer is not None:
                self.model.zero_grad(set_to_none=True)
                self._optimizer = None
        items = items_per_step(case)
        return {
            "workload": case.workload,
            "batch_size": case.batch_size,
            "sequence_length": case.sequence_length,
            "throughput": items / (timing.p50_ms / 1e3) if timing.p50_ms > 0 else None,
            "throughput_unit": throughput_unit(case.workload, self.kind),
            "latency_mean_ms": timing.mean_ms,
            "latency_p50_ms": timing.p50_ms,
            "latency_p90_ms": timing.p90_ms,
            "memory_mb": memory_mb,
            "memory_device_mb": memory_device_mb,
            "warmup_runs": timing.warmup_runs,
            "timed_runs": timing.timed_runs,
            "_what": what,
            "_memory": memory_how,
        }

    def notes(self, what: str, memory: str, timed_runs: int) -> str:
        """The record's ``notes``: weights, what was timed, how, and how memory was taken."""
        a = self.args
        sync = ", the device synchronized before and after each" if self.hardware != "cpu" else ""
        parts = [
            f"random weights from config.json ({self.model_class}, {self.parameters / 1e6:.1f}M parameters"
            + (f", attention {self.attention}" if self.attention else "")
            + (f", experts {self.experts}" if self.experts else "")
            + ")",
            f"timed: {what}",
            f"latency: median/p90/mean of {timed_runs} timed run(s) after {a.warmup} warm-up run(s){sync}",
            memory,
        ]
        if self.compile_mode is not None:
            parts.append(
                f"torch.compile ({self.compile_mode} mode), compiled during the warm-up runs, "
                f"up to {RECOMPILE_LIMIT} graphs kept (one per case's shapes)"
            )
        if self.autocast_dtype is not None:
            parts.append(f"torch.autocast({self.device.type}, {a.autocast}) over {a.precision} weights")
        return "; ".join(parts)


def _write_output(records: List[Dict[str, Any]], output: str) -> None:
    text = json.dumps(records, indent=2, ensure_ascii=False) + "\n"
    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(output)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> int:
    """Run every case of every model of parsed ``args``; write each model's records as soon as it is
    done; return the exit status (``EXIT_NO_CASE`` when some model measured nothing).

    torch is imported and the device initialised once for all models. While the cases run,
    anything printed to stdout goes to stderr, so that with ``--output -`` stdout carries the JSON
    array alone."""
    with contextlib.redirect_stdout(sys.stderr):
        try:
            torch, transformers = import_runtime()
        except MissingDependency as e:
            _log(f"error: {e}")
            return EXIT_USAGE
        if args.threads:
            torch.set_num_threads(args.threads)
        try:
            hardware = resolve_hardware(torch, args.hardware)
        except RuntimeError as e:
            _log(f"error: {e}")
            return EXIT_NO_CASE
    status = EXIT_OK
    for job in getattr(args, "jobs", [args]):
        records: List[Dict[str, Any]] = []
        with contextlib.redirect_stdout(sys.stderr):
            _run_cases(job, torch, transformers, hardware, records, job.output)
            # The next model gets the device's memory back.
            gc.collect()
            empty_cache(torch, hardware)
        _write_output(records, job.output)
        if not records:
            _log(f"error: {job.model_name}: no case succeeded")
            status = EXIT_NO_CASE
    return status


#: Compiled graphs TorchDynamo keeps per function before it falls back to eager: one per case's
#: shapes at most (its default, 8, would turn the later cases of a long list silently eager).
RECOMPILE_LIMIT = 256


def compile_mode(args: argparse.Namespace) -> Optional[str]:
    """The ``torch.compile`` mode a run uses, ``None`` for eager."""
    if not getattr(args, "compile", False):
        return None
    return getattr(args, "compile_mode", None) or "default"


def execution(args: argparse.Namespace) -> str:
    """The records' ``execution``: ``eager``, ``torch.compile``, or ``torch.compile (MODE)`` for a
    mode other than the default."""
    mode = compile_mode(args)
    if mode is None:
        return "eager"
    return "torch.compile" if mode == "default" else f"torch.compile ({mode})"


def allow_recompiles(torch: Any) -> None:
    """Let torch.compile keep a graph for every case's shapes (``RECOMPILE_LIMIT``)."""
    try:
        config = importlib.import_module(f"{torch.__name__}._dynamo.config")
    except ImportError:  # a torch without TorchDynamo compiles nothing to keep
        return
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        if hasattr(config, name):
            setattr(config, name, max(int(getattr(config, name)), RECOMPILE_LIMIT))


def _run_cases(
    args: argparse.Namespace,
    torch: Any,
    transformers: Any,
    hardware: str,
    records: List[Dict[str, Any]],
    output: str = "-",
) -> None:
    """Build one model and run its cases, appending their records; with a file ``output``, the
    records so far are written there after each case, so that a runner stopped part way (a time
    limit, a crash) leaves every case it finished."""
    if args.compile and args.warmup == 0:
        _log("note: --compile with --warmup 0: the first timed run includes compilation")
    if args.compile:
        allow_recompiles(torch)
    device, device_name = device_names(torch, hardware)
    _log(
        f"{args.model_name}: building {args.kind} model from {args.config} on {hardware} ({device_name}), "
        f"{args.precision}, torch {torch.__version__}, transformers {transformers.__version__}"
    )
    started = time.perf_counter()
    try:
        bench = Bench(args, torch, transformers, hardware)
    except Exception as e:  # noqa: BLE001 - any build failure ends the run with a message
        _log(f"error: cannot build {args.model_name}: {type(e).__name__}: {e}")
        return
    elapsed = time.perf_counter() - started
    _log(f"built {bench.parameters / 1e6:.1f}M parameters in {elapsed:.1f} s ({bench.model_class})")
    host = host_facts(torch, transformers, hardware)
    common = {
        "model_name": args.model_name,
        "model_family": KIND_FAMILY[args.kind],
        "model_parameters_m": bench.parameters / 1e6,
        "device": device,
        "device_name": device_name,
        "device_count": 1,
        "hardware_type": hardware,
        "runtime": RUNTIME,
        "runtime_version": str(torch.__version__),
        "execution": execution(args),
        "math_mode": math_mode(torch, hardware, args.precision, args.autocast),
        "precision": args.precision,
        "source": SOURCE,
        "host": host,
    }
    cases = cases_for(args.kind, args.workloads, args.batch_sizes, args.seq_lengths)
    for i, case in enumerate(cases, 1):
        label = f"[{i}/{len(cases)}] {case.label()}"
        try:
            fields = bench.run_case(case)
            what, memory = fields.pop("_what"), fields.pop("_memory")
            record = build_record(
                {
                    **common,
                    **fields,
                    "measured_at": now_rfc3339(),
                    "notes": bench.notes(what, memory, fields["timed_runs"]),
                }
            )
        except KeyboardInterrupt:
            raise
        except CaseSkipped as e:
            _log(f"{label}: skipped: {e}")
            empty_cache(torch, hardware)
            continue
        except Exception as e:  # noqa: BLE001 - OOM, unsupported op ...: report and go on
            message = str(e).strip().splitlines()[0] if str(e).strip() else ""
            _log(f"{label}: failed: {type(e).__name__}: {message[:300]}")
            empty_cache(torch, hardware)
            continue
        records.append(record)
        if output != "-":
            _write_output(records, output)
        mem = record.get("memory_mb", record.get("memory_device_mb"))
        _log(
            f"{label}: p50 {record['latency_p50_ms']:.2f} ms, {record['throughput']:.1f} {record['throughput_unit']}"
            + (f", {mem:.0f} MiB" if mem else "")
            + f" ({record['timed_runs']} runs)"
        )
    _log(f"{len(records)} of {len(cases)} case(s) measured in {time.perf_counter() - started:.1f} s")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m hwfit_client.bench``; returns the exit status."""
    args = parse_args(argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

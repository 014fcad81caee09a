//! Command-line interface definition (clap derive). Defaults are the core's
//! (`hwfit_core::api::defaults`); a flag left out leaves the request field at its default.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use hwfit_core::api::defaults;
use hwfit_core::api::StarterRuntime;
use hwfit_core::{Family, HardwareType, Mode, Precision, TaskType, Workload};

/// Which hardware should this ML model run on, how fast, how big.
#[derive(Debug, Parser)]
#[command(name = "hwfit", version, about, propagate_version = true)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
    /// The learned predictor: an ONNX model `hwfit train` wrote, or `none` for the analytic model
    /// alone (default: the trained model built in).
    #[arg(long, global = true, value_name = "FILE|none", env = "HWFIT_PREDICTOR")]
    pub predictor: Option<String>,
}

/// Every hwfit command: the core's questions (one subcommand each, named as in every face; `hwfit
/// questions` lists them), then this machine's commands and the maintainers' tasks.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Select the hardware to run a model on, ranked by predicted performance.
    Select(SelectArgs),
    /// Select hardware for several models at once.
    #[command(visible_alias = "batch")]
    BatchSelect(BatchArgs),
    /// The hardware selection map: families × size categories × batch sizes × modes.
    Map(MapArgs),
    /// Predict throughput, latency and memory of a model on devices or hardware types.
    Predict(PredictArgs),
    /// Predictions for models × hardware × batch sizes × precisions (the predictor guide's matrix).
    Matrix(MatrixArgs),
    /// Plan distributed training: strategy, batches, memory, torchrun and DeepSpeed configs.
    Distributed(DistributedArgs),
    /// Predictions and recommendations for one model across hardware, batch sizes and modes.
    Analyze(AnalyzeArgs),
    /// Classify a model into a family and subfamily, with the analyses behind it.
    Classify(ClassifyArgs),
    /// List the model catalog (`hwfit models MODEL` is an alias of `hwfit model MODEL`).
    Models(ModelsArgs),
    /// One model's architecture and derived figures.
    Model(ModelArgs),
    /// Recommend catalog models for a task under hardware constraints.
    Recommend(RecommendArgs),
    /// Which of the given models run on a hardware type or device.
    #[command(visible_alias = "compatible")]
    CompatibleModels(CompatibleArgs),
    /// Estimate memory, CPU cores and disk a model needs on a hardware type.
    Resources(ResourcesArgs),
    /// A resource-pool configuration for several models.
    #[command(visible_alias = "resource-config")]
    ResourcePool(ResourcePoolArgs),
    /// Which hardware types run which model families and precisions.
    #[command(visible_alias = "compat")]
    Compatibility(JsonFlag),
    /// List the device catalog with its sourced specs.
    Devices(DevicesArgs),
    /// Render a runnable starter file for a model on its recommended hardware.
    Template(TemplateArgs),
    /// The questions hwfit answers: each one's name in the CLI, JS and Python, its HTTP route, and
    /// whether it runs on this machine's devices when no hardware is named.
    Questions(JsonFlag),
    /// Detect this machine's CPU, memory, GPUs and runtimes (cached), optionally benchmarking them.
    Detect(DetectArgs),
    /// Serve the REST API (IPFS Accelerate's hardware-selection API) over HTTP.
    Serve(ServeArgs),
    /// The benchmark database: import measurements, list, count, export.
    #[command(subcommand)]
    Db(DbCommand),
    /// Measure models on this machine with a runtime (tract, ONNX Runtime, PyTorch, llama.cpp) on
    /// its CPU or GPU, and store the records, with the microbenchmark figures, in the benchmark database.
    Bench(BenchArgs),
    /// Train the learned predictor on the measurements and write it as ONNX, with the
    /// leave-devices-out cross-validation report.
    Train(TrainArgs),
    /// Maintainers: fit the analytic performance model's coefficients to the measured data and
    /// report its accuracy (formerly `hwfit calibrate`, still accepted).
    #[command(alias = "calibrate")]
    Fit(FitArgs),
}

/// The runtime `hwfit bench` measures with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchRuntime {
    /// tract, in this binary: catalog architectures as ONNX graphs on the CPU.
    Tract,
    /// ONNX Runtime, loaded at run time: the same graphs on any of its execution providers.
    #[value(name = "onnxruntime", alias = "ort")]
    OnnxRuntime,
    /// PyTorch through the Python client's runner (`python -m hwfit_client.bench`): Hugging Face
    /// models built from their config.json, eager or torch.compile, inference or training.
    #[value(name = "pytorch", alias = "torch")]
    Pytorch,
    /// llama.cpp's `llama-bench` on GGUF files.
    #[value(name = "llama.cpp", alias = "llamacpp")]
    LlamaCpp,
}

/// Where `hwfit bench` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchHardware {
    /// The best hardware this machine has that the runtime can use (a GPU over the CPU).
    Auto,
    /// The CPU.
    Cpu,
    /// An NVIDIA GPU.
    Cuda,
    /// An AMD GPU.
    Rocm,
    /// An Apple-silicon GPU (PyTorch's MPS, ONNX Runtime's Core ML, llama.cpp's Metal).
    Mps,
    /// An Intel GPU (PyTorch's XPU, ONNX Runtime's OpenVINO, llama.cpp's SYCL).
    Xpu,
}

/// Arguments of `hwfit bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The runtime to measure with.
    #[arg(long, value_enum, default_value = "tract")]
    pub runtime: BenchRuntime,
    /// Where to run (tract: the CPU only).
    #[arg(long, value_enum, default_value = "cpu")]
    pub hardware: BenchHardware,
    /// Inference (forward, prefill, decode) or training steps (PyTorch only).
    #[arg(long, default_value = "inference")]
    pub mode: hwfit_core::Mode,
    /// Models (repeatable): catalog names, config.json files, or with llama.cpp GGUF files
    /// (default: all-MiniLM-L6-v2, bert-base-uncased, gpt2, resnet-50; with --family, that
    /// family's catalog models the runtime builds and the memory holds).
    #[arg(long = "model", value_name = "MODEL")]
    pub models: Vec<String>,
    /// Only models of this family (embedding, text_generation, vision).
    #[arg(long)]
    pub family: Option<hwfit_core::Family>,
    /// Only these workloads (forward, prefill, decode, train-step; default: each model's for
    /// --mode: forward for encoders and vision, prefill and decode for generators, train-step).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub workloads: Vec<Workload>,
    /// Batch sizes.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 4])]
    pub batch_sizes: Vec<u32>,
    /// Sequence lengths (prompt tokens, or the KV context for decode).
    #[arg(long, value_delimiter = ',', default_values_t = [16, 64])]
    pub seq_lengths: Vec<u32>,
    /// Threads the runtime computes on (default: this machine's physical cores).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub pytorch: BenchPytorchArgs,
    #[command(flatten)]
    pub onnxruntime: BenchOnnxRuntimeArgs,
    #[command(flatten)]
    pub llama_cpp: BenchLlamaCppArgs,
    /// The Python that runs PyTorch, and where ONNX Runtime is looked for (default:
    /// `$HWFIT_PYTHON`, else python3).
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Timed runs stop after this long per case (at least 3 runs), ms.
    #[arg(long, default_value_t = 1500)]
    pub budget_ms: u64,
    /// Skip the GPU microbenchmark and store no microbenchmark records (the CPU copy rate is still
    /// measured: it is this host's bandwidth in the predictions the records are compared with).
    #[arg(long)]
    pub no_microbenchmark: bool,
    /// Also write the records as JSON (hwfit's export format, importable with `hwfit db import`).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write the report as Markdown.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub database: DatabaseArg,
    /// Do not store in the database.
    #[arg(long)]
    pub no_store: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `hwfit bench --runtime pytorch` options.
#[derive(Debug, Args)]
#[command(next_help_heading = "PyTorch")]
pub struct BenchPytorchArgs {
    /// The weights' precision (fp32, fp16, bf16; the graphs of tract and ONNX Runtime are fp32, a
    /// GGUF file has its own).
    #[arg(long)]
    pub precision: Option<String>,
    /// Run under autocast to this type (fp16, bf16).
    #[arg(long, value_name = "TYPE")]
    pub autocast: Option<String>,
    /// Compile the model with torch.compile.
    #[arg(long)]
    pub compile: bool,
    /// torch.compile's mode (implies --compile): default, reduce-overhead (CUDA graphs),
    /// max-autotune, max-autotune-no-cudagraphs.
    #[arg(long, value_enum, value_name = "MODE")]
    pub compile_mode: Option<CompileMode>,
    /// Decode's KV cache: dynamic (transformers' default) or static (a StaticCache; what CUDA
    /// graphs need).
    #[arg(long, value_enum, default_value = "dynamic", value_name = "CACHE")]
    pub kv_cache: KvCache,
}

/// `torch.compile` modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompileMode {
    /// Inductor's default: fused kernels, launched one by one.
    Default,
    /// Fused kernels replayed as CUDA graphs.
    ReduceOverhead,
    /// Autotuned kernels, replayed as CUDA graphs.
    MaxAutotune,
    /// Autotuned kernels, launched one by one.
    MaxAutotuneNoCudagraphs,
}

/// The KV cache a decode step reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KvCache {
    /// transformers' `DynamicCache`, grown by each token.
    Dynamic,
    /// A `StaticCache` of fixed length, written in place.
    Static,
}

/// `hwfit bench --runtime onnxruntime` options.
#[derive(Debug, Args)]
#[command(next_help_heading = "ONNX Runtime")]
pub struct BenchOnnxRuntimeArgs {
    /// The execution provider (cpu, cuda, tensorrt, rocm, migraphx, openvino, coreml, directml;
    /// default: the one for --hardware).
    #[arg(long, value_name = "PROVIDER")]
    pub execution_provider: Option<String>,
    /// The library (default: `$ORT_DYLIB_PATH`, else the Python onnxruntime package's, else the
    /// system's libonnxruntime).
    #[arg(long, value_name = "PATH")]
    pub onnxruntime_lib: Option<PathBuf>,
}

/// `hwfit bench --runtime llama.cpp` options.
#[derive(Debug, Args)]
#[command(next_help_heading = "llama.cpp")]
pub struct BenchLlamaCppArgs {
    /// The llama-bench binary (default: llama-bench on PATH).
    #[arg(long, value_name = "PATH")]
    pub llama_bench: Option<PathBuf>,
    /// Tokens generated per decode test.
    #[arg(long, default_value_t = 32)]
    pub gen_tokens: u32,
}

/// Arguments of `hwfit train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Where to write the ONNX model (FILE.onnx; FILE.nnef.tar and FILE.reference.json are written beside it).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Measurement files to train on besides the built-in set (hwfit's JSON export, e.g. from `hwfit bench --output`).
    #[arg(long = "records", value_name = "FILE")]
    pub records: Vec<PathBuf>,
    /// Also train on the database's tract measurements (`hwfit bench`'s).
    #[arg(long)]
    pub from_database: bool,
    #[command(flatten)]
    pub database: DatabaseArg,
    /// Seed of the network's initial weights.
    #[arg(long, default_value_t = 20_261_123)]
    pub seed: u64,
    /// Cross-validation folds (device groups).
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port (0: any free port, printed at start).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// The benchmark database to serve at /benchmarks (a SQLite path or a postgres:// URL, as `hwfit db`).
    #[arg(long, env = "BENCHMARK_DB_PATH", value_name = "PATH|URL")]
    pub database: Option<String>,
    /// Selection config (JSON, IPFS Accelerate's shape).
    #[arg(long, env = "CONFIG_PATH", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Debug logging.
    #[arg(long, env = "DEBUG", value_parser = clap::builder::BoolishValueParser::new(), default_value = "false")]
    pub debug: bool,
    /// Log format.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
    /// Require `Authorization: Bearer KEY` on every route but /health.
    #[arg(long, env = "HWFIT_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// Allow cross-origin requests from this origin (repeatable; `*` for any).
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    pub cors_origins: Vec<String>,
    /// Largest request body, bytes.
    #[arg(long, default_value_t = 1024 * 1024)]
    pub max_body_bytes: usize,
    /// Seconds a request may take.
    #[arg(long, default_value_t = 30)]
    pub request_timeout: u64,
    /// Connections open at once, all clients together (over it: 503).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,
    /// Connections open at once from one client address (over it: 503).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections_per_client: u64,
    /// Questions computed at once (the others wait their turn within --request-timeout)
    /// [default: the number of CPU cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_concurrent_questions: Option<u64>,
    /// Seconds a client may take to send a request's headers (slow clients are closed).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// Do not detect this machine's hardware: questions that name none use every hardware type.
    #[arg(long, conflicts_with = "detection")]
    pub no_detect: bool,
    /// Answer questions that name no hardware on this detection report (`hwfit detect --json`
    /// output) instead of detecting this machine.
    #[arg(long, value_name = "FILE")]
    pub detection: Option<PathBuf>,
}

/// Arguments of `hwfit detect` (independent command-line switches).
#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools)]
pub struct DetectArgs {
    /// Probe again instead of using the cache.
    #[arg(long)]
    pub refresh: bool,
    /// Run the microbenchmarks on every GPU adapter and the CPU.
    #[arg(long)]
    pub benchmark: bool,
    /// Trust a cached report up to this many seconds old.
    #[arg(long, value_name = "SECONDS", default_value_t = 86_400)]
    pub max_age: u64,
    /// Neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// The Python interpreter whose environment's frameworks to report (default: `$VIRTUAL_ENV`,
    /// `$CONDA_PREFIX`, then `python3`).
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Print JSON (IPFS Accelerate's `hardware` map, `torch_device`, and the detailed probes).
    #[arg(long)]
    pub json: bool,
}

/// How questions learn this machine's hardware when no `--hardware`/`--device` is given.
#[derive(Debug, Args)]
pub struct DetectionArgs {
    /// Use this detection report (`hwfit detect --json` output) instead of probing.
    #[arg(long, value_name = "FILE", env = "HWFIT_DETECTION")]
    pub detection: Option<PathBuf>,
    /// Benchmark detected devices and predict on what that measures: a device the catalog knows keeps its
    /// peaks (its bandwidth lowered where the copy shows it slower), an unknown one its measured rates.
    #[arg(long, conflicts_with = "no_detect")]
    pub calibrate: bool,
    /// Do not detect: a question naming no hardware answers for every hardware type with a
    /// reference device (as `hwfit serve --no-detect`).
    #[arg(long, conflicts_with = "detection")]
    pub no_detect: bool,
}

/// `--config`: IPFS Accelerate's selection config, wherever the core reads it.
#[derive(Debug, Args)]
pub struct ConfigArg {
    /// A selection config (JSON, IPFS Accelerate's shape).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `--hardware` and `--device`, spelled and typed the same in every command.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Hardware types, each on its reference device (comma-separated or repeated; `all` for every
    /// type with a reference device).
    #[arg(long, value_name = "H1,H2")]
    pub hardware: Vec<String>,
    /// Devices from `hwfit devices` (comma-separated or repeated).
    #[arg(long = "device", visible_alias = "devices", value_name = "D1,D2")]
    pub devices: Vec<String>,
    /// A device described by its numbers: a JSON object or a file holding one (`hardware_type`,
    /// `memory_gb`, `memory_bandwidth_gbs`, `dense_tflops: {fp32, fp16?, bf16?, fp8?, int8?}`, `name?`).
    #[arg(long, value_name = "FILE|JSON")]
    pub device_spec: Option<String>,
    /// A browser, predicted on as the npm package's probe would be: its facts in words
    /// (`firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16`; also `webgpu=discrete|integrated|
    /// fallback`, `no-simd`, `webnn=cpu+gpu`, `no-wasm`), or the probe's `capabilities` object
    /// (JSON, or a file holding it). Its WebGPU, WebAssembly and WebNN back-ends join the targets.
    #[arg(long, value_name = "FACTS|FILE|JSON")]
    pub browser: Option<String>,
}

/// Which model: a name (catalog, or estimated from the name) or a Hugging Face `config.json`.
#[derive(Debug, Args)]
pub struct ModelArg {
    /// Model name or Hugging Face id (e.g. bert-base-uncased, meta-llama/Meta-Llama-3-8B).
    #[arg(value_name = "MODEL", required_unless_present_any = ["model_config", "model_flag"])]
    pub model: Option<String>,
    /// The model, as a flag (same as the positional MODEL).
    #[arg(long = "model", id = "model_flag", value_name = "MODEL", conflicts_with = "model")]
    pub model_flag: Option<String>,
    /// A Hugging Face config.json to read the architecture from (the name, if given, labels it).
    #[arg(long, value_name = "PATH")]
    pub model_config: Option<PathBuf>,
}

/// Precision, batch and sequence of one step.
#[derive(Debug, Args)]
pub struct StepArgs {
    /// Weight precision (fp32, fp16, bf16, fp8, int8, awq, nf4, mxfp4, nvfp4, q4_0, q4_k_m, q8_0 …)
    /// [default: the checkpoint's format where its config or name states one (FP8, AWQ, MXFP4,
    /// -Q4_K_M …), else fp32].
    #[arg(long)]
    pub precision: Option<Precision>,
    /// Items per step.
    #[arg(long, default_value_t = defaults::BATCH_SIZE, allow_negative_numbers = true)]
    pub batch_size: u32,
    /// Tokens per sequence (the KV context for decode) [default: 128, at most the model's positions].
    #[arg(long, visible_alias = "sequence-length", allow_negative_numbers = true)]
    pub seq_length: Option<u32>,
    /// Training at fp16/bf16: fp32 weights, gradients and AdamW state with the products under
    /// autocast (true, the default: PyTorch's AMP), or all of them at the precision (false: pure
    /// 16-bit training).
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    pub mixed_precision: Option<bool>,
}

/// How a CPU target runs.
#[derive(Debug, Args)]
pub struct ThreadsArg {
    /// Threads the run uses on a CPU target (llama.cpp's -t; default: every core): fewer compute
    /// and read at the part of the CPU they use.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub threads: Option<u32>,
}

/// Arguments of `hwfit predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    #[command(flatten)]
    pub model: ModelArg,
    #[command(flatten)]
    pub step: StepArgs,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub cpu: ThreadsArg,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// inference or training (training predicts a train step).
    #[arg(long, default_value_t = defaults::MODE)]
    pub mode: Mode,
    /// forward, prefill, decode or train-step (default: decode for text generators, forward otherwise).
    #[arg(long)]
    pub workload: Option<Workload>,
    /// The runtime to predict for: llama.cpp, tensorrt, vllm, pytorch, onnxruntime, onnxruntime-web,
    /// web-llm, tract, openvino, qnn, mlx (default: the best-documented one per hardware type and workload).
    #[arg(long)]
    pub runtime: Option<hwfit_core::Runtime>,
    /// Prompt tokens per forward pass of a prefill (llama.cpp's -ub; default: the runtime's, 512
    /// for llama.cpp, 2048 for MLX, the whole prompt elsewhere).
    #[arg(
        long,
        value_name = "TOKENS",
        visible_alias = "ubatch-size",
        allow_negative_numbers = true
    )]
    pub prompt_chunk: Option<u32>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    #[command(flatten)]
    pub model: ModelArg,
    #[command(flatten)]
    pub step: StepArgs,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub cpu: ThreadsArg,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// inference or training.
    #[arg(long, default_value_t = defaults::MODE)]
    pub mode: Mode,
    /// classification, generation, embedding, speech_recognition, fine_tuning or training.
    #[arg(long)]
    pub task_type: Option<TaskType>,
    /// Also plan distributed training over this many GPUs of the recommended type.
    #[arg(long, value_name = "GPUS")]
    pub distributed: Option<u32>,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Models.
    #[arg(required = true, value_name = "MODEL")]
    pub models: Vec<String>,
    #[command(flatten)]
    pub step: StepArgs,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub cpu: ThreadsArg,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// inference or training.
    #[arg(long, default_value_t = defaults::MODE)]
    pub mode: Mode,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub model: ModelArg,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// Batch sizes, comma-separated (default 1,8,32).
    #[arg(long, value_name = "B1,B2", value_delimiter = ',')]
    pub batch_sizes: Vec<u32>,
    /// Weight precision [default: the checkpoint's format where its config or name states one,
    /// else fp32].
    #[arg(long)]
    pub precision: Option<Precision>,
    /// Tokens per sequence [default: 128, at most the model's positions].
    #[arg(long, visible_alias = "sequence-length", allow_negative_numbers = true)]
    pub seq_length: Option<u32>,
    /// Training at fp16/bf16: fp32 weights, gradients and AdamW state with the products under
    /// autocast (true, the default: PyTorch's AMP), or all of them at the precision (false: pure
    /// 16-bit training).
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    pub mixed_precision: Option<bool>,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Print JSON (the default is a table).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// Models, comma-separated (default: the guide's bert-base-uncased, t5-small, gpt2, vit-base-patch16-224).
    #[arg(long, value_name = "M1,M2", value_delimiter = ',')]
    pub models: Vec<String>,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// Batch sizes, comma-separated (default 1,8,32).
    #[arg(long, value_name = "B1,B2", value_delimiter = ',')]
    pub batch_sizes: Vec<u32>,
    /// Precisions, comma-separated (default fp32).
    #[arg(long = "precision", value_name = "P1,P2", value_delimiter = ',')]
    pub precisions: Vec<Precision>,
    /// inference or training.
    #[arg(long, default_value_t = defaults::MODE)]
    pub mode: Mode,
    /// Tokens per sequence.
    #[arg(long, visible_alias = "sequence-length", default_value_t = defaults::SEQUENCE_LENGTH, allow_negative_numbers = true)]
    pub seq_length: u32,
    /// Write the JSON here instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print JSON (the default when --output is not given).
    #[arg(long)]
    pub json: bool,
    /// Also draw the predictor guide's five charts (hardware comparison, batch-size scaling,
    /// efficiency relative to CPU, memory, precision impact) as SVG files in DIR.
    #[arg(long, value_name = "DIR")]
    pub visualize: Option<PathBuf>,
}

/// Arguments of `hwfit map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// Families, comma-separated (default: all five).
    #[arg(long, value_name = "F1,F2", value_delimiter = ',')]
    pub families: Vec<Family>,
    /// Batch sizes, comma-separated (default 1,4,16,32,64).
    #[arg(long, value_name = "B1,B2", value_delimiter = ',')]
    pub batch_sizes: Vec<u32>,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Write the JSON here instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print JSON (the default when --output is not given).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit distributed`.
#[derive(Debug, Args)]
pub struct DistributedArgs {
    #[command(flatten)]
    pub model: ModelArg,
    /// GPUs.
    #[arg(long, allow_negative_numbers = true)]
    pub gpu_count: u32,
    /// Per-GPU batch.
    #[arg(long, allow_negative_numbers = true)]
    pub batch_size: u32,
    /// Memory per GPU, GB (default: the device's, else 80).
    #[arg(long, allow_negative_numbers = true)]
    pub max_memory_gb: Option<f64>,
    /// The GPU model.
    #[arg(long)]
    pub device: Option<String>,
    /// Tokens per sequence [default: 512, at most the model's positions].
    #[arg(long, visible_alias = "sequence-length", allow_negative_numbers = true)]
    pub seq_length: Option<u32>,
    /// Also write the DeepSpeed config to this file.
    #[arg(long, value_name = "FILE")]
    pub deepspeed_config: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit resource-pool`.
#[derive(Debug, Args)]
pub struct ResourcePoolArgs {
    /// Models.
    #[arg(required = true, value_name = "MODEL")]
    pub models: Vec<String>,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub detection: DetectionArgs,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Weight precision [default: each model's checkpoint format where its config or name states
    /// one, else fp16].
    #[arg(long)]
    pub precision: Option<Precision>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit recommend`.
#[derive(Debug, Args)]
pub struct RecommendArgs {
    /// A Hugging Face pipeline task (text-generation, image-classification …).
    #[arg(long)]
    pub task: String,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub detection: DetectionArgs,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit compatible-models`.
#[derive(Debug, Args)]
pub struct CompatibleArgs {
    /// Models.
    #[arg(required = true, value_name = "MODEL")]
    pub models: Vec<String>,
    #[command(flatten)]
    pub config: ConfigArg,
    /// The hardware type.
    #[arg(long, required_unless_present = "device", conflicts_with = "device")]
    pub hardware: Option<HardwareType>,
    /// Or a device.
    #[arg(long)]
    pub device: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit template`.
#[derive(Debug, Args)]
pub struct TemplateArgs {
    #[command(flatten)]
    pub model: ModelArg,
    /// pytorch, transformers.js or onnxruntime-web.
    #[arg(long, default_value_t = StarterRuntime::Pytorch)]
    pub runtime: StarterRuntime,
    #[command(flatten)]
    pub targets: TargetArgs,
    #[command(flatten)]
    pub detection: DetectionArgs,
    #[command(flatten)]
    pub config: ConfigArg,
    /// Items per step.
    #[arg(long, default_value_t = defaults::BATCH_SIZE, allow_negative_numbers = true)]
    pub batch_size: u32,
    /// Weight precision (default: fp16 on GPUs, fp32 elsewhere).
    #[arg(long)]
    pub precision: Option<Precision>,
    /// Write the file here instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print JSON (the rendered file and what it was rendered for).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit devices`.
#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Only devices of this hardware type.
    #[arg(long)]
    pub hardware: Option<HardwareType>,
    /// List the device database too (~2,000 GPUs and SoCs), not only the curated devices.
    #[arg(long)]
    pub all: bool,
    /// Only devices whose id, name or an alias contains every word of this (searches the database).
    #[arg(long, value_name = "WORDS")]
    pub query: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// Write the fitted coefficients to this file (the core embeds crates/hwfit-core/data/perf_fit.json).
    #[arg(long, value_name = "PATH")]
    pub write: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--json` alone.
#[derive(Debug, Args)]
pub struct JsonFlag {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    #[command(flatten)]
    pub model: ModelArg,
    /// The transformers class name (e.g. GPT2LMHeadModel).
    #[arg(long = "class", value_name = "CLASS")]
    pub class: Option<String>,
    /// A Hugging Face pipeline tag (repeatable).
    #[arg(long = "task", value_name = "TASK")]
    pub tasks: Vec<String>,
    /// A method the model offers (repeatable).
    #[arg(long = "method", value_name = "METHOD")]
    pub methods: Vec<String>,
    /// Custom family definitions (JSON) that extend the built-in ones.
    #[arg(long, value_name = "PATH")]
    pub families: Option<PathBuf>,
    /// A model database (JSON) to answer from and to record results in.
    #[arg(long, value_name = "PATH")]
    pub model_db: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit models`.
#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Show one model's full architecture instead of the list.
    #[arg(value_name = "MODEL")]
    pub model: Option<String>,
    /// A Hugging Face config.json to show instead of a catalog model.
    #[arg(long, value_name = "PATH", conflicts_with = "family")]
    pub model_config: Option<PathBuf>,
    /// Only models of this family.
    #[arg(long)]
    pub family: Option<Family>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit model`.
#[derive(Debug, Args)]
pub struct ModelArgs {
    #[command(flatten)]
    pub model: ModelArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit resources`.
#[derive(Debug, Args)]
pub struct ResourcesArgs {
    #[command(flatten)]
    pub model: ModelArg,
    #[command(flatten)]
    pub step: StepArgs,
    /// Hardware type.
    #[arg(long, default_value_t = defaults::RESOURCES_HARDWARE)]
    pub hardware: HardwareType,
    /// inference or training.
    #[arg(long, default_value_t = defaults::MODE)]
    pub mode: Mode,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Where the benchmark database is.
#[derive(Debug, Args)]
pub struct DatabaseArg {
    /// A SQLite file (created if missing) or a postgres:// URL (default: `$HWFIT_DATABASE`, else
    /// `benchmarks.sqlite` in hwfit's data directory).
    #[arg(long, value_name = "PATH|URL", env = "HWFIT_DATABASE")]
    pub database: Option<String>,
}

/// `hwfit db` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum DbCommand {
    /// Import measurement files (data/measured CSVs, IPFS Accelerate's aggregated_benchmarks.json,
    /// hwfit's export); re-importing adds nothing, a malformed row is reported with its line. Each
    /// file is stored whole or not at all; the report says per file what was stored, rejected or
    /// skipped, and the exit status is non-zero when a file could not be read or stored.
    Import {
        /// The files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        database: DatabaseArg,
        /// Store nothing unless every file reads and every row is accepted (checked before any
        /// write).
        #[arg(long)]
        all_or_nothing: bool,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List measurements, newest first.
    List {
        /// Model name contains this.
        #[arg(long)]
        model: Option<String>,
        /// Hardware type.
        #[arg(long)]
        hardware: Option<String>,
        /// Device id or name contains this.
        #[arg(long)]
        device: Option<String>,
        /// Runtime.
        #[arg(long)]
        runtime: Option<String>,
        /// At most this many.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        database: DatabaseArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Count what the database holds.
    Stats {
        #[command(flatten)]
        database: DatabaseArg,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Export every measurement (JSON imports back with `hwfit db import`).
    Export {
        /// json or csv.
        #[arg(long, default_value = "json", value_parser = ["json", "csv"])]
        format: String,
        /// Write here instead of printing.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        database: DatabaseArg,
    },
}

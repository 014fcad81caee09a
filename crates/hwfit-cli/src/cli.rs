//! Command-line interface definition (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use hwfit_core::{Family, HardwareType, Mode, Precision, Workload};

/// Which hardware should this ML model run on, how fast, how big.
#[derive(Debug, Parser)]
#[command(name = "hwfit", version, about, propagate_version = true)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Every hwfit command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Classify a model into a family and subfamily, with the analyses behind it.
    Classify(ClassifyArgs),
    /// List the model catalog, or show one model's architecture.
    Models(ModelsArgs),
    /// Estimate memory, CPU cores and disk a model needs on a hardware type.
    Resources(ResourcesArgs),
    /// Show which hardware types run which model families and precisions.
    Compat(JsonFlag),
    /// List the device catalog with its sourced specs.
    Devices(DevicesArgs),
    /// Predict throughput, latency and memory of a model on devices or hardware types.
    Predict(PredictArgs),
    /// Fit the performance model to the measured data and report its accuracy.
    Calibrate(CalibrateArgs),
    /// Select the hardware to run a model on, ranked by predicted performance.
    Select(SelectArgs),
    /// Predictions for models × hardware × batch sizes × precisions (the predictor guide's matrix).
    Matrix(MatrixArgs),
    /// The hardware selection map: families × size categories × batch sizes × modes.
    Map(MapArgs),
    /// Plan distributed training: strategy, batches, memory, torchrun and DeepSpeed configs.
    Distributed(DistributedArgs),
    /// Resource-pool configuration for several models.
    ResourceConfig(ResourceConfigArgs),
    /// Recommend catalog models for a task under hardware constraints.
    Recommend(RecommendArgs),
    /// Which of the given models run on a hardware type or device.
    Compatible(CompatibleArgs),
    /// Render a runnable starter file for a model on its recommended hardware.
    Template(TemplateArgs),
    /// Detect this machine's CPU, memory, GPUs and runtimes (cached), optionally benchmarking them.
    Detect(DetectArgs),
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
    /// Print JSON (the seeds' `hardware` map, `torch_device`, and the detailed probes).
    #[arg(long)]
    pub json: bool,
}

/// How `select` and `predict` learn this machine's hardware when no `--hardware`/`--device` is given.
#[derive(Debug, Args)]
pub struct DetectionArgs {
    /// Use this detection report (`hwfit detect --json` output) instead of probing.
    #[arg(long, value_name = "FILE", env = "HWFIT_DETECTION")]
    pub detection: Option<PathBuf>,
    /// Predict detected devices on their measured microbenchmark figures, even where the catalog knows them.
    #[arg(long)]
    pub calibrate: bool,
}

/// `--hardware` and `--device` lists.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Hardware types, comma-separated (default: every type with a reference device).
    #[arg(long, value_name = "H1,H2")]
    pub hardware: Option<String>,
    /// Devices, comma-separated or repeated.
    #[arg(long = "devices", alias = "device", value_name = "D1,D2")]
    pub devices: Vec<String>,
}

/// Arguments of `hwfit matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// Models, comma-separated (default: the guide's bert-base-uncased, t5-small, gpt2, vit-base-patch16-224).
    #[arg(long, value_name = "M1,M2")]
    pub models: Option<String>,
    #[command(flatten)]
    pub targets: TargetArgs,
    /// Batch sizes, comma-separated.
    #[arg(long, default_value = "1,8,32", value_name = "B1,B2")]
    pub batch_sizes: String,
    /// Precisions, comma-separated.
    #[arg(long, default_value = "fp32", value_name = "P1,P2")]
    pub precision: String,
    /// inference or training.
    #[arg(long, default_value = "inference")]
    pub mode: Mode,
    /// Tokens per sequence.
    #[arg(long, default_value_t = 128, allow_negative_numbers = true)]
    pub seq_length: u32,
    /// Write the JSON here instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print JSON (the default when --output is not given).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    #[command(flatten)]
    pub targets: TargetArgs,
    /// A selection config (JSON).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
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
    /// Tokens per sequence.
    #[arg(long, default_value_t = 512, allow_negative_numbers = true)]
    pub seq_length: u32,
    /// Also write the DeepSpeed config to this file.
    #[arg(long, value_name = "FILE")]
    pub deepspeed_config: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit resource-config`.
#[derive(Debug, Args)]
pub struct ResourceConfigArgs {
    /// Models.
    #[arg(required = true, value_name = "MODEL")]
    pub models: Vec<String>,
    #[command(flatten)]
    pub targets: TargetArgs,
    /// Weight precision.
    #[arg(long, default_value = "fp16")]
    pub precision: Precision,
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
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit compatible`.
#[derive(Debug, Args)]
pub struct CompatibleArgs {
    /// Models.
    #[arg(required = true, value_name = "MODEL")]
    pub models: Vec<String>,
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
    #[arg(long, default_value = "pytorch")]
    pub runtime: crate::template::Runtime,
    #[command(flatten)]
    pub targets: TargetArgs,
    /// Items per step.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
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

/// Arguments of `hwfit select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    #[command(flatten)]
    pub step: StepArgs,
    #[command(flatten)]
    pub model: ModelArg,
    /// inference or training.
    #[arg(long, default_value = "inference")]
    pub mode: Mode,
    /// Hardware types to choose from, comma-separated, or `all` (default: what `hwfit detect` finds).
    #[arg(long, value_name = "H1,H2")]
    pub hardware: Option<String>,
    /// Concrete devices to choose from (repeatable).
    #[arg(long = "device", value_name = "DEVICE")]
    pub devices: Vec<String>,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// classification, generation, embedding, speech_recognition, fine_tuning or training.
    #[arg(long)]
    pub task_type: Option<hwfit_core::TaskType>,
    /// A selection config (JSON, the seeds' shape).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit devices`.
#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Only devices of this hardware type.
    #[arg(long)]
    pub hardware: Option<HardwareType>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    #[command(flatten)]
    pub step: StepArgs,
    /// Model name or Hugging Face id.
    #[arg(long, required_unless_present = "model_config")]
    pub model: Option<String>,
    /// A Hugging Face config.json to read the architecture from.
    #[arg(long, value_name = "PATH")]
    pub model_config: Option<PathBuf>,
    /// A device from `hwfit devices` (repeatable).
    #[arg(long = "device", value_name = "DEVICE")]
    pub devices: Vec<String>,
    /// A hardware type, predicted on its reference device (repeatable or comma-separated; default:
    /// the devices `hwfit detect` finds).
    #[arg(long = "hardware", value_name = "HARDWARE", value_delimiter = ',')]
    pub hardware: Vec<HardwareType>,
    #[command(flatten)]
    pub detection: DetectionArgs,
    /// forward, prefill, decode or train (default: decode for text generators, forward otherwise).
    #[arg(long)]
    pub workload: Option<Workload>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `hwfit calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
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

/// Which model: a name (catalog, or estimated from the name) or a Hugging Face `config.json`.
#[derive(Debug, Args)]
pub struct ModelArg {
    /// Model name or Hugging Face id (e.g. bert-base-uncased, meta-llama/Meta-Llama-3-8B).
    #[arg(value_name = "MODEL", required_unless_present = "model_config")]
    pub model: Option<String>,
    /// A Hugging Face config.json to read the architecture from (the name, if given, labels it).
    #[arg(long, value_name = "PATH")]
    pub model_config: Option<PathBuf>,
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

/// Precision, batch and sequence of one step.
#[derive(Debug, Args)]
pub struct StepArgs {
    /// Weight precision (fp32, fp16, bf16, fp8, int8, int4, q4_0, q4_k_m, q5_k_m, q8_0, f16).
    #[arg(long, default_value = "fp32")]
    pub precision: Precision,
    /// Items per step.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub batch_size: u32,
    /// Tokens per sequence (the KV context for decode).
    #[arg(long, default_value_t = 128, allow_negative_numbers = true)]
    pub seq_length: u32,
}

/// Arguments of `hwfit resources`.
#[derive(Debug, Args)]
pub struct ResourcesArgs {
    #[command(flatten)]
    pub step: StepArgs,
    #[command(flatten)]
    pub model: ModelArg,
    /// Hardware type.
    #[arg(long, default_value = "cpu")]
    pub hardware: HardwareType,
    /// inference or training.
    #[arg(long, default_value = "inference")]
    pub mode: Mode,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

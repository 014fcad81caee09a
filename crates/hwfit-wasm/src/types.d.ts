// The plain objects hwfit's exports take and return. Generated from the Rust types by
// `HWFIT_UPDATE_TYPES=1 cargo test -p hwfit-wasm --features typegen typegen`; do not edit by hand.
// Field names are camelCase; enum values and map keys (ids, hardware types, precisions) keep their
// spelling (`text_generation`, `q4_k_m`, `nvidia-h100-sxm`).

/** One WebGPU adapter request. */
export interface AdapterProbe {
    architecture: string;
    available: boolean;
    description: string;
    device: string;
    features: string[];
    isFallbackAdapter: boolean;
    limits: Record<string, number>;
    powerPreference: string;
    reason?: string | null;
    vendor: string;
}

/** One analysis's opinion. */
export interface Analysis {
    /** Its confidence in that family (0–1). */
    confidence: number;
    /** What it found. */
    evidence: string[];
    /** The family it points to, if any. */
    family: string | null;
    /**
     * Which analysis (`name_analysis`, `class_analysis`, `task_analysis`, `method_analysis`,
     * `hardware_analysis`).
     */
    source: string;
    /** The subfamily it points to, if any. */
    subfamily?: string | null;
    /** Its confidence in that subfamily. */
    subfamilyConfidence?: number | null;
}

/** Analyze a model across hardware and batch sizes (`POST /analysis/model`). */
export interface AnalyzeRequest {
    /** Batch sizes (default 1, 8, 32). */
    batchSizes?: number[];
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices. */
    devices?: string[];
    /** Hardware types (IPFS Accelerate's `hardware_platforms`; default: the local devices). */
    hardware?: HardwareList;
    /**
     * The training part: mixed precision or pure, as in [`PredictRequest`] (default: mixed at
     * fp16 and bf16).
     */
    mixedPrecision?: boolean | null;
    /** A Hugging Face `config.json` object. */
    modelConfig?: unknown;
    /** The family the caller expects. */
    modelFamily?: Family | null;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /**
     * Inference precision (default: the checkpoint's format where its config or name states one,
     * else `fp32`; training uses it too where trainable, else `fp32`).
     */
    precision?: Precision | null;
    /** Tokens per sequence (default 128, at most the model's positions). */
    sequenceLength?: number | null;
}

/** Options of `predict`, `select`, `batchSelect` and `analyze` (the CLI's `--calibrate`). */
export interface AnswerOptions {
    /** Run `benchmark()` first (once per page; later calls reuse it) and predict on its rates. */
    calibrate?: boolean;
    /** A `benchmark()` report: this browser's devices are predicted on its measured rates. */
    calibration?: BenchmarkReport | null;
}

/** One model's answer in a batch (IPFS Accelerate's shape). */
export interface BatchEntry {
    /**
     * Why this model could not be answered (an unknown name, a broken `config.json`, a family that
     * contradicts it); the other models of the batch are answered all the same.
     */
    error?: string | null;
    /** Why. */
    explanation: string;
    /** The other eligible candidates, best first. */
    fallbacks: string[];
    /** Where the predictions come from. */
    predictionSource: string;
    /** The best candidate, if any can run the request. */
    primary: string | null;
}

/** One model of a batch selection. */
export interface BatchModel {
    /** The family the caller expects. */
    family?: Family | null;
    /** A Hugging Face `config.json` object. */
    modelConfig?: unknown;
    /** Model name or Hugging Face id. */
    name?: string;
}

/** Select hardware for several models (`POST /hardware/batch`). */
export interface BatchSelectRequest {
    /** Items per step (default 1). */
    batchSize?: number;
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices to choose from. */
    devices?: string[];
    /** Hardware types to choose from (default: the local devices). */
    hardware?: HardwareList;
    /**
     * Training: fp32 master weights, gradients and AdamW state with the products at `precision`
     * (`true`, the default at fp16 and bf16), or all of them at `precision` (`false`), as in
     * [`PredictRequest`].
     */
    mixedPrecision?: boolean | null;
    /** Inference (default) or training. */
    mode?: Mode;
    /** The models. */
    models?: BatchModel[];
    /**
     * Weight precision (default: the checkpoint's format where its config or name states one —
     * FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
     */
    precision?: Precision | null;
    /** Tokens per sequence (default 128, at most the model's positions). */
    sequenceLength?: number | null;
    /** IPFS Accelerate's task type. */
    taskType?: TaskType | null;
    /** Threads the run uses on a CPU candidate (default: every core), as in [`PredictRequest`]. */
    threads?: number | null;
}

/** Recommendations per batch size. */
export interface BatchSizes {
    /** batch size → entry. */
    batchSizes: Record<string, MapEntry>;
}

/** Options of `benchmark()`. */
export interface BenchmarkOptions {
    /** Skip the CPU part. */
    noCpu?: boolean;
    /** Skip the GPU part. */
    noGpu?: boolean;
    /** `high-performance` (default) or `low-power`. */
    powerPreference?: string | null;
}

/** `benchmark()`'s answer; read back as a calibration (`predict(request, {calibration})`). */
export interface BenchmarkReport {
    /** The CPU kernel compiled to wasm (one thread; absent with `noCpu`). */
    cpu?: Measurement | null;
    /** The WGSL microbenchmark on the WebGPU adapter (absent when it could not run: see `gpuError`). */
    gpu?: Measurement | null;
    /** Why there is no GPU figure. */
    gpuError?: string | null;
}

/** Which roof limits a step. */
export type Bound = "compute" | "memory" | "host";

/**
 * The facts of a probe that decide the mapping: what the npm package's `probe()` reports as
 * `capabilities`, and what the other faces take as `browser` (this object, with the probe's
 * camelCase or snake_case names, or the same facts in words: [`BrowserCapabilities::describe`]).
 * A fact left out is its default (no WebGPU, no WebAssembly, not isolated).
 */
export interface BrowserCapabilities {
    /** `crossOriginIsolated`: WebAssembly threads need it (`SharedArrayBuffer`). */
    crossOriginIsolated?: boolean;
    /** The engine (from `navigator.userAgent`), where known. */
    engine?: BrowserEngine | null;
    /** `navigator.hardwareConcurrency` (logical cores). */
    hardwareConcurrency?: number | null;
    /** Whether WebAssembly runs at all. */
    wasm?: boolean;
    /** Whether WebAssembly SIMD validates (`None`: not probed; every current browser has it). */
    wasmSimd?: boolean | null;
    /** WebGL's unmasked vendor and renderer (`WEBGL_debug_renderer_info`), where exposed. */
    webgl?: WebGlRenderer | null;
    /** The WebGPU adapter, when one was granted. */
    webgpu?: WebGpuAdapterFacts | null;
    /** WebNN device types whose `createContext` succeeded. */
    webnnContexts?: string[];
}

/** The browser engine: its WebGPU implementation (Dawn, wgpu, WebKit's) and which APIs it has. */
export type BrowserEngine = "chromium" | "firefox" | "webkit";

/** One candidate's evaluation (IPFS Accelerate's `all_scores` entry). */
export interface CandidateScore {
    /** The device predicted on. */
    device: string;
    /** Why it is not eligible, if it is not. */
    excluded: string | null;
    /** Its hardware type. */
    hardwareType: HardwareType;
    /** The prediction, when one could be made. */
    predictions: Prediction | null;
    /** How the device's name was read, for a device named in the request. */
    resolvedFrom?: ResolvedFrom | null;
    /**
     * The same step on each runtime with a fitted model for the device (see
     * [`PerfModel::runtime_comparison`]).
     */
    runtimes?: RuntimeOption[];
    /** Weighted score (0–1.1), `None` when the candidate cannot run the request. */
    score: number | null;
    /** Support of the family there. */
    support: SupportLevel;
}

/** The whole report. */
export interface CapabilityReport {
    /**
     * The same facts in words, as the CLI's `--browser` and HTTP's `browser` take them
     * (`chromium, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16`).
     */
    browser: string;
    /**
     * The facts the predictions rest on — give them as `--browser` (CLI) or `browser` (HTTP,
     * Python) to ask about this browser from elsewhere and get the same answers.
     */
    capabilities: BrowserCapabilities;
    /** Catalog class each usable type falls back to (`webgpu` → `webgpu-fallback` …). */
    deviceClasses: Record<string, string>;
    /** The device each usable type is predicted on (the identified GPU, or the class). */
    devices: Record<string, string>;
    /** Which GPU this is, read from the WebGPU adapter and the WebGL renderer, with the evidence. */
    gpu: GpuIdentification;
    /** IPFS Accelerate's `hardware` map and `torch_device`-style best type, decided by the core. */
    hardware: Record<string, boolean>;
    navigator: NavigatorProbe;
    wasm: WasmProbe;
    webgl: WebGlProbe;
    webgpu: WebGpuProbe;
    webnn: WebNnProbe;
}

/** One row of the catalog listing (`hwfit models`, the npm package's `models()`). */
export interface CatalogSummary {
    /** Other names it resolves from. */
    aliases: string[];
    /** Family. */
    family: Family;
    /** Longest sequence. */
    maxPositions: number;
    /** Canonical name. */
    name: string;
    /** Parameters, computed from the architecture. */
    parameters: number;
    /** Where the architecture figures come from. */
    reference: string;
    /** Subfamily. */
    subfamily: Subfamily;
}

/** One cell: a prediction, or why there is none. */
export type Cell = {
    /** Whether it fits the device. */
    fitsInMemory: boolean;
    /** Time per step, ms. */
    latencyMean: number;
    /** Memory, MB. */
    memoryUsage: number;
    /** Coefficient provenance. */
    source: PredictionSource;
    /** Items or tokens per second. */
    throughput: number;
    /** Its unit. */
    throughputUnit: ThroughputUnit;
} | {
    /** Why. */
    error: string;
};

/** One of the predictor guide's five charts, as SVG text. */
export interface ChartSvg {
    /**
     * `hardware_comparison`, `batch_scaling`, `efficiency`, `memory` or `precision_impact` (the
     * CLI's file names).
     */
    kind: string;
    /** The SVG document. */
    svg: string;
    /** The chart's title (also its accessible name). */
    title: string;
}

/** `charts()`'s answer: the matrix and its five charts. */
export interface ChartsAnswer {
    /** Hardware comparison, batch-size scaling, efficiency, memory, precision impact. */
    charts: ChartSvg[];
    /** The prediction matrix the charts draw. */
    matrix: PredictionMatrix;
}

/** The weight format a checkpoint is published in, and what states it. */
export interface CheckpointFormat {
    /**
     * The precision hwfit computes the checkpoint at; absent when its format is not one hwfit
     * models (EXL2, HQQ, AQLM …): a question about it must state a precision to be answered at
     * the checkpoint's size.
     */
    precision?: Precision | null;
    /** What states the format, in words (`quantization_config: quant_method 'fp8'`). */
    statedBy: string;
}

/** The classifier's answer (IPFS Accelerate's result structure, plus the recommended template). */
export interface Classification {
    /** The individual analyses. */
    analyses: Analysis[];
    /** Combined confidence in the family (0–1). */
    confidence: number;
    /** The family, or `None` when nothing pointed anywhere. */
    family: string | null;
    /** The name classified. */
    modelName: string;
    /** The starter template recommended for the family and subfamily. */
    recommendedTemplate: string | null;
    /** `combined_analysis`, or `model_db` when answered from a model database. */
    source: string;
    /** The subfamily. */
    subfamily: string | null;
    /** Combined confidence in the subfamily (0–1). */
    subfamilyConfidence: number;
}

/** Classify a model (`POST /models/classify`). */
export interface ClassifyModelRequest {
    /** Method names the model offers. */
    methods?: string[];
    /** `transformers` class name, e.g. `GPT2LMHeadModel`. */
    modelClass?: string | null;
    /**
     * A Hugging Face `config.json` object: its `_name_or_path` and `architectures[0]` fill a missing
     * name and class.
     */
    modelConfig?: unknown;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /** Hugging Face pipeline tags. */
    tasks?: string[];
}

/** How specific the coefficients behind a prediction are. */
export type CoefficientSource = "hardware_type" | "pooled_class" | "pooled_other_class" | "runtime";

/** One cell of the compatibility matrix. */
export interface CompatibilityEntry {
    /** Whether it runs at all (`support != unsupported`). */
    compatible: boolean;
    /** Where IPFS Accelerate's matrix says otherwise, why hwfit differs. */
    differsFromIpfsAccelerate?: string | null;
    /** Expected relative performance. */
    performanceRating: PerformanceRating;
    /** Why. */
    reason: string;
    /** How well. */
    support: SupportLevel;
}

/** The whole matrix in IPFS Accelerate's shape, plus precision support per hardware type. */
export interface CompatibilityMatrix {
    /** Hardware types, in hwfit's order. */
    hardwareTypes: HardwareType[];
    /** Family → hardware → entry. */
    modelFamilies: {
        audio?: FamilyRow;
        embedding?: FamilyRow;
        multimodal?: FamilyRow;
        text_generation?: FamilyRow;
        vision?: FamilyRow;
    };
    /** Hardware → supported precisions. */
    precisionSupport: {
        cpu?: PrecisionSupport[];
        cuda?: PrecisionSupport[];
        mps?: PrecisionSupport[];
        openvino?: PrecisionSupport[];
        qnn?: PrecisionSupport[];
        rocm?: PrecisionSupport[];
        wasm?: PrecisionSupport[];
        webgpu?: PrecisionSupport[];
        webnn?: PrecisionSupport[];
    };
}

/** Which hardware types run which families and precisions (`GET /compat`); it takes no fields. */
export type CompatibilityRequest = Record<string, unknown>;

/** Which models run on a candidate. */
export interface CompatibleModels {
    /** Models that run (fp16 inference, batch 1). */
    compatible: string[];
    /** The device it was judged on. */
    device: string;
    /** The candidate. */
    hardware: string;
    /** Models that do not, with the reason. */
    incompatible: Record<string, string>;
}

/** Which models run on one hardware type or device (`POST /models/compatible`). */
export interface CompatibleRequest {
    /** A device from the device catalog. */
    device?: string | null;
    /** The hardware type (or give `device`). */
    hardware?: HardwareType | null;
    /** Models. */
    models?: string[];
}

/** One part of a model. */
export type Component = TransformerStack | ConvNet | {
    /** Forward FLOPs per item. */
    flopsPerItem: number;
    /** What it is. */
    name: string;
    /**
     * Operators eager PyTorch dispatches for it in a forward pass, where they were counted
     * (0: a product and its activation).
     */
    operators?: number;
    /** Parameters. */
    parameters: number;
    type: "dense";
};

/**
 * DeepSeek-V4's attention (`deepseek_v4`; DeepSeek-V4 technical report §2.3): the queries through
 * a low-rank projection, one key/value head whose keys are its values (`head_dim` wide), the
 * output through `o_groups` grouped low-rank projections. Every layer attends to its last
 * `window` tokens; besides them, a compressed-sparse-attention (CSA) layer pools every
 * `sparse_ratio` tokens (overlapping windows: its compressor projects twice the head width) into
 * one cached entry and attends to the `index_topk` entries its lightning indexer (`index_heads` ×
 * `index_head_dim`, its own cached keys) scores highest; a heavily-compressed-attention (HCA)
 * layer pools every `heavy_ratio` tokens and attends to every entry. The other layers attend to
 * the window only.
 */
export interface CompressedAttention {
    /** Layers with heavily compressed attention. */
    heavy_layers: number;
    /** Tokens per compressed entry of an HCA layer. */
    heavy_ratio: number;
    /** The indexer's head width. */
    index_head_dim: number;
    /** The indexer's heads. */
    index_heads: number;
    /** Compressed entries a CSA query attends to. */
    index_topk: number;
    /** Groups of heads the output projection is split into. */
    o_groups: number;
    /** Rank of each group's output projection. */
    o_lora_rank: number;
    /** Rank of the query projection. */
    q_lora_rank: number;
    /** Layers with compressed sparse attention. */
    sparse_layers: number;
    /** Tokens per compressed entry of a CSA layer. */
    sparse_ratio: number;
    /** Recent tokens every layer attends to uncompressed. */
    window: number;
}

/** The precision whose peak a computation at some weight precision runs at. */
export type ComputeRate = "fp32" | "fp16" | "fp16_acc16" | "bf16" | "fp8" | "int8";

/** Options of [`configure`]; a field left out keeps its setting. */
export interface ConfigureOptions {
    /**
     * A detection report (`hwfit detect --json`, snake_case keys as printed): questions that name
     * no hardware run on its devices instead of this browser's (the CLI's and the server's
     * `--detection`); `null` returns to this browser's devices.
     */
    detection?: unknown;
    /**
     * IPFS Accelerate's selection config (snake_case keys inside, as in its JSON files); `null`
     * restores the default.
     */
    selectionConfig?: unknown;
}

/** A convolutional network described by its published figures. */
export interface ConvNet {
    /** Forward FLOPs per image (2 × published multiply-accumulates). */
    flopsPerItem: number;
    /** Input side in pixels the figures refer to. */
    imageSize: number;
    /** Convolution and linear layers (published depth): the kernels a step dispatches; 0 unknown. */
    layers: number;
    /** Parameters (published). */
    parameters: number;
    /** Elements of the largest feature map live at once in a forward pass. */
    peakActivationElements: number;
    /** Elements of all convolution/pooling outputs (kept for the backward pass in training). */
    totalActivationElements: number;
}

/** Dense peak throughput per precision, in TFLOP/s (TOPS for int8). Sparse figures are never stored. */
export interface DenseTflops {
    /** BF16 tensor/matrix rate. */
    bf16?: number | null;
    /** FP16 tensor/matrix rate (FP32 accumulate where the two differ). */
    fp16?: number | null;
    /** FP16 tensor rate with FP16 accumulation, where it differs (GeForce: twice the FP32-accumulate rate). */
    fp16Acc16?: number | null;
    /** FP32 (vector, or matrix where the vendor quotes that). */
    fp32: number;
    /** FP8 tensor rate. */
    fp8?: number | null;
    /** INT8 tensor rate (TOPS). */
    int8?: number | null;
}

/** One concrete device (or browser class). */
export interface Device {
    /** Other names it resolves from. */
    aliases: string[];
    /** GPU architecture, where known (TechPowerUp's names: `Ada Lovelace`, `RDNA 3.0` …). */
    architecture?: string | null;
    /**
     * The browser engine a WebGPU or WebNN device is reached through, where a described browser
     * names it: its round trips cost that engine's (see the browser step model).
     */
    browserEngine?: BrowserEngine | null;
    /** Market class (`datacenter_gpu`, `consumer_gpu`, `apple_soc`, `server_cpu`, `browser` …). */
    class: string;
    /**
     * A CPU's physical cores, where known: what a run on fewer threads divides (see
     * [`Device::on_threads`]).
     */
    cpuCores?: number | null;
    /** Dense peak throughput per precision. */
    denseTflops: DenseTflops;
    /** GPU cores, where a product is sold in several core counts (Apple: `M3 Pro 14-core GPU`). */
    gpuCores?: number | null;
    /** Back-end it is used through. */
    hardwareType: HardwareType;
    /** Stable identifier, e.g. `nvidia-h100-sxm`. */
    id: string;
    /** Peak memory bandwidth in GB/s. */
    memoryBandwidthGbs: number;
    /** Memory in GB (device memory; unified memory for SoCs; the maximum configuration for CPUs). */
    memoryGb: number;
    /** The memory sizes the product is sold with, where several (`memory_gb` is the largest). */
    memoryOptionsGb?: number[];
    /** Full name. */
    name: string;
    /** How figures were derived, where they were. */
    notes?: string | null;
    /**
     * A browser's WebAssembly view: the logical cores its page may run threads on
     * (`navigator.hardwareConcurrency` on a cross-origin isolated page), from which each runtime
     * takes its threads ([`crate::browser::wasm_view_for`]); `None`: one thread, or not such a view.
     */
    pageThreads?: number | null;
    /** Whether the figures are vendor peaks (the catalog) or hwfit's own measurement. */
    profile?: DeviceProfile;
    /** Release date (`2021-05-31`, or the year alone where only that is known). */
    released?: string | null;
    /** Where the figures come from. */
    source: string;
    /** The source's address. */
    sourceUrl: string;
    /** Thermal design power in W, where the vendor publishes one. */
    tdpW: number | null;
    /** Vendor. */
    vendor: string;
}

/** Where a device's rates come from, which decides how predictions use them. */
export type DeviceProfile = "catalog" | "measured";

/** A device by its numbers. Every figure is validated: finite, positive and within a physical range. */
export interface DeviceSpec {
    /** A CPU's physical cores (what a request's `threads` divides). */
    cpuCores?: number | null;
    /** Dense peak TFLOP/s per precision (TOPS for int8); `fp32` is required. */
    denseTflops: SpecRates;
    /** The back-end it runs through (`cuda`, `rocm`, `mps`, `cpu`, `openvino`, `webgpu`, `wasm` …). */
    hardwareType: HardwareType;
    /** Peak memory bandwidth in GB/s. */
    memoryBandwidthGbs: number;
    /** Memory in GB (device memory; unified or system memory for SoCs and CPUs). */
    memoryGb: number;
    /** Name (default `custom device`). */
    name?: string | null;
    /** Thermal design power in W. */
    tdpW?: number | null;
    /** Vendor (default `custom`). */
    vendor?: string | null;
}

/**
 * The device catalog, optionally of one hardware type (`GET /devices`): the curated devices, or
 * with `all` or a `query` the device database's too.
 */
export interface DevicesRequest {
    /** Include the device database (where one is loaded), not only the curated devices. */
    all?: boolean;
    /** Only devices of this hardware type. */
    hardware?: HardwareType | null;
    /**
     * Only devices whose id, name or an alias contains every word of this (letters and digits
     * compared, case ignored: `rtx 4070 super`, `m3 max`); searches the device database too.
     */
    query?: string | null;
}

/** The plan (IPFS Accelerate's `/training/distributed` answer plus engine configs). */
export interface DistributedConfig {
    /** Whether activations are recomputed in the backward pass. */
    activationCheckpointing: boolean;
    /** A DeepSpeed configuration (`ds_config.json`). */
    deepspeedConfig: unknown;
    /** Strategy. */
    distributedStrategy: Strategy;
    /** The memory estimate. */
    estimatedMemory: EstimatedMemory;
    /** How the plan was reached. */
    explanation: string;
    /** Samples per optimizer step over all GPUs. */
    globalBatchSize: number;
    /** GPUs. */
    gpuCount: number;
    /** Micro-batches accumulated per optimizer step. */
    gradientAccumulationSteps: number;
    /** Memory budget per GPU, GB. */
    maxMemoryGb: number;
    /** Whether 16-bit mixed precision is used (always, with Adam). */
    mixedPrecision: boolean;
    /** `bf16` where the GPU supports it, else `fp16`. */
    mixedPrecisionDtype: string;
    /** Family. */
    modelFamily: Family;
    /** Model. */
    modelName: string;
    /** Micro-batch per GPU per step. */
    perGpuBatchSize: number;
    /** A `torchrun` command line for a Hugging Face `Trainer` script `train.py`. */
    torchrunCommand: string;
    /** DeepSpeed ZeRO stage equivalent (0 for DDP). */
    zeroStage: number;
}

/** Plan distributed training (`POST /training/distributed`). */
export interface DistributedPlanRequest {
    /** Per-GPU batch the user wants (required). */
    batchSize?: number;
    /** The GPU model. */
    device?: string | null;
    /** GPUs (required). */
    gpuCount?: number;
    /** Memory per GPU, GB (default: the device's, else 80). */
    maxMemoryGb?: number | null;
    /** A Hugging Face `config.json` object. */
    modelConfig?: unknown;
    /** The family the caller expects. */
    modelFamily?: Family | null;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /** Tokens per sequence (default 512, at most the model's positions). */
    sequenceLength?: number | null;
}

/** Memory per GPU and in total, GB. */
export interface EstimatedMemory {
    /** Activations of one GPU's micro-batch. */
    activationsGb: number;
    /** 16-bit gradients (all together). */
    gradientsGb: number;
    /** fp32 master weights and Adam moments (all together). */
    optimizerGb: number;
    /** 16-bit weights (all GPUs together). */
    parametersGb: number;
    /** What one GPU holds under the chosen strategy, runtime allowance included. */
    perGpuGb: number;
    /** Weights + gradients + optimizer + activations, unsharded. */
    totalGb: number;
}

export type Family = "embedding" | "text_generation" | "vision" | "audio" | "multimodal";

/** One family's part of the map. */
export interface FamilyMap {
    /** Inference per batch size (the family's medium model, or its first). */
    inference: BatchSizes;
    /** size category → mode → entry (batch 1). */
    modelSizes: Record<string, {
        inference?: MapEntry;
        training?: MapEntry;
    }>;
    /** Training per batch size. */
    training: BatchSizes;
}

/** One family's row of the matrix. */
export interface FamilyRow {
    /** Compatibility per hardware type. */
    hardwareCompatibility: {
        cpu?: CompatibilityEntry;
        cuda?: CompatibilityEntry;
        mps?: CompatibilityEntry;
        openvino?: CompatibilityEntry;
        qnn?: CompatibilityEntry;
        rocm?: CompatibilityEntry;
        wasm?: CompatibilityEntry;
        webgpu?: CompatibilityEntry;
        webnn?: CompatibilityEntry;
    };
}

/** The range a continuous feature took in training. */
export interface FeatureRange {
    /** Feature name. */
    feature: string;
    /** Largest value seen. */
    max: number;
    /** Smallest value seen. */
    min: number;
}

/** The fixed costs of one browser step, next to its compute (IPFS Accelerate has no such breakdown). */
export interface FixedCosts {
    /** The roofline part (FLOPs or bytes at the achieved rate), ms. */
    computeMs: number;
    /** `kernels × dispatch_us`, ms. */
    dispatchMs: number;
    /** Pipeline compilation on the first call, ms; not part of `latency`. */
    firstRunMs: number;
    /** Kernels the step dispatches (WebGPU: one per operator; WebNN: the compiled graph, 1). */
    kernels: number;
    /** CPU round trips: the step's readback plus one per quantized operator without a GPU kernel. */
    roundTrips: number;
    /** `round_trips × sync_ms`, ms. */
    syncMs: number;
}

/**
 * The heads of a stack's full-attention layers where they differ from its local layers'
 * (Gemma 4's `global_head_dim`, `num_global_key_value_heads` and `attention_k_eq_v`).
 */
export interface FullAttention {
    /** Width of one query, key and value head. */
    head_dim: number;
    /** One projection makes the keys and (normalised apart) the values: no value projection. */
    keys_as_values: boolean;
    /** Key/value heads. */
    kv_heads: number;
}

/** The browser's GPU, as far as what it reports identifies it (by default: not identified). */
export interface GpuIdentification {
    /** The other variants the name fits, for a `medium` identification. */
    candidates?: string[];
    /** How sure. */
    confidence: IdentificationConfidence;
    /** The catalog device, when identified. */
    deviceId: string | null;
    /** Its name. */
    deviceName: string | null;
    /** What was read, and what it gave. */
    evidence: string[];
}

/** Hardware types: an array, a comma-separated string, one type, or "all" (every type with a reference device). */
export type HardwareList = HardwareType[] | string;

export type HardwareType = "cpu" | "cuda" | "rocm" | "mps" | "openvino" | "qnn" | "webnn" | "webgpu" | "wasm";

/** A step's host costs next to its device time. */
export interface HostCosts {
    /** The device's part: FLOPs or bytes at the runtime's achieved rates, ms. */
    deviceMs: number;
    /** The runtime's host time per operator, µs. */
    operatorUs: number;
    /** Operators the step runs (see [`super::operators`]), over all its forward passes. */
    operators: number;
    /** `operators × operator_us`, ms. */
    operatorsMs: number;
    /**
     * Whether the device works while the host issues (accelerators): the step is then the larger
     * of the two, not their sum.
     */
    overlapped: boolean;
    /**
     * Fixed host time per step (per forward pass, over all of them: a prompt fed in chunks pays
     * it per chunk), ms.
     */
    stepMs: number;
}

/** How sure an identification is. */
export type IdentificationConfidence = "high" | "medium" | "class" | "software";

/**
 * Multi-head latent attention: queries and keys/values pass through low-rank projections, and the
 * cache keeps the compressed latent plus one shared rotary key per token (as vLLM, SGLang and
 * llama.cpp cache it).
 */
export interface LatentAttention {
    /** Rank of the compressed key/value latent. */
    kvLoraRank: number;
    /** Rank of the query projection (0: queries projected directly). */
    qLoraRank: number;
    /** Per-head query/key width without position encoding. */
    qkNopeHeadDim: number;
    /** Per-head rotary query/key width. */
    qkRopeHeadDim: number;
    /** Per-head value width. */
    vHeadDim: number;
}

/**
 * Where the learned correction is used: the hardware types and workload classes where
 * leave-devices-out cross-validation showed it better than the analytic model, and the ranges of
 * the continuous features it was trained on (with `margin` either side).
 */
export interface LearnedDomain {
    /** `(hardware type, workload class)` pairs. */
    cells: ([HardwareType, WorkloadClass])[];
    /** Allowed distance outside a range, in the feature's units. */
    margin: number;
    /** Feature ranges. */
    ranges: FeatureRange[];
}

/** One recommendation. */
export interface MapEntry {
    /** The other eligible candidates, best first. */
    fallbacks: string[];
    /** The representative model the entry was computed for. */
    model: string;
    /** Best candidate, if any runs it. */
    primary: string | null;
}

/** The hardware selection map (`POST /hardware/map`). */
export interface MapRequest {
    /** Batch sizes (default 1, 4, 16, 32, 64). */
    batchSizes?: number[];
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices. */
    devices?: string[];
    /**
     * Hardware types (IPFS Accelerate's `hardware_platforms`; default: every type with a
     * reference device).
     */
    hardware?: HardwareList;
    /** Families (default: all five). */
    modelFamilies?: Family[];
}

/** Predictions for models × hardware × batch sizes × precisions (`POST /performance/matrix`). */
export interface MatrixRequest {
    /** Batch sizes (default 1, 8, 32). */
    batchSizes?: number[];
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices. */
    devices?: string[];
    /** Hardware types (default: every type with a reference device). */
    hardware?: HardwareList;
    /** Inference (default) or training. */
    mode?: Mode;
    /** Models (default: bert-base-uncased, t5-small, gpt2, vit-base-patch16-224). */
    models?: string[];
    /** Precisions (default `fp32`). */
    precisions?: Precision[];
    /** Tokens per sequence (default 128). */
    sequenceLength?: number;
}

/**
 * What one microbenchmark run achieved on one device. Read as written (camelCase in the npm
 * package), so `benchmark()`'s figures can be handed back as a calibration; the npm package also
 * reads the snake_case names, so a `hwfit detect --json` report can be handed to `configure()`.
 */
export interface Measurement {
    /** Bytes in each copy buffer. */
    copyBytes: number;
    /** Achieved streaming-copy bandwidth (bytes read + written), GB/s. */
    copyGbs: number;
    /** Achieved FP16 matrix-multiply rate, GFLOP/s, where the device runs FP16 shaders. */
    matmulF16Gflops?: number | null;
    /** Achieved FP32 matrix-multiply rate, GFLOP/s (median of the timed samples). */
    matmulF32Gflops: number;
    /** Matrix size used for the matmul (n × n × n). */
    matmulN: number;
    /** How it was measured (`wgpu Vulkan: WGSL tiled matmul + streaming copy`, `cpu: ndarray sgemm …`). */
    method: string;
    /** Timed samples per figure (after warm-up). */
    samples: number;
    /** Threads the CPU figures ran on (1 for a GPU). */
    threads: number;
}

/** Memory terms, in MB. */
export interface MemoryBreakdown {
    /** Activations. */
    activationsMb: number;
    /** Gradients. */
    gradientsMb: number;
    /** KV cache. */
    kvCacheMb: number;
    /** Optimizer state (AdamW's two moments). */
    optimizerStateMb: number;
    /** Runtime allowance. */
    runtimeOverheadMb: number;
    /** Model weights (mixed-precision training: the fp32 weights and autocast's 16-bit copies). */
    weightsMb: number;
}

/** One memory size of a device and whether a prediction's step fits in it. */
export interface MemoryOption {
    /** Whether the step's memory fits in it. */
    fitsInMemory: boolean;
    /** Memory, GB. */
    memoryGb: number;
}

export type MixerKind = "mamba2" | "gated_delta_net" | "kimi_delta_attention" | "short_conv";

/** What feeds a transformer stack, which fixes its token count per item. */
export type Modality = {
    kind: "text";
} | {
    /** Input side in pixels. */
    imageSize: number;
    kind: "image";
    /** Patch side in pixels. */
    patchSize: number;
    /**
     * Learned register tokens every pass carries besides the class token (DINOv2 with
     * registers, DINOv3).
     */
    registerTokens?: number;
} | {
    /** Frames per item. */
    frames: number;
    kind: "audio";
} | {
    kind: "feature_map";
    /** Tokens per side. */
    side: number;
};

export type Mode = "inference" | "training";

/** One mode of an analysis. */
export interface ModeAnalysis {
    /** batch size → target → prediction (targets that cannot run it are left out; see `refused`). */
    performance: Record<string, Record<string, PerformanceSummary>>;
    /** batch size → recommendation. */
    recommendations: Record<string, Recommendation>;
    /** batch size → target → why it cannot run it. */
    refused: Record<string, Record<string, string>>;
}

/** The analysis (IPFS Accelerate's `/analysis/model` answer). */
export interface ModelAnalysis {
    /** Batch sizes analysed. */
    batchSizes: number[];
    /** Targets analysed. */
    hardwarePlatforms: string[];
    /** Inference. */
    inference: ModeAnalysis;
    /** Family. */
    modelFamily: Family;
    /** Model. */
    modelName: string;
    /** Precision of each mode. */
    precisions: {
        inference?: Precision;
        training?: Precision;
    };
    /** Training. */
    training: ModeAnalysis;
}

/** Everything about one model. */
export interface ModelDetail {
    /**
     * Parameters a generated token passes through (mixture of experts: the shared parts and the
     * experts it is routed to; equal to `parameters` for dense models).
     */
    activeParameters: number;
    /**
     * The format the checkpoint is published in, when its config or name states one (questions
     * that state no precision are answered at it).
     */
    checkpoint?: CheckpointFormat | null;
    /** The components (transformer stacks, convolutional nets, dense extras). */
    components: Component[];
    /** Family. */
    family: Family;
    /** Forward FLOPs per item at `flops_sequence_length` tokens. */
    flopsPerItem: number;
    /** The sequence length of `flops_per_item` (128, or the model's maximum if shorter). */
    flopsSequenceLength: number;
    /** KV cache per token at fp16, bytes (0 for models that generate no text). */
    kvCacheBytesPerTokenFp16: number;
    /** Longest sequence (0: none). */
    maxPositions: number;
    /** Canonical name. */
    name: string;
    /** Parameters, computed from the architecture. */
    parameters: number;
    /**
     * Fixed state one sequence keeps in the recurrent layers of a hybrid model at fp16, bytes,
     * whatever its length (0 for models without them).
     */
    recurrentStateBytesFp16?: number;
    /** Where the architecture comes from. */
    source: SpecSource;
    /** Subfamily. */
    subfamily: Subfamily;
}

/** One recommended model. */
export interface ModelRecommendation {
    /** Classifier confidence that the model does the task. */
    confidence: number;
    /** Family. */
    family: Family;
    /** Model. */
    modelName: string;
    /** Parameters. */
    parameters: number;
    /** Predicted throughput there, with its unit. */
    predictedThroughput: string;
    /** Best candidate. */
    recommendedHardware: string;
    /** Recommended memory there, MB. */
    recommendedMemoryMb: number;
    /** Subfamily. */
    subfamily: Subfamily;
}

/** One model's architecture (`POST /models/detail`). */
export interface ModelRequest {
    /** A Hugging Face `config.json` object to read the architecture from. */
    modelConfig?: unknown;
    /** Model name or Hugging Face id. */
    modelName?: string;
}

/** One model's row. */
export interface ModelRow {
    /** Its family (the guide's `category`). */
    category: Family;
    /** Model name. */
    name: string;
    /** hardware → batch → precision → cell. */
    predictions: Record<string, Record<string, {
        awq?: Cell;
        bf16?: Cell;
        f16?: Cell;
        fp16?: Cell;
        fp32?: Cell;
        fp8?: Cell;
        int4?: Cell;
        int8?: Cell;
        iq1_m?: Cell;
        iq1_s?: Cell;
        iq2_m?: Cell;
        iq2_s?: Cell;
        iq2_xs?: Cell;
        iq2_xxs?: Cell;
        iq3_m?: Cell;
        iq3_s?: Cell;
        iq3_xs?: Cell;
        iq3_xxs?: Cell;
        iq4_nl?: Cell;
        iq4_xs?: Cell;
        mlx_2bit?: Cell;
        mlx_3bit?: Cell;
        mlx_4bit?: Cell;
        mlx_5bit?: Cell;
        mlx_6bit?: Cell;
        mlx_8bit?: Cell;
        mxfp4?: Cell;
        mxfp4_moe?: Cell;
        nf4?: Cell;
        nvfp4?: Cell;
        q2_k?: Cell;
        q3_k_l?: Cell;
        q3_k_m?: Cell;
        q3_k_s?: Cell;
        q4_0?: Cell;
        q4_1?: Cell;
        q4_k_m?: Cell;
        q4_k_s?: Cell;
        q5_0?: Cell;
        q5_1?: Cell;
        q5_k_m?: Cell;
        q5_k_s?: Cell;
        q6_k?: Cell;
        q8_0?: Cell;
    }>>;
}

/** The catalog listing, optionally of one family (`GET /models`). */
export interface ModelsRequest {
    /** Only models of this family. */
    family?: Family | null;
}

/** What `navigator` says. */
export interface NavigatorProbe {
    deviceMemoryGb: number | null;
    hardwareConcurrency: number | null;
    scope: string;
    userAgent: string | null;
    userAgentData: unknown;
}

export type Norm = "layer_norm" | "rms_norm";

export type PerformanceRating = "high" | "medium" | "low" | "none";

/** A prediction in brief (IPFS Accelerate's analysis cell). */
export interface PerformanceSummary {
    /** Whether it fits the device. */
    fitsInMemory: boolean;
    /** Time per step, ms. */
    latency: number;
    /** Memory the step needs, MB. */
    memoryUsage: number;
    /** Where the figure comes from. */
    source: PredictionSource;
    /** Items, tokens or samples per second. */
    throughput: number;
    /** Its unit. */
    throughputUnit: ThroughputUnit;
}

/** Where to run. */
export interface PoolHardware {
    /** Each model's primary recommendation. */
    perModel: Record<string, string>;
    /** The hardware most models prefer. */
    preferredHardware: string;
    /** Its PyTorch device string, where PyTorch runs there. */
    torchDevice: string | null;
}

/** Memory across the pool. */
export interface PoolRequirements {
    /** The largest single model's recommended memory, MB. */
    maxMemoryMb: number;
    /** Per model. */
    perModel: Record<string, ResourceRequirements>;
    /** All models' recommended memory together, MB. */
    totalMemoryMb: number;
}

/** The pool settings. */
export interface PoolSettings {
    /** Whether models must be evicted to make room (their total exceeds the device). */
    lowMemoryMode: boolean;
    /** Memory of the preferred device, MB. */
    maxMemoryMb: number;
    /** Idle timeout, minutes. */
    recommendedTimeoutMins: number;
}

export type Precision = "fp32" | "fp16" | "bf16" | "fp8" | "int8" | "int4" | "awq" | "nf4" | "mxfp4" | "mxfp4_moe" | "nvfp4" | "q4_0" | "q4_1" | "q5_0" | "q5_1" | "q8_0" | "q2_k" | "q3_k_s" | "q3_k_m" | "q3_k_l" | "q4_k_s" | "q4_k_m" | "q5_k_s" | "q5_k_m" | "q6_k" | "iq1_s" | "iq1_m" | "iq2_xxs" | "iq2_xs" | "iq2_s" | "iq2_m" | "iq3_xxs" | "iq3_xs" | "iq3_s" | "iq3_m" | "iq4_nl" | "iq4_xs" | "f16" | "mlx_2bit" | "mlx_3bit" | "mlx_4bit" | "mlx_5bit" | "mlx_6bit" | "mlx_8bit";

/** One hardware type's precision support, for the matrix. */
export interface PrecisionSupport {
    /** The caveat, where there is one. */
    note?: string | null;
    /** The precision. */
    precision: Precision;
    /** How well it is supported. */
    support: SupportLevel;
}

/** The predictions (IPFS Accelerate's `/performance/predict` answer plus what they rest on). */
export interface PredictAnswer {
    /** Items per step. */
    batchSize: number;
    /**
     * A training step: whether it was predicted in mixed precision (fp32 master weights,
     * gradients and AdamW state) or pure; absent for inference.
     */
    mixedPrecision?: boolean | null;
    /** Mode. */
    mode: Mode;
    /** Family. */
    modelFamily: Family;
    /** Model. */
    modelName: string;
    /** Where the architecture comes from. */
    modelSource: SpecSource;
    /**
     * What the answer assumed that the request did not say (a default sequence length capped at
     * the model's positions).
     */
    notes?: string[];
    /** Precision. */
    precision: Precision;
    /** target (hardware type or device id) → prediction. */
    predictions: Record<string, PredictEntry>;
    /**
     * target → why it cannot run the step as asked (a precision or format it does not run, a
     * runtime that is not there), when other targets can; a question no target can answer is
     * refused with the first target's error.
     */
    refused?: Record<string, string>;
    /** Tokens per sequence. */
    sequenceLength: number;
    /** Workload predicted. */
    workload: Workload;
}

/** One target's prediction and the device it was made for. */
export interface PredictEntry {
    /** With `source: learned`: the analytic model's throughput before the correction. */
    analyticThroughput?: number | null;
    /** `compute` or `memory`: which roof limits the step. */
    bound: Bound;
    /** Bytes moved per step. */
    bytesPerStep: number;
    /** How specific the fitted coefficients are. */
    coefficientSource: CoefficientSource;
    /** The peak used for compute. */
    computeRate: ComputeRate;
    /** The device predicted on. */
    device: string;
    /** Whether `memory_usage` fits in `memory_capacity`. */
    fitsInMemory: boolean;
    /** Browser back-ends: dispatches, round trips and first-call compilation next to the compute. */
    fixedCosts?: FixedCosts | null;
    /** FLOPs per step. */
    flopsPerStep: number;
    /** Its hardware type. */
    hardwareType: HardwareType;
    /** Runtimes with fitted host costs: operators issued, per-step cost and the device's part. */
    hostCosts?: HostCosts | null;
    /** Time per step, ms. */
    latency: number;
    /** The device's memory, MB. */
    memoryCapacity: number;
    /**
     * The memory sizes the device comes in, when more than one (a name that matches the 8 GB and
     * the 16 GB card is predicted on the smaller): whether the step fits in each.
     */
    memoryOptions?: MemoryOption[];
    /** Memory the step needs, MB (the resource estimate's minimum). */
    memoryUsage: number;
    /** A prefill on a runtime that feeds the prompt in chunks: the chunk and the passes. */
    promptPasses?: PromptPasses | null;
    /** How the device's name was read, for a device named in the request. */
    resolvedFrom?: ResolvedFrom | null;
    /** The roofline's upper bound on throughput (efficiency 1, no overhead). */
    rooflineThroughput: number;
    /** The runtime the prediction describes. */
    runtime: Runtime;
    /**
     * The same step on each runtime with a fitted model for the device (the documented one and
     * those with measurements on its kind of processor): what moving runtime would buy.
     */
    runtimes?: RuntimeOption[];
    /**
     * `learned` (the analytic model corrected by the learned model), `analytic_model`
     * (coefficients fitted for this hardware type), `analytic_model_pooled`, `measured_profile` or
     * `estimate`.
     */
    source: PredictionSource;
    /** Items (or tokens) per second. */
    throughput: number;
    /** `items/s`, `tokens/s` or `samples/s`. */
    throughputUnit: ThroughputUnit;
}

/** Predict throughput, latency and memory (`POST /performance/predict`). */
export interface PredictRequest {
    /** Items per step (default 1). */
    batchSize?: number;
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices from the device catalog. */
    devices?: string[];
    /** Hardware types, each predicted on its reference device (default: the local devices). */
    hardware?: HardwareList;
    /**
     * Training: fp32 master weights, gradients and AdamW state with the products at `precision`
     * under autocast (`true`, the default at fp16 and bf16: PyTorch's AMP), or all of them at
     * `precision` (`false`: pure fp16/bf16 training).
     */
    mixedPrecision?: boolean | null;
    /** `training` predicts a training step; `inference` (default) the workload below. */
    mode?: Mode;
    /** A Hugging Face `config.json` object to read the architecture from. */
    modelConfig?: unknown;
    /** The family the caller expects (refused if it contradicts the model's). */
    modelFamily?: Family | null;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /**
     * Weight precision (default: the checkpoint's format where its config or name states one —
     * FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
     */
    precision?: Precision | null;
    /**
     * Prompt tokens per forward pass of a prefill (llama.cpp's `--ubatch-size`, mlx-lm's
     * `prefill_step_size`; default: the runtime's — 512 for llama.cpp, 2,048 for MLX, the whole
     * prompt elsewhere): each pass reads the weights its tokens reach.
     */
    promptChunk?: number | null;
    /**
     * The runtime to predict for (default: the best-documented one for each target's hardware
     * type and the workload, see `Runtime::default_for`).
     */
    runtime?: Runtime | null;
    /** Tokens per sequence, the KV context for decode (default 128, at most the model's positions). */
    sequenceLength?: number | null;
    /**
     * Threads the run uses on a CPU target (llama.cpp's `-t`, `torch.set_num_threads`; default:
     * every core): fewer than its cores compute and read at the part of the CPU they use.
     */
    threads?: number | null;
    /**
     * `forward`, `prefill`, `decode` or `train-step` (default: decode for text generators, forward
     * otherwise; `train-step` in training mode).
     */
    workload?: Workload | null;
}

/** A prediction (IPFS Accelerate's `throughput`, `latency`, `memory_usage`, plus what it rests on). */
export interface Prediction {
    /** With `source: learned`: the analytic model's throughput before the correction. */
    analyticThroughput?: number | null;
    /** `compute` or `memory`: which roof limits the step. */
    bound: Bound;
    /** Bytes moved per step. */
    bytesPerStep: number;
    /** How specific the fitted coefficients are. */
    coefficientSource: CoefficientSource;
    /** The peak used for compute. */
    computeRate: ComputeRate;
    /** Whether `memory_usage` fits in `memory_capacity`. */
    fitsInMemory: boolean;
    /** Browser back-ends: dispatches, round trips and first-call compilation next to the compute. */
    fixedCosts?: FixedCosts | null;
    /** FLOPs per step. */
    flopsPerStep: number;
    /** Runtimes with fitted host costs: operators issued, per-step cost and the device's part. */
    hostCosts?: HostCosts | null;
    /** Time per step, ms. */
    latency: number;
    /** The device's memory, MB. */
    memoryCapacity: number;
    /** Memory the step needs, MB (the resource estimate's minimum). */
    memoryUsage: number;
    /** A prefill on a runtime that feeds the prompt in chunks: the chunk and the passes. */
    promptPasses?: PromptPasses | null;
    /** The roofline's upper bound on throughput (efficiency 1, no overhead). */
    rooflineThroughput: number;
    /** The runtime the prediction describes. */
    runtime: Runtime;
    /**
     * `learned` (the analytic model corrected by the learned model), `analytic_model`
     * (coefficients fitted for this hardware type), `analytic_model_pooled`, `measured_profile` or
     * `estimate`.
     */
    source: PredictionSource;
    /** Items (or tokens) per second. */
    throughput: number;
    /** `items/s`, `tokens/s` or `samples/s`. */
    throughputUnit: ThroughputUnit;
}

/** The matrix. */
export interface PredictionMatrix {
    /** Batch sizes. */
    batchSizes: number[];
    /** Hardware keys. */
    hardwarePlatforms: string[];
    /** Mode. */
    mode: Mode;
    /** Rows by model name. */
    models: Record<string, ModelRow>;
    /** Precisions. */
    precisionOptions: Precision[];
    /** Where the predictions come from. */
    predictionSource: string;
}

/** Where a prediction comes from. */
export type PredictionSource = "analytic_model" | "analytic_model_pooled" | "measured_profile" | "estimate" | "learned";

/** `loadPredictor()`'s answer: what was loaded. */
export interface PredictorInfo {
    /** What the model was trained on and how (its `hwfit.trained_on` metadata). */
    description: string;
    /** Where it is used: hardware type × workload class cells and the trained feature ranges. */
    domain: LearnedDomain;
    /** Its input features, in order. */
    features: string[];
}

/**
 * How a runtime fed a prompt to the model: `passes` forward passes of at most `chunk` tokens, each
 * reading the weights its tokens reach and paying the per-pass overhead.
 */
export interface PromptPasses {
    /** Prompt tokens per forward pass (llama.cpp's `n_ubatch`, mlx-lm's `prefill_step_size`). */
    chunk: number;
    /** Forward passes over the prompt. */
    passes: number;
}

/** Catalog models for a Hugging Face pipeline task (`POST /models/recommend`). */
export interface RecommendRequest {
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices allowed. */
    devices?: string[];
    /** Hardware types allowed (default: every type with a reference device). */
    hardware?: HardwareList;
    /** A pipeline task (`text-generation`, `image-classification` …). */
    task?: string;
}

/** A recommendation in brief. */
export interface Recommendation {
    /** The others, best first. */
    fallbacks: string[];
    /** Best candidate. */
    primary: string | null;
}

/**
 * How a device name was read (`resolved_from` in answers), so that a surprising device can be
 * traced to the rule and the words that chose it.
 */
export interface ResolvedFrom {
    /** The other devices the rule chose among (the larger memory sizes of one product). */
    alternatives?: string[];
    /**
     * What detection measured that decided or checked the device (`power limit 700 W`,
     * `bandwidth 4,814 GB/s from a 6,016-bit bus at 3,201 MHz`); empty for a name alone.
     */
    facts?: string[];
    /** The GPU cores the name states. */
    gpuCores?: number | null;
    /** The memory the name states, GB. */
    memoryGb?: number | null;
    /** The name as given. */
    name: string;
    /**
     * The rule that decided (`exact name, id or alias`, `chip codename or GPU target`, `the only
     * device holding every token`, `the match adding no identifying token`, `the product as launched,
     * not its later variants`, `the match its variants extend`, `the least memory of one product's
     * sizes`).
     */
    rule: string;
    /**
     * The identifying tokens read from the name (brand, board-partner and driver words dropped);
     * empty when the name matched as a whole.
     */
    tokens?: string[];
    /** The vendor a vendor word in the name names. */
    vendor?: string | null;
}

/** The configuration. */
export interface ResourcePoolConfig {
    /** Why. */
    explanation: string;
    /** Hardware. */
    hardwareRecommendations: PoolHardware;
    /** Settings. */
    resourcePoolConfig: PoolSettings;
    /** Memory. */
    resourceRequirements: PoolRequirements;
}

/** A resource-pool configuration for several models (`POST /resources/pool`). */
export interface ResourcePoolRequest {
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices. */
    devices?: string[];
    /** Hardware types (default: every type with a reference device). */
    hardware?: HardwareList;
    /** Models. */
    models?: string[];
    /**
     * Weight precision (default: each model's checkpoint format where its config or name states
     * one, else `fp16`).
     */
    precision?: Precision | null;
    /** Tokens per sequence (default 128). */
    sequenceLength?: number;
}

/** The estimate (IPFS Accelerate's `resource_requirements`, plus the request echoed and the breakdown). */
export interface ResourceRequirements {
    /** Batch size the estimate is for. */
    batchSize: number;
    /** Memory terms. */
    breakdown: MemoryBreakdown;
    /** CPU cores. */
    cpuCores: number;
    /** Disk space for the weights (training: a full checkpoint), MB. */
    diskSpaceMb: number;
    /** Hardware type. */
    hardware: HardwareType;
    /** Memory to run the request at all (sum of the breakdown), MB. */
    minMemoryMb: number;
    /**
     * Training: whether the estimate is for mixed precision (fp32 weights, gradients and AdamW
     * state) or pure; absent for inference.
     */
    mixedPrecision?: boolean | null;
    /** Mode. */
    mode: Mode;
    /** The model. */
    modelName: string;
    /** The formulas and assumptions behind them. */
    notes: string[];
    /** Parameters of the model. */
    parameters: number;
    /** Precision. */
    precision: Precision;
    /** Memory with headroom, MB. */
    recommendedMemoryMb: number;
    /** Tokens per sequence assumed. */
    seqLength: number;
    /** How the numbers were obtained. */
    source: string;
}

/** The resources answer: the model, where its numbers come from, and the requirements. */
export interface ResourcesAnswer {
    /** Family. */
    family: Family;
    /** Model. */
    modelName: string;
    /** Where the architecture comes from. */
    modelSource: SpecSource;
    /** The requirements (IPFS Accelerate's `resource_requirements`). */
    resourceRequirements: ResourceRequirements;
    /** Subfamily. */
    subfamily: Subfamily;
}

/** Estimate the resources a model needs (`POST /resources`). */
export interface ResourcesRequest {
    /** Items per step (default 1). */
    batchSize?: number;
    /** Where it runs (default `cpu`). */
    hardware?: HardwareType;
    /**
     * Training: fp32 master weights, gradients and AdamW state with the products at `precision`
     * (`true`, the default at fp16 and bf16: 18 bytes per parameter), or all of them at
     * `precision` (`false`: 8 bytes per parameter at bf16).
     */
    mixedPrecision?: boolean | null;
    /** Inference or training (default `inference`). */
    mode?: Mode;
    /** A Hugging Face `config.json` object to read the architecture from. */
    modelConfig?: unknown;
    /** The family the caller expects (refused if it contradicts the model's). */
    modelFamily?: Family | null;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /**
     * Weight precision (default: the checkpoint's format where its config or name states one —
     * FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
     */
    precision?: Precision | null;
    /** Tokens per sequence (default 128, at most the model's positions). */
    sequenceLength?: number | null;
}

export type Runtime = "llama.cpp" | "tensorrt" | "vllm" | "pytorch" | "pytorch-compiled" | "onnxruntime" | "onnxruntime-web" | "web-llm" | "tract" | "openvino" | "qnn" | "mlx";

/** The same step on another runtime (the runtime comparison of a prediction). */
export interface RuntimeOption {
    /** Which term bounds the step there. */
    bound: Bound;
    /** Time per step, ms. */
    latency: number;
    /** The runtime. */
    runtime: Runtime;
    /** Where the figure comes from. */
    source: PredictionSource;
    /** Items (or tokens) per second on it. */
    throughput: number;
}

/** Select the hardware to run a model on (`POST /hardware/select`). */
export interface SelectRequest {
    /** Items per step (default 1). */
    batchSize?: number;
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices to choose from. */
    devices?: string[];
    /** Also plan distributed training over `gpu_count` GPUs of the recommended type. */
    distributed?: boolean;
    /** GPUs for a distributed plan (default 1). */
    gpuCount?: number;
    /**
     * Hardware types to choose from (IPFS Accelerate's `available_hardware`; default: the local
     * devices).
     */
    hardware?: HardwareList;
    /**
     * Training: fp32 master weights, gradients and AdamW state with the products at `precision`
     * (`true`, the default at fp16 and bf16), or all of them at `precision` (`false`), as in
     * [`PredictRequest`].
     */
    mixedPrecision?: boolean | null;
    /** Inference (default) or training. */
    mode?: Mode;
    /** A Hugging Face `config.json` object to read the architecture from. */
    modelConfig?: unknown;
    /** The family the caller expects (refused if it contradicts the model's). */
    modelFamily?: Family | null;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /**
     * Weight precision (default: the checkpoint's format where its config or name states one —
     * FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
     */
    precision?: Precision | null;
    /** Tokens per sequence (default 128, at most the model's positions). */
    sequenceLength?: number | null;
    /** IPFS Accelerate's task type (a training task implies training mode). */
    taskType?: TaskType | null;
    /** Threads the run uses on a CPU candidate (default: every core), as in [`PredictRequest`]. */
    threads?: number | null;
}

/** The answer. */
export interface Selection {
    /** Every candidate's evaluation. */
    allScores: Record<string, CandidateScore>;
    /** Items per step. */
    batchSize: number;
    /** Every eligible candidate, best first. */
    compatibleHardware: string[];
    /** The distributed-training plan on the recommended GPU type, when asked for (`distributed`). */
    distributedConfig?: DistributedConfig | null;
    /** Why this one, why not the others, in words. */
    explanation: string;
    /** The other eligible candidates, best first. */
    fallbackOptions: string[];
    /** Mode. */
    mode: Mode;
    /** Model family. */
    modelFamily: Family;
    /** Model name. */
    modelName: string;
    /** Parameters. */
    modelSize: number;
    /** `small`, `medium` or `large` per the config's categories. */
    modelSizeCategory: string;
    /** Precision. */
    precision: Precision;
    /** Where the predictions come from. */
    predictionSource: string;
    /** The best candidate, if any can run the request. */
    primaryRecommendation: string | null;
    /** Tokens per sequence. */
    sequenceLength: number;
    /** Task type, if given. */
    taskType: TaskType | null;
    /** Workload predicted. */
    workload: Workload;
}

/** The map. */
export interface SelectionMap {
    /** Candidates considered. */
    hardwarePlatforms: string[];
    /** family → map. */
    modelFamilies: {
        audio?: FamilyMap;
        embedding?: FamilyMap;
        multimodal?: FamilyMap;
        text_generation?: FamilyMap;
        vision?: FamilyMap;
    };
    /** Precision for inference (fp16) and training (bf16). */
    precisions: {
        inference?: Precision;
        training?: Precision;
    };
}

/** Local attention on some layers: each of them attends to (and caches) at most `window` tokens. */
export interface SlidingWindow {
    /** How many of the stack's layers are local (the others attend to the whole context). */
    layers: number;
    /** Tokens a local layer attends to. */
    window: number;
}

/**
 * Sparse attention chosen by an indexer: DeepSeek Sparse Attention (DeepSeek-V3.2 technical
 * report §2.1; GLM-5) — a lightning indexer (`index_heads` × `index_head_dim`: queries from the
 * query latent, one key per token that the cache keeps, a weight per head) scores every cached
 * token, and each query attends to the `index_topk` highest — and MiniMax Sparse Attention
 * (MiniMax-M3: the indexer's scores max-pooled into blocks, each query attending to its top blocks
 * and the block before it: `index_topk` tokens in all). Layers whose indexer is `shared`
 * (GLM-5.2's `indexer_types`) reuse the previous indexer's choice: no indexer of their own.
 */
export interface SparseAttention {
    /** The indexer's head width (its cached key's width). */
    index_head_dim: number;
    /** The indexer's heads. */
    index_heads: number;
    /** Tokens each query attends to. */
    index_topk: number;
    /** Layers with an indexer of their own. */
    indexed_layers: number;
    /**
     * Whether the indexer weighs its heads with a projection of its own (DeepSeek's
     * `weights_proj`; MiniMax-M3's block indexer has none).
     */
    weighted_heads?: boolean;
}

/** A spec's peak rates: [`DenseTflops`] as a request reads it (camelCase in the npm package). */
export interface SpecRates {
    /** BF16 tensor/matrix rate. */
    bf16?: number | null;
    /** FP16 tensor/matrix rate (FP32 accumulate). */
    fp16?: number | null;
    /** FP16 tensor rate with FP16 accumulation, where it differs. */
    fp16Acc16?: number | null;
    /** FP32. */
    fp32: number;
    /** FP8 tensor rate. */
    fp8?: number | null;
    /** INT8 tensor rate (TOPS). */
    int8?: number | null;
}

/** Where a `ModelSpec` came from. */
export type SpecSource = {
    kind: "catalog";
    /** The published source. */
    reference: string;
} | {
    kind: "hf_config";
    /** The config's `model_type`. */
    modelType: string;
    /** How the config was read when hwfit does not know its model type. */
    note?: string | null;
} | {
    /** What the estimate rests on, e.g. "'7b' in the name: 7 B parameters". */
    basis: string;
    kind: "name_estimate";
};

/** The attention pattern of a stack. */
export type StackRole = "encoder" | "decoder" | "cross_decoder";

export type StarterRuntime = "pytorch" | "transformers.js" | "onnxruntime-web";

/**
 * The token mixer of a hybrid stack's recurrent layers, by the widths its config states. Mamba-2
 * and Gated DeltaNet project the residual stream to an inner stream of `heads × head_dim` values (and as many
 * again for the output gate) and to queries and keys of `key_groups × key_dim` (Mamba-2: the C and
 * B groups of `d_state`), convolve the inner stream, queries and keys along time with a
 * `conv_kernel`-tap filter, keep a `head_dim × key_dim` state per head, and project the inner
 * stream back to the residual width. The short convolution is one head of the residual width, no
 * queries or keys, no state beyond its filter's inputs.
 */
export interface StateMixer {
    /** Taps of the causal convolution along time. */
    convKernel: number;
    /**
     * The heads' state is kept in fp32 whatever the model's precision (Nemotron 3's
     * `mamba_ssm_cache_dtype`).
     */
    fp32State?: boolean;
    /**
     * Kimi Delta Attention's output gate through a rank this wide (Kimi Linear: `head_dim`); 0 a
     * full-rank gate (Kimi-K3's `use_full_rank_gate`) or, for other mixers, none of its own.
     */
    gateRank?: number;
    /** Width of one head of the inner stream. */
    headDim: number;
    /** Heads of the inner stream (Mamba-2's `mamba_n_heads`; DeltaNet's value heads). */
    heads: number;
    /** Width of one group's queries and keys (Mamba-2's state size; DeltaNet's key head width). */
    keyDim: number;
    /** Query/key groups (Mamba-2's `n_groups`; DeltaNet's key heads). */
    keyGroups: number;
    /** Which mixer. */
    kind: MixerKind;
}

export type Strategy = "DDP" | "ZeRO-1" | "ZeRO-2" | "FSDP";

export type Subfamily = "masked_lm" | "sentence_transformer" | "token_classifier" | "text_classifier" | "causal_lm" | "seq2seq" | "chat_model" | "image_classifier" | "object_detector" | "segmentation" | "depth_estimation" | "speech_recognition" | "audio_classifier" | "text_to_speech" | "vision_language" | "image_text_encoder" | "document_qa";

export type SupportLevel = "real" | "limited" | "unsupported";

/** The answer. */
export interface TaskRecommendations {
    /** The candidates allowed. */
    hardwareConstraints: string[];
    /** Models that do the task and run on the constraints, most confident and smallest first. */
    recommendations: ModelRecommendation[];
    /** The task. */
    task: string;
}

export type TaskType = "classification" | "generation" | "embedding" | "speech_recognition" | "fine_tuning" | "training";

/** What the starter is rendered for: every value a template uses. */
export interface TemplateDecision {
    /** Items per step. */
    batchSize: number;
    /** The device predicted on. */
    deviceName: string;
    /** Family. */
    family: Family;
    /** The recommended candidate. */
    hardware: string;
    /** Its hardware type. */
    hardwareType: HardwareType;
    /** transformers.js device. */
    jsDevice: string;
    /** transformers.js dtype. */
    jsDtype: string;
    /** Model. */
    modelName: string;
    /** ONNX Runtime Web execution providers, as a JS array literal. */
    ortProviders: string;
    /** The transformers pipeline task. */
    pipelineTask: string;
    /** Precision. */
    precision: Precision;
    /** The selection's explanation. */
    recommendation: string;
    /** The runtime. */
    runtime: StarterRuntime;
    /** Subfamily. */
    subfamily: Subfamily;
    /** The template file (`pytorch/hf_embedding_template.py.j2` …). */
    template: string;
    /** PyTorch device string. */
    torchDevice: string;
    /** PyTorch dtype. */
    torchDtype: string;
}

/** A starter file for a model on its recommended hardware (`POST /templates`). */
export interface TemplateRequest {
    /** Items per step (default 1). */
    batchSize?: number;
    /**
     * A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
     * object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
     * WebAssembly and WebNN back-ends join the targets.
     */
    browser?: string | BrowserCapabilities | null;
    /** A device described by its numbers (`--device-spec`), predicted on with the rest. */
    deviceSpec?: DeviceSpec | null;
    /** Concrete devices to choose from. */
    devices?: string[];
    /** Hardware types to choose from (default: the runtime's). */
    hardware?: HardwareList;
    /** A Hugging Face `config.json` object. */
    modelConfig?: unknown;
    /** Model name or Hugging Face id. */
    modelName?: string;
    /** Weight precision (default: fp16 for PyTorch on a GPU, fp32 otherwise). */
    precision?: Precision | null;
    /** `pytorch` (default), `transformers.js` or `onnxruntime-web`. */
    runtime?: StarterRuntime;
}

/** The unit of a throughput. */
export type ThroughputUnit = "items/s" | "tokens/s" | "samples/s";

/** A stack of identical transformer layers with its embeddings. */
export interface TransformerStack {
    /** Experts each token is routed to. */
    activeExperts: number;
    /** Query heads. */
    attentionHeads: number;
    /**
     * Learned attention sinks (gpt-oss): a logit per head that every query's softmax also
     * normalises over. No fused attention kernel of `transformers` takes them, so eager PyTorch
     * runs this attention as separate operations.
     */
    attentionSinks?: boolean;
    /**
     * DeepSeek-V4's attention (low-rank queries and output, one key/value head, a compressed
     * cache per layer kind) instead of the standard heads.
     */
    compressedAttention?: CompressedAttention | null;
    /**
     * The projections are GPT-2's `Conv1D` layers (weights stored transposed; the queries, keys
     * and values in one `c_attn`, split after it).
     */
    conv1dProjections?: boolean;
    /** Inner width of the dense layers' feed-forward (with `dense_layers`). */
    denseIntermediateSize?: number;
    /** Of `layers`, those with one dense feed-forward instead of experts (mixture-of-experts stacks). */
    denseLayers?: number;
    /**
     * Width of the latent the routed experts work in (Nemotron 3 Super's `moe_latent_size`: each
     * expert layer projects the residual stream down to it and back; 0: the residual width).
     */
    expertLatentSize?: number;
    /** Feed-forward experts per layer (1 for dense models). */
    experts: number;
    /**
     * The full-attention layers' own heads where they differ from the local layers' (Gemma 4:
     * wider heads, fewer of them, keys projected once for keys and values).
     */
    fullAttention?: FullAttention | null;
    /**
     * Attention whose output is gated per value by a second query-sized projection (Qwen3-Next's
     * `q_proj` produces the queries and the gate; Kimi-K3's latent attention, `mla_use_output_gate`,
     * a full-rank gate from the residual stream).
     */
    gatedAttention?: boolean;
    /** Gated feed-forward (SwiGLU/GeGLU: three matrices instead of two). */
    gatedFfn: boolean;
    /** Width of one head. */
    headDim: number;
    /** Model (residual) width. */
    hiddenSize: number;
    /** What feeds it. */
    input: Modality;
    /** Feed-forward inner width (per expert). */
    intermediateSize: number;
    /** Key/value heads (fewer than query heads under grouped-query attention). */
    kvHeads: number;
    /**
     * Of the attention layers, the last ones that reuse the keys and values of an earlier layer
     * of their kind (Gemma 3n's `num_kv_shared_layers`): they have no key/value projections and
     * cache nothing, yet attend like the others.
     */
    kvSharedLayers?: number;
    /** Multi-head latent attention (DeepSeek-V2/V3, Kimi K2) instead of separate key/value heads. */
    latentAttention?: LatentAttention | null;
    /** Number of layers. */
    layers: number;
    /** Learned absolute position embeddings (0 for rotary/relative positions). */
    learnedPositions: number;
    /**
     * Of `layers`, those with a token mixer and no feed-forward (Nemotron-H's block pattern has
     * fewer feed-forward blocks than mixer blocks).
     */
    mixerOnlyLayers?: number;
    /** The normalisation each layer runs (from the config: `rms_norm_eps` vs `layer_norm_eps`). */
    norm?: Norm;
    /** Normalisations per layer besides any query/key norms (2; Gemma 2/3 wrap each block: 4). */
    normsPerLayer?: number;
    /**
     * Normalised queries and keys before attention (Qwen3, OLMo 2, Gemma 3): two more norms a
     * layer.
     */
    qkNorm?: boolean;
    /**
     * Of `layers`, those whose token mixer keeps a fixed-size state instead of a growing KV cache
     * (linear attention, state-space and convolution layers of hybrid models).
     */
    recurrentLayers?: number;
    /**
     * Attention biased by learned relative positions (T5's bucketed `relative_attention_bias`),
     * computed once per stack and step from the query and key positions.
     */
    relativePositionBias?: boolean;
    /** Attention pattern. */
    role: StackRole;
    /** Rotary position embeddings applied to queries and keys in every layer. */
    rotary?: boolean;
    /** Inner width of the always-active shared experts in each mixture-of-experts layer (0: none). */
    sharedExpertSize?: number;
    /** Local (sliding-window or chunked) attention on some of the layers. */
    slidingWindow?: SlidingWindow | null;
    /**
     * DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5): each query attends to the `index_topk`
     * cached tokens a lightning indexer scores highest.
     */
    sparseAttention?: SparseAttention | null;
    /**
     * The token mixer of the recurrent layers, where the config describes it (without one they
     * are counted as attention layers that cache nothing).
     */
    stateMixer?: StateMixer | null;
    /** Whether the output projection reuses the input embedding (only matters for generating stacks). */
    tiedEmbeddings: boolean;
    /**
     * Width of one value head where it differs from the query/key heads' `head_dim` (MiMo-V2's
     * 128 against 192; 0: `head_dim`).
     */
    valueHeadDim?: number;
    /** Token-embedding rows owned by this stack (0 when shared with another stack or absent). */
    vocabSize: number;
    /**
     * The feed-forward's activation is the tanh approximation of GELU as `gelu_new` or `gelu_fast`
     * name it (GPT-2, Phi-2, flan-T5's gated-gelu): `transformers` writes it out as tensor
     * operations where `gelu`, `gelu_pytorch_tanh`, `silu` and `relu` are one fused call each.
     */
    writtenOutGelu?: boolean;
}

/** The WebAssembly part (independent yes/no facts). */
export interface WasmProbe {
    available: boolean;
    crossOriginIsolated: boolean;
    sharedArrayBuffer: boolean;
    simd: boolean;
    threads: boolean;
}

/**
 * The WebGL part: the renderer strings (unmasked through `WEBGL_debug_renderer_info` where the
 * browser allows it).
 */
export interface WebGlProbe {
    available: boolean;
    reason?: string | null;
    renderer: string;
    unmaskedRenderer: string;
    /** `UNMASKED_VENDOR_WEBGL` and `UNMASKED_RENDERER_WEBGL`, empty where not exposed. */
    unmaskedVendor: string;
    /** `VENDOR` and `RENDERER` (masked: `WebKit`, `WebKit WebGL` in most browsers). */
    vendor: string;
}

/** WebGL's `UNMASKED_VENDOR_WEBGL` and `UNMASKED_RENDERER_WEBGL`. */
export interface WebGlRenderer {
    /** Unmasked renderer (`ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Ti (0x00002208) Direct3D11 …)`). */
    renderer: string;
    /** Unmasked vendor (`Google Inc. (NVIDIA)`). */
    vendor?: string;
}

/** What identifies a WebGPU adapter (`GPUAdapterInfo` and `isFallbackAdapter`). */
export interface WebGpuAdapterFacts {
    /** `info.architecture` (`ampere`, `rdna-3`, `gen-12lp`, `metal-3`, `swiftshader` …). */
    architecture?: string;
    /** `info.description`, where the browser gives one. */
    description?: string;
    /** `info.device`, where the browser gives one (Safari: `applem2ultra`). */
    device?: string;
    /** `isFallbackAdapter` (a software adapter such as SwiftShader). */
    isFallback?: boolean;
    /** `info.vendor` (`nvidia`, `amd`, `intel`, `apple`, `google` …). */
    vendor?: string;
}

/** The WebGPU part. */
export interface WebGpuProbe {
    adapters: AdapterProbe[];
    available: boolean;
    reason?: string | null;
}

/** One WebNN `createContext({deviceType})`. */
export interface WebNnContextProbe {
    available: boolean;
    deviceType: string;
    error?: string | null;
    /** `opSupportLimits()` summary: data types per op group, where the context gives it. */
    opSupport?: unknown;
}

/** The WebNN part. */
export interface WebNnProbe {
    available: boolean;
    contexts: WebNnContextProbe[];
    reason?: string | null;
}

export type Workload = "forward" | "prefill" | "decode" | "train-step";

/** Which measurements a workload's coefficients are fitted on. */
export type WorkloadClass = "generate" | "forward";

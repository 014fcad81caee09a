//! TypeScript definitions of the plain objects the exports take and return (camelCase; enum values
//! stay as IPFS Accelerate spell them: `text_generation`, `q4_k_m`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
export type HardwareType = "cpu" | "cuda" | "rocm" | "mps" | "openvino" | "qnn" | "webnn" | "webgpu" | "wasm";
export type Precision = "fp32" | "fp16" | "bf16" | "fp8" | "int8" | "int4" | "q4_0" | "q4_k_m" | "q5_k_m" | "q8_0" | "f16";
export type Mode = "inference" | "training";
export type Workload = "forward" | "prefill" | "decode" | "train";
export type Family = "embedding" | "text_generation" | "vision" | "audio" | "multimodal";
export type TaskType = "classification" | "generation" | "embedding" | "speech_recognition" | "fine_tuning" | "training";

export interface AdapterProbe {
  powerPreference: "high-performance" | "low-power";
  available: boolean;
  reason?: string;
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
  features: string[];
  limits: Record<string, number>;
}
export interface WebNnContextProbe {
  deviceType: "cpu" | "gpu" | "npu";
  available: boolean;
  error?: string;
  opSupport?: Record<string, string[]>;
}
export interface CapabilityReport {
  webgpu: { available: boolean; reason?: string; adapters: AdapterProbe[] };
  webnn: { available: boolean; reason?: string; contexts: WebNnContextProbe[] };
  wasm: { available: boolean; simd: boolean; threads: boolean; crossOriginIsolated: boolean; sharedArrayBuffer: boolean };
  navigator: {
    hardwareConcurrency: number | null;
    deviceMemoryGb: number | null;
    userAgent: string | null;
    userAgentData: Record<string, unknown> | null;
    scope: string;
  };
  /** IPFS Accelerate's map: every hardware type, true where usable here. */
  hardware: Record<HardwareType, boolean>;
  /** Catalog device class each usable type is predicted on, e.g. `{webgpu: "webgpu-fallback", wasm: "wasm"}`. */
  deviceClasses: Partial<Record<HardwareType, string>>;
}

export interface Measurement {
  matmulF32Gflops: number;
  matmulF16Gflops?: number;
  copyGbs: number;
  matmulN: number;
  copyBytes: number;
  samples: number;
  threads: number;
  method: string;
}
export interface BenchmarkOptions { noGpu?: boolean; noCpu?: boolean; powerPreference?: "high-performance" | "low-power" }
export interface BenchmarkReport { gpu: Measurement | null; gpuError?: string; cpu: Measurement | null }

export interface ClassifyInput { modelName: string; modelClass?: string; tasks?: string[]; methods?: string[] }
export interface Analysis { source: string; family: string | null; confidence: number; subfamily?: string | null; evidence?: string[] }
export interface Classification {
  modelName: string;
  family: string | null;
  subfamily: string | null;
  confidence: number;
  subfamilyConfidence: number;
  source: string;
  analyses: Analysis[];
  recommendedTemplate: string | null;
}

export interface ResourcesInput { model: string; hardware: HardwareType; precision?: Precision; mode?: Mode; batchSize?: number; seqLength?: number }
export interface MemoryBreakdown {
  weightsMb: number; activationsMb: number; kvCacheMb: number; gradientsMb: number; optimizerStateMb: number; runtimeOverheadMb: number;
}
export interface ResourceRequirements {
  modelName: string; parameters: number; hardware: HardwareType; precision: Precision; mode: Mode; seqLength: number;
  minMemoryMb: number; recommendedMemoryMb: number; cpuCores: number; diskSpaceMb: number; batchSize: number;
  breakdown: MemoryBreakdown; source: string; notes: string[];
}

export interface Prediction {
  throughput: number;
  throughputUnit: "items/s" | "tokens/s" | "samples/s";
  /** ms per step */
  latency: number;
  /** MB */
  memoryUsage: number;
  memoryCapacity: number;
  fitsInMemory: boolean;
  bound: "compute" | "memory";
  computeRate: "fp32" | "fp16" | "fp16_acc16" | "bf16" | "fp8" | "int8";
  flopsPerStep: number;
  bytesPerStep: number;
  rooflineThroughput: number;
  coefficientSource: string;
  source: "analytic_model" | "analytic_model_pooled" | "measured_profile";
}
export interface PredictInput {
  model: string; hardware?: HardwareType[]; devices?: string[]; precision?: Precision; workload?: Workload; batchSize?: number; seqLength?: number;
}
export interface PredictOutput { modelName: string; workload: Workload; predictions: Record<string, Prediction & { device: string }> }

export interface SelectInput {
  model: string; hardware?: HardwareType[]; devices?: string[]; precision?: Precision; mode?: Mode; batchSize?: number; seqLength?: number;
  taskType?: TaskType;
  /** IPFS Accelerate's selection config, snake_case keys as in its JSON files. */
  config?: Record<string, unknown>;
}
export interface CandidateScore {
  score: number | null; device: string; hardwareType: HardwareType; support: string; predictions: Prediction | null; excluded: string | null;
}
export interface Selection {
  modelFamily: Family; modelName: string; modelSize: number; modelSizeCategory: string; batchSize: number; sequenceLength: number;
  precision: Precision; mode: Mode; taskType: TaskType | null; workload: Workload;
  primaryRecommendation: string | null; fallbackOptions: string[]; compatibleHardware: string[]; explanation: string;
  allScores: Record<string, CandidateScore>; predictionSource: string;
}

export interface MatrixInput {
  models: string[]; hardware?: HardwareType[]; devices?: string[]; batchSizes?: number[]; precisions?: Precision[]; mode?: Mode; seqLength?: number;
}
export type MatrixCell =
  | { throughput: number; throughputUnit: string; latencyMean: number; memoryUsage: number; fitsInMemory: boolean; source: string }
  | { error: string };
export interface PredictionMatrix {
  mode: Mode;
  /** model → { name, category, predictions: hardware → batch size → precision → cell } */
  models: Record<string, { name: string; category: Family; predictions: Record<string, Record<string, Record<string, MatrixCell>>> }>;
  hardwarePlatforms: string[]; batchSizes: number[]; precisionOptions: Precision[]; predictionSource: string;
}

export interface DenseTflops { fp32: number; fp16?: number; fp16Acc16?: number; bf16?: number; fp8?: number; int8?: number }
export interface Device {
  id: string; name: string; vendor: string; hardwareType: HardwareType; class: string; memoryGb: number; memoryBandwidthGbs: number;
  tdpW: number | null; denseTflops: DenseTflops; aliases: string[]; source: string; sourceUrl: string; notes?: string; profile?: "catalog" | "measured";
}
export interface ModelSummary {
  name: string; family: Family; subfamily: string; parameters: number; maxPositions: number; aliases: string[]; reference: string;
}
"#;

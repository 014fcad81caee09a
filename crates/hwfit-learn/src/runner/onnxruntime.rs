//! The runner's ONNX Runtime engine: the same graphs tract runs, through `ort` with the library
//! loaded at run time (PyPI's `onnxruntime` wheel ships `libonnxruntime.so`; no binary is
//! downloaded at build time), on the execution provider asked for — CPU, or CUDA, TensorRT, ROCm,
//! MIGraphX, OpenVINO, CoreML or DirectML where the library was built with it. A provider that
//! cannot be registered is an error, never a silent fall-back to the CPU.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use ort::environment::Environment;
use ort::ep::{self, ExecutionProviderDispatch};
use ort::session::builder::GraphOptimizationLevel;
use ort::session::{Session, SessionInputValue};
use ort::value::Tensor;

use super::{time_runs, BenchGraph, ElementType, Input, RunConfig, Timing};
use crate::onnx::encode;
use crate::LearnError;

/// An ONNX Runtime execution provider the runner can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// The CPU (MLAS kernels).
    Cpu,
    /// NVIDIA GPUs through CUDA and cuDNN.
    Cuda,
    /// NVIDIA GPUs through TensorRT engines.
    TensorRt,
    /// AMD GPUs through ROCm (ONNX Runtime up to 1.22).
    Rocm,
    /// AMD GPUs through MIGraphX.
    MiGraphX,
    /// Intel CPUs, GPUs and NPUs through OpenVINO.
    OpenVino,
    /// Apple's CPU, GPU and Neural Engine through Core ML.
    CoreMl,
    /// Any DirectX 12 GPU on Windows.
    DirectMl,
}

impl Provider {
    /// Every provider, CPU first.
    pub const ALL: [Self; 8] = [
        Self::Cpu,
        Self::Cuda,
        Self::TensorRt,
        Self::Rocm,
        Self::MiGraphX,
        Self::OpenVino,
        Self::CoreMl,
        Self::DirectMl,
    ];

    /// ONNX Runtime's name for it (`CPUExecutionProvider`, …), as `get_available_providers()` lists it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Cpu => "CPUExecutionProvider",
            Self::Cuda => "CUDAExecutionProvider",
            Self::TensorRt => "TensorrtExecutionProvider",
            Self::Rocm => "ROCMExecutionProvider",
            Self::MiGraphX => "MIGraphXExecutionProvider",
            Self::OpenVino => "OpenVINOExecutionProvider",
            Self::CoreMl => "CoreMLExecutionProvider",
            Self::DirectMl => "DmlExecutionProvider",
        }
    }

    /// The provider of a name, ONNX Runtime's or short (`cuda`, `tensorrt`, `openvino`), any case.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        let short = name.trim().to_ascii_lowercase();
        let short = short.strip_suffix("executionprovider").unwrap_or(&short);
        Self::ALL.into_iter().find(|p| {
            let own = p.name().to_ascii_lowercase();
            own.strip_suffix("executionprovider") == Some(short) || (short == "trt" && *p == Self::TensorRt)
        })
    }

    fn dispatch(self) -> ExecutionProviderDispatch {
        let built = match self {
            Self::Cpu => ep::CPU::default().build(),
            Self::Cuda => ep::CUDA::default().build(),
            Self::TensorRt => ep::TensorRT::default().build(),
            Self::Rocm => ep::ROCm::default().build(),
            Self::MiGraphX => ep::MIGraphX::default().build(),
            Self::OpenVino => ep::OpenVINO::default().build(),
            Self::CoreMl => ep::CoreML::default().build(),
            Self::DirectMl => ep::DirectML::default().build(),
        };
        built.error_on_failure()
    }
}

/// ONNX Runtime, loaded.
#[derive(Debug, Clone)]
pub struct OnnxRuntime {
    library: PathBuf,
    version: String,
}

/// The process's one ONNX Runtime environment (ONNX Runtime allows one), and the library it uses.
static LOADED: OnceLock<(Environment, OnnxRuntime)> = OnceLock::new();

fn ort_error(e: impl std::fmt::Display) -> LearnError {
    LearnError::Bench(format!("ONNX Runtime: {e}"))
}

/// The version in ONNX Runtime's build string (`git-branch=rel-1.32.0`), else in the library's
/// file name (`libonnxruntime.so.1.32.0`).
fn version_of(build_info: &str, library: &Path) -> String {
    let from_branch = build_info
        .split([',', ' '])
        .find_map(|part| part.trim().strip_prefix("git-branch=rel-"))
        .map(str::to_string);
    let from_file = || {
        let name = library.file_name()?.to_str()?;
        let tail = name
            .split_once(".so.")
            .map(|(_, v)| v)
            .or_else(|| name.strip_prefix("libonnxruntime.")?.strip_suffix(".dylib"))?;
        tail.chars().next()?.is_ascii_digit().then(|| tail.to_string())
    };
    from_branch
        .or_else(from_file)
        .unwrap_or_else(|| String::from("unknown"))
}

impl OnnxRuntime {
    /// Loads the ONNX Runtime library at `path` (once per process: a later call returns the
    /// library loaded first, and refuses another path).
    pub fn load(path: &Path) -> Result<Self, LearnError> {
        if let Some((_, loaded)) = LOADED.get() {
            return if loaded.library == path {
                Ok(loaded.clone())
            } else {
                Err(ort_error(format!(
                    "{} is loaded already; one library per process",
                    loaded.library.display()
                )))
            };
        }
        if !path.is_file() {
            return Err(ort_error(format!("no library at {}", path.display())));
        }
        let environment = ort::init_from(path)
            .map_err(ort_error)?
            .with_name("hwfit")
            .build()
            .map_err(ort_error)?;
        let runtime = Self {
            library: path.to_path_buf(),
            version: version_of(ort::info(), path),
        };
        let (_, loaded) = LOADED.get_or_init(|| (environment, runtime));
        Ok(loaded.clone())
    }

    /// The library file.
    #[must_use]
    pub fn library(&self) -> &Path {
        &self.library
    }

    /// ONNX Runtime's version (`1.32.0`).
    #[must_use]
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The execution providers the library was built with, in ONNX Runtime's names.
    pub fn available_providers(&self) -> Result<Vec<&'static str>, LearnError> {
        use ort::ep::ExecutionProvider as _;
        let mut out = Vec::new();
        for provider in Provider::ALL {
            let available = match provider {
                Provider::Cpu => ep::CPU::is_available(),
                Provider::Cuda => ep::CUDA::is_available(),
                Provider::TensorRt => ep::TensorRT::is_available(),
                Provider::Rocm => ep::ROCm::is_available(),
                Provider::MiGraphX => ep::MIGraphX::is_available(),
                Provider::OpenVino => ep::OpenVINO::is_available(),
                Provider::CoreMl => ep::CoreML::is_available(),
                Provider::DirectMl => ep::DirectML::is_available(),
            }
            .map_err(ort_error)?;
            if available {
                out.push(provider.name());
            }
        }
        Ok(out)
    }

    /// Builds a session for the case on `provider` with `threads` intra-op threads (at least 1)
    /// and times it.
    pub fn run(
        &self,
        bench: BenchGraph,
        provider: Provider,
        threads: usize,
        config: &RunConfig,
    ) -> Result<Timing, LearnError> {
        let (environment, _) = LOADED.get().ok_or_else(|| ort_error("the library is not loaded"))?;
        let started = Instant::now();
        let parameters = bench.graph.parameter_count();
        let bytes = encode(&bench.graph.into_model(&[]));
        let mut session = Session::builder(environment)
            .map_err(ort_error)?
            .with_optimization_level(GraphOptimizationLevel::All)
            .map_err(ort_error)?
            .with_intra_threads(threads.max(1))
            .map_err(ort_error)?
            .with_inter_threads(1)
            .map_err(ort_error)?
            .with_execution_providers([provider.dispatch()])
            .map_err(|e| ort_error(format!("{}: {e}", provider.name())))?
            .commit_from_memory(&bytes)
            .map_err(ort_error)?;
        drop(bytes);
        let build_ms = started.elapsed().as_secs_f64() * 1e3;
        let inputs: Vec<SessionInputValue<'static>> = bench.inputs.iter().map(value).collect::<Result<_, _>>()?;
        time_runs(bench.items, parameters, build_ms, config, || {
            let t = Instant::now();
            let outputs = session.run(&inputs[..]).map_err(ort_error)?;
            drop(outputs);
            Ok(t.elapsed().as_secs_f64() * 1e3)
        })
    }
}

fn value(input: &Input) -> Result<SessionInputValue<'static>, LearnError> {
    let shape: Vec<i64> = input
        .shape
        .iter()
        .map(|&n| i64::try_from(n).map_err(|_| ort_error("an input dimension beyond i64")))
        .collect::<Result<_, _>>()?;
    let value = match input.element {
        ElementType::I64 => Tensor::from_array((shape, vec![0_i64; input.len()]))
            .map_err(ort_error)?
            .into_dyn(),
        ElementType::F32 => Tensor::from_array((shape, vec![0_f32; input.len()]))
            .map_err(ort_error)?
            .into_dyn(),
    };
    Ok(SessionInputValue::from(value))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use hwfit_core::{Catalog, Workload};

    use super::*;
    use crate::runner::build;

    /// The library named by `ORT_DYLIB_PATH`; without it the test is skipped, unless
    /// `HWFIT_REQUIRE_ONNXRUNTIME` is set (the test command sets both).
    fn library() -> Option<PathBuf> {
        let path = std::env::var_os("ORT_DYLIB_PATH").map(PathBuf::from);
        assert!(
            path.is_some() || std::env::var_os("HWFIT_REQUIRE_ONNXRUNTIME").is_none(),
            "HWFIT_REQUIRE_ONNXRUNTIME is set but ORT_DYLIB_PATH is not"
        );
        path
    }

    /// A real ONNX Runtime runs the runner's graphs on the CPU provider: a decoder's prefill and
    /// decode step and an encoder, timed as tract's are.
    #[test]
    fn onnx_runtime_runs_the_graphs_on_the_cpu() {
        let Some(path) = library() else { return };
        let runtime = OnnxRuntime::load(&path).unwrap();
        assert!(runtime.version().starts_with("1."), "{}", runtime.version());
        assert!(runtime.available_providers().unwrap().contains(&"CPUExecutionProvider"));
        let config = RunConfig {
            warmup: 1,
            min_runs: 2,
            max_runs: 2,
            budget: Duration::ZERO,
        };
        let catalog = Catalog::builtin();
        let gpt2 = &crate::runner::graphs::tiny(&catalog.resolve("gpt2").unwrap().spec);
        let prefill = runtime
            .run(
                build(gpt2, Workload::Prefill, 1, 8, 1).unwrap(),
                Provider::Cpu,
                2,
                &config,
            )
            .unwrap();
        assert!((prefill.items - 8.0).abs() < f64::EPSILON && prefill.runs == 2);
        let decode = runtime
            .run(
                build(gpt2, Workload::Decode, 2, 16, 1).unwrap(),
                Provider::Cpu,
                1,
                &config,
            )
            .unwrap();
        assert!(decode.p50_ms > 0.0 && decode.p90_ms >= decode.p50_ms);
        let bert =
            &crate::runner::graphs::tiny(&catalog.resolve("sentence-transformers/all-MiniLM-L6-v2").unwrap().spec);
        let forward = runtime
            .run(
                build(bert, Workload::Forward, 2, 16, 1).unwrap(),
                Provider::Cpu,
                1,
                &config,
            )
            .unwrap();
        assert!(forward.throughput > 0.0);
        // A provider this build lacks is an error, not a quiet run on the CPU.
        if !runtime
            .available_providers()
            .unwrap()
            .contains(&"CUDAExecutionProvider")
        {
            let err = runtime
                .run(
                    build(bert, Workload::Forward, 1, 8, 1).unwrap(),
                    Provider::Cuda,
                    1,
                    &config,
                )
                .unwrap_err();
            assert!(err.to_string().contains("CUDAExecutionProvider"), "{err}");
        }
        // Another library in the same process is refused.
        assert!(OnnxRuntime::load(Path::new("/nonexistent/libonnxruntime.so")).is_err());
    }

    #[test]
    fn providers_by_any_spelling() {
        assert_eq!(Provider::parse("cuda"), Some(Provider::Cuda));
        assert_eq!(Provider::parse("CUDAExecutionProvider"), Some(Provider::Cuda));
        assert_eq!(Provider::parse("TensorRT"), Some(Provider::TensorRt));
        assert_eq!(Provider::parse("trt"), Some(Provider::TensorRt));
        assert_eq!(Provider::parse("dml"), Some(Provider::DirectMl));
        assert_eq!(Provider::parse("openvino"), Some(Provider::OpenVino));
        assert_eq!(Provider::parse("metal"), None);
    }

    #[test]
    fn versions_from_the_build_string_or_the_file_name() {
        let info = "ORT Build Info: git-branch=rel-1.32.0, git-commit-id=abc, build type=Release";
        assert_eq!(version_of(info, Path::new("x.so")), "1.32.0");
        assert_eq!(
            version_of(
                "ORT Build Info: git-branch=main",
                Path::new("/a/libonnxruntime.so.1.31.1")
            ),
            "1.31.1"
        );
        assert_eq!(version_of("", Path::new("libonnxruntime.so")), "unknown");
    }
}

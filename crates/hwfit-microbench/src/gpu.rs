//! The WGSL microbenchmark (`shaders/microbench.wgsl`) run through wgpu: achieved matmul GFLOP/s in
//! f32 (and f16 where the adapter has `shader-f16`) and streaming-copy GB/s. The same code runs on
//! native back-ends and on the browser's WebGPU: waiting uses `on_submitted_work_done`, which
//! `Device::poll` drives natively and the browser's event loop drives on the web.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use hwfit_core::measure::{matmul_flops, median};
use hwfit_core::Measurement;
use web_time::Instant;

use crate::timing::{seconds_since, BenchConfig};

/// The one WGSL source of the microbenchmark.
pub const SHADER: &str = include_str!("../shaders/microbench.wgsl");
const F32_ALIAS: &str = "alias scalar = f32;";
/// Largest matmul side used (three n × n matrices).
const MAX_N: u32 = 4096;
/// First matmul side tried.
const START_N: u32 = 256;
/// Copy buffer size cap (each of source and destination).
const MAX_COPY_BYTES: u64 = 128 << 20;
/// Chunk size for uploading initial data.
const UPLOAD_CHUNK: usize = 4 << 20;
/// Elements of each checked row of C compared with the CPU.
const CHECKED: u32 = 64;
/// The matmul's tile side: n is a multiple of it.
const TILE: u32 = 128;

/// Element type of the matmul.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShaderScalar {
    /// 32-bit floats.
    F32,
    /// 16-bit floats (needs `shader-f16`).
    F16,
}

impl ShaderScalar {
    fn size(self) -> u64 {
        match self {
            Self::F32 => 4,
            Self::F16 => 2,
        }
    }

    fn encode(self, value: f32, out: &mut Vec<u8>) {
        match self {
            Self::F32 => out.extend_from_slice(&value.to_le_bytes()),
            Self::F16 => out.extend_from_slice(&half::f16::from_f32(value).to_le_bytes()),
        }
    }

    fn decode(self, bytes: &[u8]) -> f32 {
        match self {
            Self::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            Self::F16 => half::f16::from_le_bytes([bytes[0], bytes[1]]).to_f32(),
        }
    }
}

/// The WGSL source for `scalar`: the file as it is for f32; with `enable f16;` and the f16 alias for f16.
#[must_use]
pub fn shader_source(scalar: ShaderScalar) -> Cow<'static, str> {
    match scalar {
        ShaderScalar::F32 => Cow::Borrowed(SHADER),
        ShaderScalar::F16 => Cow::Owned(format!(
            "enable f16;\n{}",
            SHADER.replacen(F32_ALIAS, "alias scalar = f16;", 1)
        )),
    }
}

/// Why a GPU benchmark could not give a figure.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GpuBenchError {
    /// The adapter refused a device.
    #[error("could not open a device on the adapter: {0}")]
    RequestDevice(String),
    /// The device reported a validation or out-of-memory error.
    #[error("the GPU reported an error: {0}")]
    Device(String),
    /// Waiting for submitted work failed (device lost, timeout).
    #[error("waiting for the GPU failed: {0}")]
    Wait(String),
    /// Reading results back failed.
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
    /// The kernel computed something else than the CPU reference.
    #[error("the {kernel} kernel computed a wrong result at element {index}: {got} instead of {expected}")]
    WrongResult {
        /// Which kernel.
        kernel: &'static str,
        /// Element checked (row-major index into C).
        index: u32,
        /// GPU value.
        got: f32,
        /// CPU value.
        expected: f32,
    },
    /// The adapter's limits do not allow even the smallest problem.
    #[error("the adapter's limits are too small for the benchmark: {0}")]
    Limits(String),
}

/// Deterministic test values: multiples of 0.25 in [-0.5, 0.5], exact in f16 and f32.
fn pattern(i: u64) -> f32 {
    let h = (i.wrapping_mul(2_654_435_761) >> 13) % 5;
    (h as f32 - 2.0) * 0.25
}

/// One opened device with the benchmark's pipelines, created when it opens: a browser compiles them
/// in its GPU process while the page goes on (with the CPU benchmark, say).
pub struct GpuBench {
    device: wgpu::Device,
    queue: wgpu::Queue,
    errors: Arc<Mutex<Vec<String>>>,
    limits: wgpu::Limits,
    info: wgpu::AdapterInfo,
    matmul_f32: wgpu::ComputePipeline,
    /// Where the adapter has `shader-f16`.
    matmul_f16: Option<wgpu::ComputePipeline>,
    copy: wgpu::ComputePipeline,
}

struct Kernel<'a> {
    pipeline: &'a wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    groups: (u32, u32),
}

/// The pipeline of `entry` in the microbenchmark's module for `scalar`.
fn pipeline(device: &wgpu::Device, scalar: ShaderScalar, entry: &str) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("hwfit microbench.wgsl"),
        source: wgpu::ShaderSource::Wgsl(shader_source(scalar)),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry),
        layout: None,
        module: &module,
        entry_point: Some(entry),
        compilation_options: wgpu::PipelineCompilationOptions::default(),
        cache: None,
    })
}

impl GpuBench {
    /// Opens a device on `adapter` with its own limits and `shader-f16` where offered, and creates
    /// the pipelines.
    pub async fn new(adapter: &wgpu::Adapter) -> Result<Self, GpuBenchError> {
        let f16 = adapter.features().contains(wgpu::Features::SHADER_F16);
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("hwfit microbenchmark"),
                required_features: if f16 {
                    wgpu::Features::SHADER_F16
                } else {
                    wgpu::Features::empty()
                },
                required_limits: limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuBenchError::RequestDevice(e.to_string()))?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&errors);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        Ok(Self {
            matmul_f32: pipeline(&device, ShaderScalar::F32, "matmul"),
            matmul_f16: f16.then(|| pipeline(&device, ShaderScalar::F16, "matmul")),
            copy: pipeline(&device, ShaderScalar::F32, "copy"),
            device,
            queue,
            errors,
            limits,
            info: adapter.get_info(),
        })
    }

    /// Whether the f16 matmul will run.
    #[must_use]
    pub fn has_f16(&self) -> bool {
        self.matmul_f16.is_some()
    }

    /// Runs every figure: f32 matmul, f16 matmul where supported, copy.
    pub async fn run(&self, config: &BenchConfig) -> Result<Measurement, GpuBenchError> {
        let (f32_gflops, n) = self.matmul(ShaderScalar::F32, config).await?;
        let f16_gflops = if self.has_f16() {
            Some(self.matmul(ShaderScalar::F16, config).await?.0)
        } else {
            None
        };
        let (copy_gbs, copy_bytes) = self.copy(config).await?;
        Ok(Measurement {
            matmul_f32_gflops: round3(f32_gflops),
            matmul_f16_gflops: f16_gflops.map(round3),
            copy_gbs: round3(copy_gbs),
            matmul_n: n,
            copy_bytes,
            samples: config.samples,
            threads: 1,
            method: format!(
                "wgpu {:?} on {}: WGSL tiled matmul (128x128 tiles, 8x8 per invocation, vec4 loads) and vec4 streaming copy, median of {} samples",
                self.info.backend, self.info.name, config.samples
            ),
        })
    }

    fn check_errors(&self) -> Result<(), GpuBenchError> {
        let mut errors = self.errors.lock().map_err(|e| GpuBenchError::Device(e.to_string()))?;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(GpuBenchError::Device(errors.drain(..).collect::<Vec<_>>().join("; ")))
        }
    }

    async fn wait(&self) -> Result<(), GpuBenchError> {
        let (tx, rx) = futures_channel::oneshot::channel();
        self.queue.on_submitted_work_done(move || {
            let _ = tx.send(());
        });
        // Natively this blocks until the work is done; on the web it is a no-op and the browser
        // resolves the callback.
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuBenchError::Wait(e.to_string()))?;
        rx.await
            .map_err(|_| GpuBenchError::Wait(String::from("the device dropped the submission")))?;
        self.check_errors()
    }

    fn storage_cap(&self) -> u64 {
        self.limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size)
    }

    fn buffer(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }

    /// A buffer filled with `count` pattern values of `scalar`, uploaded in chunks.
    fn filled(&self, label: &str, count: u64, scalar: ShaderScalar, seed: u64) -> wgpu::Buffer {
        let size = count * scalar.size();
        let buffer = self.buffer(label, size, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST);
        let per_chunk = (UPLOAD_CHUNK as u64) / scalar.size();
        let mut chunk = Vec::with_capacity(UPLOAD_CHUNK);
        let mut start = 0;
        while start < count {
            let end = (start + per_chunk).min(count);
            chunk.clear();
            for i in start..end {
                scalar.encode(pattern(i + seed), &mut chunk);
            }
            self.queue.write_buffer(&buffer, start * scalar.size(), &chunk);
            start = end;
        }
        buffer
    }

    fn uniform(&self, n: u32, groups_x: u32) -> wgpu::Buffer {
        let buffer = self.buffer("dims", 16, wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        let mut bytes = Vec::with_capacity(16);
        for v in [n, groups_x, 0, 0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        self.queue.write_buffer(&buffer, 0, &bytes);
        buffer
    }

    fn kernel<'a>(
        &self,
        pipeline: &'a wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
        groups: (u32, u32),
    ) -> Kernel<'a> {
        let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
            .iter()
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding: *binding,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hwfit microbenchmark"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        Kernel {
            pipeline,
            bind_group,
            groups,
        }
    }

    /// Seconds for `reps` back-to-back dispatches of `kernel`, from submission to completion.
    async fn time(&self, kernel: &Kernel<'_>, reps: u32) -> Result<f64, GpuBenchError> {
        let start = Instant::now();
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(kernel.pipeline);
            pass.set_bind_group(0, &kernel.bind_group, &[]);
            for _ in 0..reps {
                pass.dispatch_workgroups(kernel.groups.0, kernel.groups.1, 1);
            }
        }
        self.queue.submit([encoder.finish()]);
        self.wait().await?;
        Ok(seconds_since(start))
    }

    /// Seconds of one dispatch of `kernel`, after `config.warmup` dispatches (at least one: the
    /// first runs the pipeline's compilation and first-use costs).
    async fn first_timing(&self, kernel: &Kernel<'_>, config: &BenchConfig) -> Result<f64, GpuBenchError> {
        for _ in 0..config.warmup.max(1) {
            self.time(kernel, 1).await?;
        }
        self.time(kernel, 1).await
    }

    /// Median rate (work units per second) of `kernel` under `config`, given `one` dispatch's seconds.
    async fn rate(&self, kernel: &Kernel<'_>, work: f64, one: f64, config: &BenchConfig) -> Result<f64, GpuBenchError> {
        let reps = config.repetitions(web_time::Duration::from_secs_f64(one));
        let mut rates = Vec::with_capacity(config.samples as usize);
        for _ in 0..config.samples.max(1) {
            let t = self.time(kernel, reps).await?;
            rates.push(work * f64::from(reps) / t.max(1e-9));
        }
        median(&rates).ok_or_else(|| GpuBenchError::Wait(String::from("no valid timing samples")))
    }

    /// Reads `bytes` of `source` from `offset` back.
    async fn read_back(&self, source: &wgpu::Buffer, offset: u64, bytes: u64) -> Result<Vec<u8>, GpuBenchError> {
        let staging = self.buffer(
            "readback",
            bytes,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.copy_buffer_to_buffer(source, offset, &staging, 0, bytes);
        self.queue.submit([encoder.finish()]);
        let (tx, rx) = futures_channel::oneshot::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuBenchError::Wait(e.to_string()))?;
        rx.await
            .map_err(|_| GpuBenchError::Readback(String::from("the mapping was dropped")))?
            .map_err(|e| GpuBenchError::Readback(e.to_string()))?;
        let data = staging
            .get_mapped_range(..)
            .map_err(|e| GpuBenchError::Readback(e.to_string()))?
            .to_vec();
        staging.unmap();
        self.check_errors()?;
        Ok(data)
    }

    /// The matmul rate in GFLOP/s and the side it settled on.
    async fn matmul(&self, scalar: ShaderScalar, config: &BenchConfig) -> Result<(f64, u32), GpuBenchError> {
        let cap = self.storage_cap();
        let fits = |n: u32| u64::from(n) * u64::from(n) * scalar.size() <= cap;
        if !fits(TILE) {
            return Err(GpuBenchError::Limits(format!("storage buffers of {cap} bytes")));
        }
        let mut n = config.first_matmul_n.clamp(TILE, START_N) / TILE * TILE;
        while !fits(n) {
            n = (n / 2).max(TILE);
        }
        loop {
            let count = u64::from(n) * u64::from(n);
            let a = self.filled("a", count, scalar, 0);
            let b = self.filled("b", count, scalar, count);
            let c = self.buffer(
                "c",
                count * scalar.size(),
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            );
            let dims = self.uniform(n, 0);
            let pipeline = match scalar {
                ShaderScalar::F32 => &self.matmul_f32,
                ShaderScalar::F16 => self.matmul_f16.as_ref().unwrap_or(&self.matmul_f32),
            };
            let kernel = self.kernel(pipeline, &[(0, &a), (1, &b), (2, &c), (3, &dims)], (n / TILE, n / TILE));
            let one = self.first_timing(&kernel, config).await?;
            let grow = n * 2 <= MAX_N && fits(n * 2) && one < config.min_sample.as_secs_f64() / 4.0;
            if grow {
                n *= 2;
                continue;
            }
            let gflops = self.rate(&kernel, matmul_flops(n), one, config).await? / 1e9;
            // The first row and the last: each invocation's two halves of its register block.
            self.check_row(scalar, &c, n, 0).await?;
            self.check_row(scalar, &c, n, n - 1).await?;
            return Ok((gflops, n));
        }
    }

    /// Checks the first elements of C's row `row` against a CPU computation from the same pattern.
    async fn check_row(&self, scalar: ShaderScalar, c: &wgpu::Buffer, n: u32, row: u32) -> Result<(), GpuBenchError> {
        let checked = CHECKED.min(n);
        let bytes = (u64::from(checked) * scalar.size()).next_multiple_of(4);
        let data = self
            .read_back(c, u64::from(row) * u64::from(n) * scalar.size(), bytes)
            .await?;
        let count = u64::from(n) * u64::from(n);
        let kernel = match scalar {
            ShaderScalar::F32 => "f32 matmul",
            ShaderScalar::F16 => "f16 matmul",
        };
        for j in 0..checked {
            let a_row = u64::from(row) * u64::from(n);
            let expected: f32 = (0..u64::from(n))
                .map(|k| pattern(a_row + k) * pattern(count + k * u64::from(n) + u64::from(j)))
                .sum();
            let at = (u64::from(j) * scalar.size()) as usize;
            let got = scalar.decode(&data[at..]);
            if (got - expected).abs() > 1e-2 * (1.0 + expected.abs()) {
                return Err(GpuBenchError::WrongResult {
                    kernel,
                    index: row * n + j,
                    got,
                    expected,
                });
            }
        }
        Ok(())
    }

    /// The copy bandwidth in GB/s (bytes read + written) and the buffer size.
    async fn copy(&self, config: &BenchConfig) -> Result<(f64, u64), GpuBenchError> {
        let per_group = 16 * 256;
        let bytes = MAX_COPY_BYTES.min(config.max_copy_bytes).min(self.storage_cap()) / per_group * per_group;
        if bytes == 0 {
            return Err(GpuBenchError::Limits(format!(
                "storage buffers of {} bytes",
                self.storage_cap()
            )));
        }
        let groups = (bytes / per_group) as u32;
        let max_x = self.limits.max_compute_workgroups_per_dimension.max(1);
        let groups_x = groups.min(max_x);
        let groups_y = groups.div_ceil(groups_x);
        let src = self.filled("copy source", bytes / 4, ShaderScalar::F32, 7);
        let dst = self.buffer(
            "copy destination",
            bytes,
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        );
        let dims = self.uniform(0, groups_x);
        let kernel = self.kernel(&self.copy, &[(3, &dims), (4, &src), (5, &dst)], (groups_x, groups_y));
        let one = self.first_timing(&kernel, config).await?;
        let rate = self.rate(&kernel, 2.0 * bytes as f64, one, config).await?;
        let data = self.read_back(&dst, 0, 256).await?;
        for (i, word) in data.chunks_exact(4).enumerate() {
            let got = ShaderScalar::F32.decode(word);
            let expected = pattern(i as u64 + 7);
            if got.to_bits() != expected.to_bits() {
                return Err(GpuBenchError::WrongResult {
                    kernel: "copy",
                    index: i as u32,
                    got,
                    expected,
                });
            }
        }
        Ok((rate / 1e9, bytes))
    }
}

/// Rounds to three decimals (figures are medians of noisy samples).
fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// Opens `adapter` and runs the whole benchmark.
pub async fn run(adapter: &wgpu::Adapter, config: &BenchConfig) -> Result<Measurement, GpuBenchError> {
    GpuBench::new(adapter).await?.run(config).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_source_enables_f16_first_and_swaps_the_alias() {
        let src = shader_source(ShaderScalar::F16);
        assert!(src.starts_with("enable f16;\n"));
        assert!(src.contains("alias scalar = f16;"));
        assert!(!src.contains(F32_ALIAS));
        assert!(shader_source(ShaderScalar::F32).contains(F32_ALIAS));
    }

    #[test]
    fn pattern_values_are_exact_in_f16() {
        for i in 0..1000 {
            let v = pattern(i);
            assert_eq!(half::f16::from_f32(v).to_f32().to_bits(), v.to_bits());
            assert!((-0.5..=0.5).contains(&v));
        }
    }
}

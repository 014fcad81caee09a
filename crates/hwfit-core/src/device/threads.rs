//! A CPU run on fewer threads than it has cores (llama.cpp's `-t`, PyTorch's `torch.set_num_threads`):
//! the part of the device those threads use.
//!
//! Each thread that has a core of its own brings that core's vector units, so compute scales with
//! `min(threads, cores) / cores` (a second thread on a core shares its units). Memory bandwidth is
//! capped by what the busy cores can keep in flight: a core has a fixed number of outstanding cache
//! misses, so one core reads at most a per-core rate (fitted, see `hwfit fit`), and `n` cores at `n`
//! times that, until the memory's own peak.

use alloc::format;

use super::Device;
use crate::{CoreError, HardwareType};

impl Device {
    /// This CPU as `threads` threads use it, each busy core reading at most `core_bandwidth_gbs`.
    /// A count at or above the core count is the whole device.
    pub fn on_threads(&self, threads: u32, core_bandwidth_gbs: f64) -> Result<Device, CoreError> {
        if self.hardware_type != HardwareType::Cpu {
            return Err(CoreError::InvalidRequest(format!(
                "threads: {} is not a CPU (a thread count describes a CPU run)",
                self.name
            )));
        }
        if threads == 0 {
            return Err(CoreError::InvalidNumber {
                field: "threads",
                value: format!("{threads}"),
                reason: "must be at least 1",
            });
        }
        let Some(cores) = self.cpu_cores else {
            return Err(CoreError::InvalidRequest(format!(
                "threads: the core count of {} is not known, so a run on {threads} threads cannot be told apart from the whole CPU (a device spec can state `cpu_cores`)",
                self.name
            )));
        };
        if threads >= cores {
            return Ok(self.clone());
        }
        let share = f64::from(threads) / f64::from(cores);
        let bandwidth = libm::fmin(self.memory_bandwidth_gbs, f64::from(threads) * core_bandwidth_gbs);
        let scale = |v: f64| v * share;
        let mut part = self.clone();
        part.id = format!("{}@{threads}t", self.id);
        part.name = format!("{} ({threads} of {cores} cores)", self.name);
        part.dense_tflops.fp32 = scale(self.dense_tflops.fp32);
        for rate in [
            &mut part.dense_tflops.fp16,
            &mut part.dense_tflops.fp16_acc16,
            &mut part.dense_tflops.bf16,
            &mut part.dense_tflops.fp8,
            &mut part.dense_tflops.int8,
        ] {
            *rate = rate.map(scale);
        }
        part.memory_bandwidth_gbs = bandwidth;
        let note = format!(
            "{threads} of {cores} cores: compute × {threads}/{cores}; bandwidth min({:.1} GB/s, {threads} × {core_bandwidth_gbs:.1} GB/s per core) = {bandwidth:.1} GB/s",
            self.memory_bandwidth_gbs
        );
        part.notes = Some(match &self.notes {
            Some(n) => format!("{n}; {note}"),
            None => note,
        });
        Ok(part)
    }
}

#[cfg(test)]
mod tests {
    use crate::DeviceCatalog;
    use alloc::string::ToString;

    #[test]
    fn fewer_threads_use_part_of_the_cores_and_what_they_can_read() {
        let catalog = DeviceCatalog::builtin();
        let cpu = catalog.resolve("Xeon Platinum 8480+").unwrap();
        assert_eq!(cpu.cpu_cores, Some(56));
        let part = cpu.on_threads(14, 10.0).unwrap();
        assert!((part.dense_tflops.fp32 - cpu.dense_tflops.fp32 / 4.0).abs() < 1e-9);
        assert_eq!(part.dense_tflops.bf16.map(|v| v * 4.0), cpu.dense_tflops.bf16);
        assert!((part.memory_bandwidth_gbs - 140.0).abs() < 1e-9);
        assert_ne!(part.id, cpu.id);
        // Many threads reach the memory's own peak, and all cores are the whole device.
        assert!((cpu.on_threads(50, 10.0).unwrap().memory_bandwidth_gbs - cpu.memory_bandwidth_gbs).abs() < 1e-9);
        assert_eq!(&cpu.on_threads(112, 10.0).unwrap(), cpu);
    }

    #[test]
    fn thread_counts_that_describe_no_cpu_run_are_refused() {
        let catalog = DeviceCatalog::builtin();
        let cpu = catalog.resolve("Xeon Platinum 8480+").unwrap();
        assert!(cpu.on_threads(0, 10.0).unwrap_err().to_string().contains("at least 1"));
        let gpu = catalog.resolve("H100 SXM").unwrap();
        assert!(gpu.on_threads(4, 10.0).unwrap_err().to_string().contains("not a CPU"));
        let mut unknown = cpu.clone();
        unknown.cpu_cores = None;
        assert!(unknown
            .on_threads(4, 10.0)
            .unwrap_err()
            .to_string()
            .contains("core count"));
    }
}

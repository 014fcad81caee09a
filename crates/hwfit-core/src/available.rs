//! What a machine (or browser) offers, in IPFS Accelerate's shape (`hardware: {cpu: true, cuda: false, …}`),
//! and the priority rules on top of it (`get_hardware_by_priority`,
//! `get_torch_device_with_priority`). The faces probe; this decides.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

use crate::HardwareType;

/// Default priority when the caller gives none: accelerators first, CPU last.
pub const DEFAULT_PRIORITY: &[HardwareType] = &[
    HardwareType::Cuda,
    HardwareType::Rocm,
    HardwareType::Mps,
    HardwareType::Webgpu,
    HardwareType::Webnn,
    HardwareType::Openvino,
    HardwareType::Qnn,
    HardwareType::Wasm,
    HardwareType::Cpu,
];

/// Availability of every hardware type and how many devices of each there are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AvailableHardware {
    /// `true` for each usable type, `false` for the others (every type is listed).
    pub hardware: SortedMap<HardwareType, bool>,
    /// Devices of each usable type (GPUs for cuda/rocm; 1 otherwise).
    pub device_counts: SortedMap<HardwareType, u32>,
}

impl AvailableHardware {
    /// Builds the full map from the types present with their device counts (0 counts as absent).
    #[must_use]
    pub fn new(present: impl IntoIterator<Item = (HardwareType, u32)>) -> Self {
        let mut hardware: SortedMap<HardwareType, bool> = HardwareType::ALL.iter().map(|h| (*h, false)).collect();
        let mut device_counts = SortedMap::new();
        for (hw, count) in present {
            if count > 0 {
                hardware.insert(hw, true);
                *device_counts.entry(hw).or_insert(0) += count;
            }
        }
        Self {
            hardware,
            device_counts,
        }
    }

    /// Whether `hw` is usable.
    #[must_use]
    pub fn has(&self, hw: HardwareType) -> bool {
        self.hardware.get(&hw).copied().unwrap_or(false)
    }

    /// The usable types, in [`DEFAULT_PRIORITY`] order.
    pub fn present(&self) -> impl Iterator<Item = HardwareType> + '_ {
        DEFAULT_PRIORITY.iter().copied().filter(|hw| self.has(*hw))
    }

    /// The first usable type of `priority` (IPFS Accelerate's `get_hardware_by_priority`).
    #[must_use]
    pub fn by_priority(&self, priority: &[HardwareType]) -> Option<HardwareType> {
        priority.iter().copied().find(|hw| self.has(*hw))
    }

    /// A PyTorch device string for the first usable type of `priority` that PyTorch can address
    /// (IPFS Accelerate's `get_torch_device_with_priority`): `cuda:<i>` with `preferred_index` when that GPU
    /// exists, else `cuda:0` (ROCm builds of PyTorch also use `cuda`); `mps`; `cpu` otherwise.
    #[must_use]
    pub fn torch_device_with_priority(&self, priority: &[HardwareType], preferred_index: Option<u32>) -> String {
        let chosen = priority
            .iter()
            .copied()
            .find(|hw| self.has(*hw) && hw.torch_device().is_some());
        match chosen {
            Some(hw @ (HardwareType::Cuda | HardwareType::Rocm)) => {
                let count = self.device_counts.get(&hw).copied().unwrap_or(1);
                let index = preferred_index.filter(|i| *i < count).unwrap_or(0);
                format!("cuda:{index}")
            }
            Some(hw) => String::from(hw.torch_device().unwrap_or("cpu")),
            None => String::from("cpu"),
        }
    }

    /// IPFS Accelerate's `torch_device`: the default priority, first device.
    #[must_use]
    pub fn torch_device(&self) -> String {
        self.torch_device_with_priority(DEFAULT_PRIORITY, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HardwareType::{Cpu, Cuda, Mps, Openvino, Rocm};

    fn machine() -> AvailableHardware {
        AvailableHardware::new([(Cpu, 1), (Cuda, 2), (Openvino, 1)])
    }

    #[test]
    fn every_type_is_listed() {
        let m = machine();
        assert_eq!(m.hardware.len(), HardwareType::ALL.len());
        assert!(m.has(Cuda) && m.has(Cpu) && !m.has(Rocm) && !m.has(Mps));
        assert!(!AvailableHardware::new([(Rocm, 0)]).has(Rocm));
    }

    #[test]
    fn priority_picks_the_first_present() {
        let m = machine();
        assert_eq!(m.by_priority(&[Mps, Openvino, Cuda]), Some(Openvino));
        assert_eq!(m.by_priority(&[Mps, Rocm]), None);
    }

    #[test]
    fn torch_device_honours_the_preferred_index_when_it_exists() {
        let m = machine();
        assert_eq!(m.torch_device(), "cuda:0");
        assert_eq!(m.torch_device_with_priority(&[Cuda, Cpu], Some(1)), "cuda:1");
        assert_eq!(m.torch_device_with_priority(&[Cuda, Cpu], Some(5)), "cuda:0");
        assert_eq!(m.torch_device_with_priority(&[Mps, Cpu], Some(1)), "cpu");
        // OpenVINO has no PyTorch device string: the next addressable type is used.
        assert_eq!(m.torch_device_with_priority(&[Openvino, Cpu], None), "cpu");
        assert_eq!(AvailableHardware::new([(Cpu, 1), (Mps, 1)]).torch_device(), "mps");
    }
}

//! Apple's Metal GPU (`mps`): an Apple adapter on the Metal back-end, with the machine's unified memory.

use crate::adapters::AdapterReport;
use crate::cpu::MemoryInfo;
use crate::report::MpsReport;

/// Apple's PCI-style vendor id as Metal adapters report it.
const APPLE_VENDOR: &str = "0x106B";

/// Finds an Apple Metal adapter among `adapters`.
pub(crate) fn detect(adapters: &[(wgpu::Adapter, AdapterReport)], memory: &MemoryInfo) -> MpsReport {
    let apple = adapters
        .iter()
        .map(|(_, r)| r)
        .find(|r| r.backend == "metal" && (r.vendor_id == APPLE_VENDOR || r.name.starts_with("Apple")));
    match apple {
        Some(r) => MpsReport {
            available: true,
            reason: None,
            name: Some(r.name.clone()),
            unified_memory_mb: Some(memory.total_mb),
        },
        None => MpsReport {
            available: false,
            reason: Some(String::from(if cfg!(target_os = "macos") {
                "no Apple GPU among the Metal adapters"
            } else {
                "Metal (MPS) exists only on macOS"
            })),
            name: None,
            unified_memory_mb: None,
        },
    }
}

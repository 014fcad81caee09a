//! IPFS Accelerate's planning outputs, computed from the catalog, the performance model and selection:
//! the prediction matrix, the hardware selection map, distributed-training configurations,
//! resource-pool configurations, task → model recommendations and compatible models per hardware.

pub mod distributed;
pub mod map;
pub mod matrix;
pub mod pool;
pub mod recommend;

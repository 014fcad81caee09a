//! Dense matrix-unit (tensor core, XMX, WMMA/MFMA) rates derived from a GPU's unit count and clock,
//! and the memory-system bandwidth of integrated GPUs, for devices whose database entry gives only
//! the vector figures (TechPowerUp's FP16 is the shader rate, not the tensor rate).
//!
//! rate = units × dense FP16 FLOPs per unit per clock × boost clock × clock factor, where a unit is
//! an SM (NVIDIA), a compute unit (AMD, 64 shaders) or an Xe-core (Intel, 128 shaders). The other
//! precisions are multiples of the FP16 rate. Every row cites the figures it reproduces.

use super::DenseTflops;

/// What an architecture's matrix units do per unit per clock.
pub(crate) struct MatrixRule {
    /// Vendor as the database writes it.
    pub vendor: &'static str,
    /// Architecture as the database writes it (TechPowerUp's names).
    pub architecture: &'static str,
    /// CUDA compute capability prefix where one architecture name spans several (`8.0` vs `8.6`).
    pub compute_capability: Option<&'static str>,
    /// Shaders per unit (0: use the database's SM count).
    pub shaders_per_unit: u32,
    /// Dense FP16 FLOPs per unit per clock with FP32 accumulation at full rate.
    pub fp16_per_clock: f64,
    /// Vendor peaks are quoted at this fraction of TechPowerUp's boost clock.
    pub clock_factor: f64,
    /// BF16 / FP8 / INT8 as multiples of the FP16 rate (0: not supported by the matrix units).
    pub bf16: f64,
    /// See `bf16`.
    pub fp8: f64,
    /// See `bf16`.
    pub int8: f64,
    /// The published figures the row reproduces.
    pub source: &'static str,
}

const fn nvidia(
    architecture: &'static str,
    cc: Option<&'static str>,
    fp16_per_clock: f64,
    clock_factor: f64,
    multiples: (f64, f64, f64),
    source: &'static str,
) -> MatrixRule {
    let mut rule = per_shaders(
        "NVIDIA",
        architecture,
        0,
        fp16_per_clock,
        clock_factor,
        multiples,
        source,
    );
    rule.compute_capability = cc;
    rule
}

const fn per_shaders(
    vendor: &'static str,
    architecture: &'static str,
    shaders_per_unit: u32,
    fp16_per_clock: f64,
    clock_factor: f64,
    (bf16, fp8, int8): (f64, f64, f64),
    source: &'static str,
) -> MatrixRule {
    MatrixRule {
        vendor,
        architecture,
        compute_capability: None,
        shaders_per_unit,
        fp16_per_clock,
        clock_factor,
        bf16,
        fp8,
        int8,
        source,
    }
}

/// The per-architecture table.
pub(crate) const MATRIX_RULES: &[MatrixRule] = &[
    nvidia(
        "Volta",
        None,
        1024.0,
        1.0,
        (0.0, 0.0, 0.0),
        "V100 whitepaper: 8 tensor cores/SM × 64 FMA; V100 SXM2 125 TFLOPS at 1,530 MHz",
    ),
    nvidia(
        "Turing",
        None,
        1024.0,
        1.0,
        (0.0, 0.0, 2.0),
        "Turing whitepaper: 8 tensor cores/SM × 64 FMA; T4 65 TFLOPS FP16, 130 TOPS INT8 at 1,590 MHz",
    ),
    nvidia(
        "Ampere",
        Some("8.0"),
        2048.0,
        1.0,
        (1.0, 0.0, 2.0),
        "A100 whitepaper: 4 tensor cores/SM × 256 FMA; A100 312 TFLOPS FP16/BF16, 624 TOPS INT8 at 1,410 MHz",
    ),
    nvidia(
        "Ampere",
        Some("8.7"),
        2048.0,
        1.0,
        (1.0, 0.0, 2.0),
        "Jetson AGX Orin datasheet: 85 dense INT8 TOPS (GPU) = 16 SMs × 4,096 × 1.3 GHz",
    ),
    nvidia(
        "Ampere",
        None,
        1024.0,
        1.0,
        (1.0, 0.0, 2.0),
        "GA102 whitepaper: 4 tensor cores/SM × 128 FMA; RTX A6000 154.8 TFLOPS at 1,800 MHz, A10 125 TFLOPS",
    ),
    nvidia(
        "Ada Lovelace",
        None,
        1024.0,
        1.0,
        (1.0, 2.0, 2.0),
        "Ada whitepaper: RTX 6000 Ada 364.2 TFLOPS FP16, 728.5 FP8; L40S 362 TFLOPS; L4 121 TFLOPS",
    ),
    nvidia(
        "Hopper",
        None,
        4096.0,
        0.9,
        (1.0, 2.0, 2.0),
        "H100 whitepaper: 4 tensor cores/SM × 512 FMA; NVIDIA quotes 989.4 TFLOPS (SXM5), 756 (PCIe) and 835.5 \
         (NVL) at 0.924, 0.922 and 0.866 × the boost clocks TechPowerUp lists; 0.9 is within 5 % of all three",
    ),
    nvidia(
        "Blackwell",
        Some("10."),
        8192.0,
        0.944,
        (1.0, 2.0, 2.0),
        "HGX B200 datasheet: 2.25 PFLOPS dense FP16 per GPU = 148 SMs × 8,192 × 1,855 MHz (0.944 × 1,965 MHz)",
    ),
    nvidia(
        "Blackwell",
        Some("11."),
        8192.0,
        1.0,
        (1.0, 2.0, 2.0),
        "Jetson AGX Thor: 258.75 dense FP16 TFLOPS (from 2,070 FP4 sparse) = 20 SMs × 8,192 × 1.57 GHz",
    ),
    nvidia(
        "Blackwell 2.0",
        None,
        1024.0,
        1.0,
        (1.0, 2.0, 2.0),
        "RTX Blackwell whitepaper: RTX 5090 419 TFLOPS FP16 (FP16 accumulate) at 2,407 MHz, 838 TOPS INT8; \
         DGX Spark 125 TFLOPS",
    ),
    per_shaders(
        "AMD",
        "CDNA 1.0",
        64,
        1024.0,
        1.0,
        (0.5, 0.0, 1.0),
        "MI100 datasheet: 184.6 TFLOPS FP16, 92.3 BF16, 184.6 TOPS INT8 at 1,502 MHz (120 CUs)",
    ),
    per_shaders(
        "AMD",
        "CDNA 2.0",
        64,
        1024.0,
        1.0,
        (1.0, 0.0, 1.0),
        "MI250X datasheet: 383 TFLOPS FP16/BF16, 383 TOPS INT8 at 1,700 MHz (220 CUs); MI210 181 TFLOPS",
    ),
    per_shaders(
        "AMD",
        "CDNA 3.0",
        64,
        2048.0,
        1.0,
        (1.0, 2.0, 2.0),
        "MI300X datasheet: 1,307.4 TFLOPS FP16/BF16, 2,614.9 FP8/INT8 at 2,100 MHz (304 CUs)",
    ),
    per_shaders(
        "AMD",
        "RDNA 3.0",
        64,
        512.0,
        1.0,
        (1.0, 0.0, 1.0),
        "RDNA 3 WMMA: RX 7900 XTX 122.8 TFLOPS FP16 at 2,498 MHz (96 CUs)",
    ),
    per_shaders(
        "AMD",
        "RDNA 3.5",
        64,
        512.0,
        1.0,
        (1.0, 0.0, 1.0),
        "RDNA 3.5 WMMA as RDNA 3: Radeon 8060S 59.4 TFLOPS FP16 at 2,900 MHz (40 CUs)",
    ),
    per_shaders(
        "AMD",
        "RDNA 4.0",
        64,
        1024.0,
        1.0,
        (1.0, 2.0, 2.0),
        "RDNA 4 WMMA: RX 9070 XT 1,557 INT4 sparse TOPS = 389 dense INT8 = 64 CUs × 2,048 × 2,970 MHz",
    ),
    per_shaders(
        "Intel",
        "Xe-HPG",
        128,
        2048.0,
        0.875,
        (1.0, 0.0, 2.0),
        "Arc A770: 138 TFLOPS FP16 XMX, 275 TOPS INT8 at the 2,100 MHz graphics clock (0.875 × 2,400 MHz)",
    ),
    per_shaders(
        "Intel",
        "Xe2-HPG",
        128,
        2048.0,
        1.067,
        (1.0, 0.0, 2.0),
        "Arc B580: 233 TOPS INT8 XMX at 2,850 MHz (1.067 × the 2,670 MHz TechPowerUp lists; 20 Xe2-cores)",
    ),
    per_shaders(
        "Intel",
        "Xe2-LPG",
        128,
        2048.0,
        1.0,
        (1.0, 0.0, 2.0),
        "Lunar Lake Arc 140V: 67 TOPS INT8 (GPU) = 8 Xe2-cores × 4,096 × 2.05 GHz",
    ),
    per_shaders(
        "Intel",
        "Xe-LPG+",
        128,
        2048.0,
        1.0,
        (1.0, 0.0, 2.0),
        "Arrow Lake-H Arc 140T: 77 TOPS INT8 (GPU) = 8 Xe-cores × 4,096 × 2.35 GHz",
    ),
    per_shaders(
        "Intel",
        "Generation 12.5",
        128,
        4096.0,
        1.0,
        (1.0, 0.0, 2.0),
        "Data Center GPU Max 1550: 839 TFLOPS FP16/BF16 XMX at 1,600 MHz (128 Xe-cores)",
    ),
];

/// SKUs whose vendor tensor figures imply a clock below their boost clock (power-limited cards),
/// with the datasheet figure that fixes it.
const QUOTED_TENSOR_CLOCKS: &[(&str, f64, &str)] = &[(
    "NVIDIA RTX 4000 Ada Generation",
    1666.0,
    "datasheet: 327.6 sparse FP8 TFLOPS on 48 SMs, i.e. 1,666 MHz under its 130 W limit (boost 2,175 MHz)",
)];

/// The facts a derivation reads.
pub(crate) struct UnitFacts<'a> {
    pub vendor: &'a str,
    pub architecture: &'a str,
    pub compute_capability: &'a str,
    pub name: &'a str,
    pub shaders: u32,
    pub sms: u32,
    pub tensor_cores: u32,
    pub boost_mhz: f64,
}

/// GeForce cards and the L40 run FP16 with FP32 accumulation at half the FP16-accumulate rate
/// (Turing/Ampere/Ada/Blackwell GeForce whitepapers; NVIDIA L40 datasheet: 181 vs 362 TFLOPS).
fn half_rate_fp32_accumulate(f: &UnitFacts<'_>) -> bool {
    f.vendor == "NVIDIA" && (f.name.contains("GeForce") || f.name.ends_with(" L40"))
}

/// The matrix rule for an architecture, if it has matrix units.
pub(crate) fn rule_for(f: &UnitFacts<'_>) -> Option<&'static MatrixRule> {
    MATRIX_RULES.iter().find(|r| {
        r.vendor == f.vendor
            && r.architecture == f.architecture
            && r.compute_capability
                .is_none_or(|cc| f.compute_capability.starts_with(cc))
    })
}

/// Dense matrix rates in TFLOPS, or `None` where the device has no matrix units.
pub(crate) fn matrix_rates(f: &UnitFacts<'_>, fp32: f64) -> Option<DenseTflops> {
    let rule = rule_for(f)?;
    let units = match f.shaders.checked_div(rule.shaders_per_unit) {
        Some(units) => units,
        None if f.tensor_cores == 0 => return None, // GTX 16-series Turing: no tensor cores
        None => f.sms,
    };
    if units == 0 || f.boost_mhz <= 0.0 {
        return None;
    }
    let clock = QUOTED_TENSOR_CLOCKS
        .iter()
        .find(|(name, _, _)| *name == f.name)
        .map_or(f.boost_mhz * rule.clock_factor, |(_, mhz, _)| *mhz);
    let full = f64::from(units) * rule.fp16_per_clock * clock / 1e6;
    let (fp16, fp16_acc16) = if half_rate_fp32_accumulate(f) {
        (full / 2.0, Some(full))
    } else {
        (full, None)
    };
    let times = |k: f64| (k > 0.0).then_some(fp16 * k);
    // INT8 accumulates in INT32 at the full rate on GeForce; the L40 halves it with the rest.
    let int8_base = if f.name.contains("GeForce") { full } else { fp16 };
    Some(DenseTflops {
        fp32,
        fp16: Some(fp16),
        fp16_acc16,
        bf16: times(rule.bf16),
        fp8: times(rule.fp8),
        int8: (rule.int8 > 0.0).then_some(int8_base * rule.int8),
    })
}

/// The memory bandwidth (GB/s) of an integrated GPU's memory system: dual-channel (128-bit) memory at
/// the fastest speed the platform officially supports, by GPU architecture (Intel ARK, AMD product
/// pages); Strix Halo's Radeon 8000S parts have a 256-bit LPDDR5X-8000 bus. `None` for
/// architectures the table does not cover.
pub(crate) fn integrated_bandwidth(vendor: &str, architecture: &str, name: &str) -> Option<(f64, &'static str)> {
    if vendor == "AMD" && architecture == "RDNA 3.5" && name.contains("Radeon 80") {
        return Some((256.0, "256-bit LPDDR5X-8000"));
    }
    let table: &[(&str, &str, f64, &str)] = &[
        ("Intel", "Generation 7.0", 25.6, "DDR3-1600"),
        ("Intel", "Generation 7.5", 25.6, "DDR3-1600"),
        ("Intel", "Generation 8.0", 25.6, "DDR3-1600"),
        ("Intel", "Generation 9.0", 34.1, "DDR4-2133"),
        ("Intel", "Generation 9.5", 38.4, "DDR4-2400"),
        ("Intel", "Generation 11.0", 59.7, "LPDDR4X-3733"),
        ("Intel", "Generation 12.1", 68.3, "LPDDR4X-4266"),
        ("Intel", "Xe-LP", 68.3, "LPDDR4X-4266"),
        ("Intel", "Generation 12.2", 76.8, "DDR5-4800"),
        ("Intel", "Xe-LPG", 119.5, "LPDDR5X-7467"),
        ("Intel", "Xe-LPG+", 89.6, "DDR5-5600"),
        ("Intel", "Xe2-LPG", 136.5, "LPDDR5X-8533"),
        ("AMD", "TeraScale 2", 21.3, "DDR3-1333"),
        ("AMD", "TeraScale 3", 29.9, "DDR3-1866"),
        ("AMD", "GCN 1.0", 29.9, "DDR3-1866"),
        ("AMD", "GCN 2.0", 34.1, "DDR3-2133"),
        ("AMD", "GCN 3.0", 38.4, "DDR4-2400"),
        ("AMD", "GCN 4.0", 38.4, "DDR4-2400"),
        ("AMD", "GCN 5.0", 51.2, "DDR4-3200"),
        ("AMD", "GCN 5.1", 51.2, "DDR4-3200"),
        ("AMD", "RDNA 2.0", 102.4, "LPDDR5-6400"),
        ("AMD", "RDNA 3.0", 120.0, "LPDDR5X-7500"),
        ("AMD", "RDNA 3.5", 120.0, "LPDDR5X-7500"),
    ];
    table
        .iter()
        .find(|(v, a, _, _)| *v == vendor && *a == architecture)
        .map(|(_, _, gbs, memory)| (*gbs, *memory))
}

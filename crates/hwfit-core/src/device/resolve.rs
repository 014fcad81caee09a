//! Device-name resolution for the names tools and people print: `rtx3080ti`, `NVIDIA A100-SXM4-40GB`,
//! `Tesla V100-PCIE-16GB`, `AMD Radeon RX 7800 XT`, `Apple M3 Pro 18-core GPU`, `RTX 4090 Laptop GPU`.
//!
//! A name becomes identifying tokens (split at separators and letter/digit boundaries, vendor and
//! brand words dropped, `laptop` read as `mobile`) plus the constraints it states: a memory size
//! (`24GB`, `(16G)`) and a GPU core count (`18-core GPU`). A device matches when one of its names
//! holds every token and it meets the constraints; the match whose names add no identifying token
//! resolves. Anything else — several equally good matches, or only matches that add tokens the
//! name did not state (`A100 80GB`: PCIe or SXM4?) — is an error listing the candidates: a wrong
//! match is worse than none.

use alloc::string::String;
use alloc::vec::Vec;

use super::list::Lookup;
use super::names::{codename_products, device_names, read, NameFacts, CHIP_PREFIXES, FREE};
use super::Device;
use crate::text::{edit_distance, normalize_key};
use crate::CoreError;

/// A device's names, read (once per device, on first use).
#[derive(Debug, Clone)]
pub(crate) struct DeviceKeys {
    names: Vec<NameFacts>,
    gpu_cores: Option<u32>,
}

impl DeviceKeys {
    /// Reads the names of `device` (an id that is its name's slug is not read again).
    pub(crate) fn of(device: &Device) -> Self {
        let id_is_slug = normalize_key(&device.id) == normalize_key(&device.name);
        let names: Vec<NameFacts> = device_names(&device.id, &device.name, device.aliases.iter().map(String::as_str))
            .enumerate()
            .map(|(i, n)| {
                if i == 0 && id_is_slug {
                    NameFacts::default()
                } else {
                    read(n)
                }
            })
            .collect();
        let gpu_cores = device.gpu_cores.or_else(|| names.get(1).and_then(|n| n.gpu_cores));
        Self { names, gpu_cores }
    }
}

fn memory_matches(device: &Device, wanted: Option<f64>) -> bool {
    let Some(gb) = wanted else { return true };
    let close = |have: f64| (have - gb).abs() <= (0.03 * have).max(1.0);
    if !device.memory_options_gb.is_empty() {
        device.memory_options_gb.iter().any(|&m| close(m))
    } else if device.memory_gb == super::database::SHARED_MEMORY_ASSUMED_GB && !device.hardware_type.has_device_memory()
    {
        true // assumed, so no constraint
    } else if device.hardware_type.has_device_memory() {
        close(device.memory_gb)
    } else {
        // Unified or system memory whose sizes are not listed: `memory_gb` is the largest.
        gb <= device.memory_gb * 1.03
    }
}

/// Whether token `i` of a name is a chip code (`GM206`, `GA104`) or a bandwidth (`86.4`): TechPowerUp
/// names later variants of the same product so.
fn variant_token(name: &NameFacts, i: usize) -> bool {
    let t = &name.tokens[i];
    t.contains('.')
        || CHIP_PREFIXES.contains(&t.as_str())
        || i.checked_sub(1)
            .is_some_and(|p| CHIP_PREFIXES.contains(&name.tokens[p].as_str()))
}

/// How many identifying tokens the closest of the device's names adds to the wanted ones, if it
/// holds them all and the device meets the stated constraints.
fn score(device: &Device, keys: &DeviceKeys, wanted: &NameFacts) -> Option<usize> {
    if wanted.tokens.is_empty() || !memory_matches(device, wanted.memory_gb) {
        return None;
    }
    if wanted.vendor.is_some_and(|v| !device.vendor.eq_ignore_ascii_case(v)) {
        return None;
    }
    if let (Some(want), Some(have)) = (wanted.gpu_cores, keys.gpu_cores) {
        if want != have {
            return None;
        }
    }
    let cpu = device.hardware_type == crate::HardwareType::Cpu;
    if wanted.names_cpu && !cpu {
        return None;
    }
    if let (Some(want), Some(have), true) = (wanted.cpu_cores, device.cpu_cores, cpu) {
        if want != have {
            return None;
        }
    }
    let side_by_side = |n: &NameFacts, (a, b): &(String, String)| n.tokens.windows(2).any(|w| w[0] == *a && w[1] == *b);
    keys.names
        .iter()
        .filter(|n| wanted.tokens.iter().all(|t| n.tokens.contains(t)))
        .filter(|n| wanted.fused.iter().all(|pair| side_by_side(n, pair)))
        .map(|n| {
            (0..n.tokens.len())
                .filter(|&i| {
                    let t = &n.tokens[i];
                    !wanted.tokens.contains(t) && !FREE.contains(&t.as_str()) && !variant_token(n, i)
                })
                .count()
        })
        .min()
}

/// What a name resolves to.
#[derive(Debug)]
pub(crate) enum Resolution<'a> {
    /// One device.
    Unique(&'a Device),
    /// One product in several memory sizes that compute and read memory alike (`Intel Arc A770` 8 GB
    /// and 16 GB), the least memory first: predicted on that one, so no fit is promised that one of
    /// them cannot keep.
    MemoryVariants(Vec<&'a Device>),
    /// Equally good matches (at most 12), best first.
    Ambiguous(Vec<&'a Device>),
    /// Nothing matches.
    Unknown,
}

/// Resolves `name` among `devices`.
pub(crate) fn resolve<'a>(devices: Lookup<'a>, name: &str) -> Result<&'a Device, CoreError> {
    match resolution(devices, name) {
        Resolution::Unique(d) => Ok(d),
        Resolution::MemoryVariants(variants) => variants.first().copied().ok_or_else(|| unknown(devices, name)),
        Resolution::Ambiguous(tied) => Err(CoreError::AmbiguousDevice {
            name: String::from(name),
            candidates: tied.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", "),
        }),
        Resolution::Unknown => Err(unknown(devices, name)),
    }
}

/// The rule that decided what a name resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    /// The name, an id or an alias, as normalized.
    Exact,
    /// A chip codename or GPU target naming its products (`BMG G21`, `gfx1100`).
    Codename,
    /// The only device whose names hold every identifying token.
    OnlyMatch,
    /// The match that adds no identifying token, where every other adds some.
    Closest,
    /// The product as launched, among later listings that name their memory or chip.
    LaunchListing,
    /// The match every other extends (its variants).
    VariantBase,
    /// The least memory among variants of one product that compute and read memory alike.
    MemoryVariants,
    /// No rule decided.
    Undecided,
}

impl Rule {
    /// How the rule is named in answers.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Exact => "exact name, id or alias",
            Self::Codename => "chip codename or GPU target",
            Self::OnlyMatch => "the only device holding every token",
            Self::Closest => "the match adding no identifying token",
            Self::LaunchListing => "the product as launched, not its later variants",
            Self::VariantBase => "the match its variants extend",
            Self::MemoryVariants => "the least memory of one product's sizes",
            Self::Undecided => "undecided",
        }
    }
}

/// Resolves `name` among `devices`, keeping the candidates of an ambiguous name.
pub(crate) fn resolution<'a>(devices: Lookup<'a>, name: &str) -> Resolution<'a> {
    resolution_by_rule(devices, name).0
}

/// [`resolution`], with the rule that decided.
pub(crate) fn resolution_by_rule<'a>(devices: Lookup<'a>, name: &str) -> (Resolution<'a>, Rule) {
    let key = normalize_key(name);
    if key.is_empty() {
        return (Resolution::Unknown, Rule::Undecided);
    }
    if let Some(d) = devices.exact(&key).and_then(|i| devices.get(i)) {
        return (Resolution::Unique(d), Rule::Exact);
    }
    if let Some(products) = codename_products(name) {
        let found: Vec<&Device> = products
            .iter()
            .filter_map(|p| devices.exact(&normalize_key(p)).and_then(|i| devices.get(i)))
            .collect();
        let resolution = match found.as_slice() {
            [] => Resolution::Unknown,
            [one] => Resolution::Unique(one),
            _ => Resolution::Ambiguous(found),
        };
        return (resolution, Rule::Codename);
    }
    let wanted = read(name);
    // Series words alone (`AMD Radeon RX`, `RTX`) name no device.
    if wanted.tokens.iter().all(|t| FREE.contains(&t.as_str())) {
        return (Resolution::Unknown, Rule::Undecided);
    }
    // A name that repeats a model number lists alternatives (`MI250X/MI250`, `RX 6800/6800 XT`);
    // a single digit repeated is a CPU's tier and suffix (`i7-1185G7`).
    let repeats = wanted
        .tokens
        .iter()
        .enumerate()
        .any(|(i, t)| t.len() > 1 && t.chars().all(|c| c.is_ascii_digit()) && wanted.tokens[..i].contains(t));
    let mut scored: Vec<(usize, &Device, &DeviceKeys)> = devices
        .holding_all(&wanted.tokens)
        .into_iter()
        .filter_map(|i| Some((devices.get(i)?, devices.keys(i)?)))
        .filter_map(|(d, k)| score(d, k, &wanted).map(|s| (s, d, k)))
        .collect();
    scored.sort_by_key(|(s, _, _)| *s);
    // A name that does not say CPU means a SoC's GPU (`Apple M2 Max`) rather than its CPU, unless
    // the CPU is the closer match (`Ryzen 9 7950X`).
    if !wanted.names_cpu {
        let is_cpu = |d: &Device| d.hardware_type == crate::HardwareType::Cpu;
        if let Some(other) = scored.iter().find(|(_, d, _)| !is_cpu(d)).map(|(s, _, _)| *s) {
            scored.retain(|(s, d, _)| !is_cpu(d) || *s < other);
        }
    }
    if let Some(standard) = standard_listing(&scored, &wanted) {
        return (Resolution::Unique(standard), Rule::LaunchListing);
    }
    // A lone match that adds a model number the name did not state is another device's name
    // (`Xeon Platinum` is not `Xeon Platinum 8480+`).
    // (A memory type's generation, `HBM3`'s 3, is no model number.)
    let adds_number = |keys: &DeviceKeys| {
        keys.names.iter().filter(|n| !n.tokens.is_empty()).all(|n| {
            n.tokens.iter().enumerate().any(|(i, t)| {
                let memory_generation = i
                    .checked_sub(1)
                    .is_some_and(|p| matches!(n.tokens[p].as_str(), "hbm" | "gddr" | "lpddr" | "ddr"));
                !wanted.tokens.contains(t) && t.chars().all(|c| c.is_ascii_digit()) && !memory_generation
            })
        })
    };
    match scored.as_slice() {
        [] => (Resolution::Unknown, Rule::Undecided),
        [(_, only, keys)] if !repeats && !adds_number(keys) => (Resolution::Unique(only), Rule::OnlyMatch),
        [(0, d, _), (second, _, _), ..] if *second > 0 && !repeats => (Resolution::Unique(d), Rule::Closest),
        // One match closer than every other, which every other extends (`W7900` → `Radeon PRO W7900`,
        // not `Radeon PRO W7900 Dual Slot`): the others are its variants.
        [(best, d, keys), (second, _, _), ..]
            if second > best
                && !repeats
                && !adds_number(keys)
                && scored[1..].iter().all(|(_, _, k)| extends(k, keys)) =>
        {
            (Resolution::Unique(d), Rule::VariantBase)
        }
        _ if !repeats && memory_variants(&scored).is_some() => (
            Resolution::MemoryVariants(memory_variants(&scored).unwrap_or_default()),
            Rule::MemoryVariants,
        ),
        _ => {
            let best = scored[0].0;
            let tied = scored
                .iter()
                .filter(|(s, _, _)| *s == best)
                .take(12)
                .map(|(_, d, _)| *d)
                .collect();
            (Resolution::Ambiguous(tied), Rule::Undecided)
        }
    }
}

/// Among equally good matches that are variants of one product (`RTX 3080 Ti` and `RTX 3080 Ti 20 GB`,
/// `RTX 3070 Ti` and `RTX 3070 Ti 8 GB GA102`), the plain listing — no chip code, and no memory in
/// its name unless the wanted name states one — when it was released before all the others: the
/// product as launched, where later variants name what differs.
fn standard_listing<'a>(scored: &[(usize, &'a Device, &DeviceKeys)], wanted: &NameFacts) -> Option<&'a Device> {
    let best = scored.first()?.0;
    let tied = scored.iter().take_while(|(s, _, _)| *s == best);
    if best != 0 || tied.clone().count() < 2 {
        return None;
    }
    let name = |keys: &DeviceKeys| keys.names.get(1).cloned();
    let plain = |keys: &DeviceKeys| {
        name(keys).is_some_and(|n| {
            (wanted.memory_gb.is_some() || n.memory_gb.is_none()) && !(0..n.tokens.len()).any(|i| variant_token(&n, i))
        })
    };
    let mut plains = tied.clone().filter(|(_, _, k)| plain(k));
    let only = plains.next()?;
    let base = |keys: &DeviceKeys| {
        name(keys).map(|n| {
            (0..n.tokens.len())
                .filter(|&i| !variant_token(&n, i))
                .map(|i| n.tokens[i].clone())
                .collect::<Vec<_>>()
        })
    };
    let same_product = tied.clone().all(|(_, _, k)| base(k) == base(only.2));
    let earlier = tied
        .clone()
        .filter(|(_, d, _)| d.id != only.1.id)
        .all(|(_, d, _)| released_before(only.1.released.as_deref(), d.released.as_deref()));
    (plains.next().is_none() && same_product && earlier).then_some(only.1)
}

/// Whether one of `variant`'s names holds every token of `base`'s full name.
fn extends(variant: &DeviceKeys, base: &DeviceKeys) -> bool {
    let Some(base_name) = base.names.get(1) else {
        return false;
    };
    variant
        .names
        .iter()
        .any(|n| base_name.tokens.iter().all(|t| n.tokens.contains(t)))
}

/// Among equally good matches that compute and read memory at the same rates and differ only in how
/// much memory they carry (`Intel Arc A770` 8 GB and 16 GB), the one with the least: the prediction is
/// the same, and whether a model fits is answered for the smallest, so no fit is promised that one of
/// them cannot keep.
fn memory_variants<'a>(scored: &[(usize, &'a Device, &DeviceKeys)]) -> Option<Vec<&'a Device>> {
    let best = scored.first()?.0;
    let tied: Vec<&Device> = scored
        .iter()
        .take_while(|(s, _, _)| *s == best)
        .map(|(_, d, _)| *d)
        .collect();
    let first = tied.first()?;
    let same = |a: f64, b: f64| (a - b).abs() <= 0.01 * a.abs().max(b.abs());
    let same_rates = tied.iter().all(|d| {
        d.vendor == first.vendor
            && d.hardware_type == first.hardware_type
            && same(d.dense_tflops.fp32, first.dense_tflops.fp32)
            && same(
                d.dense_tflops.fp16.unwrap_or(0.0),
                first.dense_tflops.fp16.unwrap_or(0.0),
            )
            && same(d.memory_bandwidth_gbs, first.memory_bandwidth_gbs)
    });
    let differ_in_memory = tied.iter().any(|d| !same(d.memory_gb, first.memory_gb));
    (tied.len() >= 2 && same_rates && differ_in_memory).then(|| {
        let mut variants = tied;
        variants.sort_by(|a, b| a.memory_gb.total_cmp(&b.memory_gb));
        variants
    })
}

/// Whether release date `a` is known to precede `b` (`2021-05-31` < `2022-01-01`; a year alone
/// compares by year).
fn released_before(a: Option<&str>, b: Option<&str>) -> bool {
    let (Some(a), Some(b)) = (a, b) else { return false };
    if a.len() == 10 && b.len() == 10 {
        a < b
    } else {
        a.get(..4) < b.get(..4)
    }
}

/// An unknown name, with the three closest device names (by their normalized names, in the name
/// tables).
fn unknown(devices: Lookup<'_>, name: &str) -> CoreError {
    let key = normalize_key(name);
    let mut best = alloc::vec![usize::MAX; devices.len()];
    for (k, device) in devices.entries() {
        let distance = if !key.is_empty() && (k.contains(&key) || key.contains(k)) {
            0
        } else {
            edit_distance(&key, k)
        };
        if let Some(b) = best.get_mut(device) {
            *b = (*b).min(distance);
        }
    }
    let mut closest: Vec<(usize, usize)> = best.into_iter().enumerate().map(|(i, d)| (d, i)).collect();
    closest.sort_unstable();
    let suggestions: Vec<&str> = closest
        .iter()
        .filter_map(|&(_, i)| devices.get(i))
        .take(3)
        .map(|d| d.name.as_str())
        .collect();
    CoreError::UnknownDevice {
        name: String::from(name),
        suggestions: suggestions.join(", "),
    }
}

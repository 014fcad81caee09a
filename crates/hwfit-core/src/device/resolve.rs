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

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use once_cell::race::OnceBox;

use super::Device;
use crate::text::{edit_distance, normalize_key};
use crate::CoreError;

/// Words that say nothing about which device is meant.
const NOISE: &[&str] = &[
    "nvidia",
    "geforce",
    "tesla",
    "amd",
    "ati",
    "radeon",
    "instinct",
    "apple",
    "intel",
    "graphics",
    "gpu",
    "card",
    "the",
    "with",
    "w",
    "r",
    "tm",
    "cpu",
    "corporation",
    "inc",
    "series",
    "processor",
    "chip",
    "soc",
    "qualcomm",
    "technologies",
    "opengl",
    "engine",
    "developer",
    "kit",
    "mac",
    "imac",
    "macbook",
    "studio",
    "mini",
    "unified",
    "memory",
    "ram",
    "vram",
    "asus",
    "tuf",
    "rog",
    "strix",
    "gaming",
    "oc",
    "msi",
    "gigabyte",
    "aorus",
    "evga",
    "zotac",
    "palit",
    "pny",
    "sapphire",
    "xfx",
    "inno3d",
    "galax",
    "colorful",
    "founders",
    "asrock",
    "powercolor",
    "superchip",
];

/// Words that name a vendor, and the vendor they name: a device of another vendor never matches.
const VENDOR_WORDS: &[(&str, &str)] = &[
    ("nvidia", "nvidia"),
    ("geforce", "nvidia"),
    ("quadro", "nvidia"),
    ("tesla", "nvidia"),
    ("jetson", "nvidia"),
    ("amd", "amd"),
    ("radeon", "amd"),
    ("instinct", "amd"),
    ("ryzen", "amd"),
    ("epyc", "amd"),
    ("intel", "intel"),
    ("xeon", "intel"),
    ("iris", "intel"),
    ("apple", "apple"),
    ("snapdragon", "qualcomm"),
    ("adreno", "qualcomm"),
];

/// Series prefixes a device's name may add without naming another device (`3080 Ti` = `RTX 3080 Ti`).
/// `GHz Edition` (AMD's faster launch listing) too.
const FREE: &[&str] = &[
    "rtx",
    "gtx",
    "gts",
    "gt",
    "rx",
    "hd",
    "ghz",
    "generation",
    "edition",
    "design",
];

/// NVIDIA chip-code prefixes (`GM206`, `GA104`, `AD102` …): TechPowerUp names variants by chip.
const CHIP_PREFIXES: &[&str] = &["gk", "gm", "gp", "gv", "tu", "ga", "ad", "gh", "gb", "gf"];

/// What a name says: its identifying tokens and the constraints it states.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct NameFacts {
    pub tokens: Vec<String>,
    pub memory_gb: Option<f64>,
    pub gpu_cores: Option<u32>,
    /// The vendor a vendor word in the name names.
    pub vendor: Option<&'static str>,
    /// Consecutive tokens that were one word (`b100` → (`b`, `100`)): a device name must hold them
    /// side by side, so `B100` does not match `A100B`.
    pub fused: Vec<(String, String)>,
}

/// The part of a name that names the device: the bracketed marketing name of `lspci`/rocm-smi forms
/// (`Arcturus GL-XL [AMD Instinct MI100]`), without a multiplier (`4090 24GB * 8`).
fn device_part(name: &str) -> &str {
    let name = name.split(['*', '×']).next().unwrap_or(name);
    // WebGL's ANGLE strings: `ANGLE (Vendor, Renderer (0x…) Direct3D11 …, D3D11)` or the older
    // `ANGLE (Renderer Direct3D11 vs_5_0 ps_5_0)`: the renderer part names the device.
    if let Some(inner) = name.strip_prefix("ANGLE (") {
        let renderer = match inner.split(", ").collect::<Vec<_>>().as_slice() {
            [_, renderer, ..] => *renderer,
            _ => inner,
        };
        let end = [" Direct3D", " (0x", " OpenGL", " Vulkan", " vs_", ")"]
            .iter()
            .filter_map(|m| renderer.find(m))
            .min()
            .unwrap_or(renderer.len());
        return &renderer[..end];
    }
    let name = match (name.find('['), name.rfind(']')) {
        (Some(open), Some(close)) if close > open && name[open + 1..close].chars().any(|c| c.is_ascii_alphabetic()) => {
            &name[open + 1..close]
        }
        _ => name,
    };
    without_driver_suffix(name)
}

/// Words that open the driver's part of a Mesa, Intel or llama.cpp device string: `(RADV NAVI10)`,
/// `(radeonsi, navi31, LLVM 19.1.6, DRM 3.54 …)`, `(panvk)`, `(LLVM 15.0.7, 256 bits)`.
const DRIVER_WORDS: &[&str] = &["radv", "radeonsi", "llvm", "drm", "panvk", "anv", "mesa", "nvk", "zink"];

/// Intel and AMD chip codenames drivers append in parentheses (`(DG2)`, `(TGL GT2)`, `(BMG G21)`):
/// they name the chip, not the product, so they are dropped; a name that is nothing else is read by
/// [`codename_products`].
const CODENAME_PREFIXES: &[&str] = &[
    "dg1", "dg2", "bmg", "tgl", "cfl", "kbl", "skl", "adl", "rpl", "mtl", "lnl", "arl", "icl", "ehl", "jsl", "whl",
    "cml", "polaris", "navi", "vega", "gfx",
];

/// `name` without what drivers append to the product name: a trailing parenthesized driver part or
/// chip codename, and llama.cpp's ROCm `, gfx1201 (0x1201)`.
fn without_driver_suffix(name: &str) -> &str {
    let mut name = name.trim_end();
    if let Some(comma) = name.find(", gfx") {
        name = name[..comma].trim_end();
    }
    while let Some(inner) = name.strip_suffix(')') {
        let Some(open) = inner.rfind('(') else { break };
        let first = inner[open + 1..]
            .split(|c: char| !c.is_ascii_alphanumeric())
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let driver = DRIVER_WORDS.contains(&first.as_str())
            || CODENAME_PREFIXES
                .iter()
                .any(|p| first.starts_with(p) && first[p.len()..].bytes().all(|b| b.is_ascii_digit()));
        if !driver || open == 0 {
            break;
        }
        name = inner[..open].trim_end();
    }
    name
}

/// The products a chip codename or ROCm target alone names (`Intel(R) Graphics (BMG G21)`, `gfx908`):
/// one product resolves, several are an ambiguity listing them.
pub(crate) fn codename_products(name: &str) -> Option<&'static [&'static str]> {
    const CODENAMES: &[(&str, &[&str])] = &[
        ("bmgg21", &["Intel Arc B580", "Intel Arc B570"]),
        ("gfx908", &["AMD Radeon Instinct MI100"]),
        (
            "gfx90a",
            &["AMD Instinct MI250X", "AMD Instinct MI250", "AMD Instinct MI210"],
        ),
        (
            "gfx942",
            &["AMD Instinct MI300X", "AMD Instinct MI300A", "AMD Instinct MI325X"],
        ),
        (
            "gfx906",
            &["AMD Radeon Instinct MI50", "AMD Radeon Instinct MI60", "AMD Radeon VII"],
        ),
        (
            "gfx1100",
            &[
                "AMD Radeon RX 7900 XTX",
                "AMD Radeon RX 7900 XT",
                "AMD Radeon PRO W7900",
            ],
        ),
    ];
    let words = raw_words(name);
    let generic = words.iter().all(|w| {
        matches!(
            w.as_str(),
            "intel" | "r" | "tm" | "graphics" | "amd" | "gpu" | "sramecc" | "xnack"
        )
    });
    let key: String = words
        .iter()
        .filter(|w| {
            !matches!(
                w.as_str(),
                "intel" | "r" | "tm" | "graphics" | "amd" | "gpu" | "sramecc" | "xnack"
            )
        })
        .map(String::as_str)
        .collect();
    if generic || key.is_empty() {
        return None;
    }
    CODENAMES.iter().find(|(k, _)| *k == key).map(|(_, products)| *products)
}

/// `18C GPU` → `18 core GPU`, `10gpu` → `10 gpu`, `10cpu` → `10 cpu` (core counts only: up to 3 digits).
fn unfuse(words: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let unit_follows: Vec<bool> = (0..words.len())
        .map(|i| matches!(words.get(i + 1).map(String::as_str), Some("gpu" | "cpu")))
        .collect();
    for (mut w, unit_follows) in words.into_iter().zip(unit_follows) {
        let digits = w.bytes().take_while(u8::is_ascii_digit).count();
        match &w[digits..] {
            "c" if (1..=3).contains(&digits) && unit_follows => {
                w.truncate(digits);
                out.extend([w, String::from("core")]);
            }
            "gpu" | "cpu" | "cu" if (1..=3).contains(&digits) => {
                let unit = w.split_off(digits);
                out.extend([w, unit]);
            }
            _ => out.push(w),
        }
    }
    out
}

/// Raw words: runs of ASCII letters and digits, a decimal point kept inside a number.
fn raw_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Bytes: only ASCII letters, digits and '.' are kept, and no UTF-8 continuation byte is ASCII.
    let bytes = name.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let decimal = b == b'.'
            && word.as_bytes().last().is_some_and(u8::is_ascii_digit)
            && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if b.is_ascii_alphanumeric() || decimal {
            word.push(char::from(b.to_ascii_lowercase()));
        } else if !word.is_empty() {
            // A bare count in parentheses (neofetch's `Intel i5-8600T (6) @ 3.700GHz`: six cores)
            // names nothing.
            let counted = b == b')'
                && word.bytes().all(|c| c.is_ascii_digit())
                && i.checked_sub(word.len() + 1).and_then(|o| bytes.get(o)) == Some(&b'(');
            let taken = core::mem::take(&mut word);
            if !counted {
                words.push(taken);
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn number(word: &str) -> Option<f64> {
    (word.chars().next()?.is_ascii_digit()).then(|| word.parse::<f64>().ok())?
}

fn memory_word(word: &str) -> Option<f64> {
    let digits = word
        .strip_suffix("gib")
        .or_else(|| word.strip_suffix("gb"))
        .or_else(|| word.strip_suffix('g'))?;
    number(digits)
}

/// Splits at letter/digit boundaries: `rtx3080ti` → `rtx`, `3080`, `ti`.
fn split_alnum(word: &str, out: &mut Vec<String>) {
    let numeric = |c: u8| c.is_ascii_digit() || c == b'.';
    let bytes = word.as_bytes();
    let mut start = 0;
    for i in 1..bytes.len() {
        if numeric(bytes[i - 1]) != numeric(bytes[i]) {
            out.push(String::from(&word[start..i]));
            start = i;
        }
    }
    if start < word.len() {
        out.push(String::from(&word[start..]));
    }
}

/// Reads a name.
pub(crate) fn read(name: &str) -> NameFacts {
    let words = unfuse(raw_words(device_part(name)));
    let mut facts = NameFacts {
        tokens: Vec::new(),
        memory_gb: None,
        gpu_cores: None,
        vendor: None,
        fused: Vec::new(),
    };
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let previous = i.checked_sub(1).and_then(|p| words.get(p)).map(String::as_str);
        let next = words.get(i + 1).map(String::as_str);
        let after = words.get(i + 2).map(String::as_str);
        if let Some(gb) = memory_word(w) {
            facts.memory_gb = Some(gb);
            i += 1;
            continue;
        }
        if let Some(n) = number(w) {
            let skip = match (next, after) {
                (Some("gb" | "gib" | "g"), _) => {
                    facts.memory_gb = Some(n);
                    2
                }
                (Some("core" | "cores"), Some("gpu")) | (Some("gpu"), Some("core" | "cores")) => {
                    facts.gpu_cores = Some(n as u32);
                    3
                }
                (Some("core" | "cores"), Some("cpu")) | (Some("cpu"), Some("core" | "cores")) => 3,
                (Some("gpu"), _) if previous == Some("cpu") => {
                    facts.gpu_cores = Some(n as u32);
                    2
                }
                (Some("cpu"), _) if w.len() <= 3 => 2,
                // A bare core count: GPU cores where the device is sold by them (Apple); compute units
                // as benchmark tables write Apple's GPU cores (`M2 (10CU)`).
                (Some("core" | "cores" | "cu"), _) => {
                    facts.gpu_cores = facts.gpu_cores.or(Some(n as u32));
                    2
                }
                (Some("ghz" | "mhz"), _) if w.contains('.') || n < 10.0 => 2,
                (Some("bits" | "mib" | "mb"), _) => 2,
                // A year in a name (`M1 (2020)`) is not a model number.
                _ if w.len() == 4 && (2010.0..=2030.0).contains(&n) && previous.is_none_or(|p| !p.is_empty()) => 1,
                _ => 0,
            };
            if skip > 0 {
                i += skip;
                continue;
            }
        }
        // PCI ids (`0x9a49`) and ROCm targets (`gfx1030`) printed beside a product name.
        if w.starts_with("0x") || (w.starts_with("gfx") && w.len() > 3 && w.as_bytes()[3].is_ascii_digit()) {
            i += 1;
            continue;
        }
        // Sockets before a CPU's name (`Dual AMD EPYC 9654 96-Core Processor`).
        if w == "dual" && next.is_some_and(|n| VENDOR_WORDS.iter().any(|(word, _)| *word == n)) {
            i += 1;
            continue;
        }
        // A CPU generation as brand strings print it (`12th Gen Intel(R) Core(TM) i7-12700`).
        if next == Some("gen")
            && w.len() > 2
            && ["st", "nd", "rd", "th"].iter().any(|x| w.ends_with(x))
            && number(&w[..w.len() - 2]).is_some()
        {
            i += 2;
            continue;
        }
        if w == "macbook" && next == Some("pro") {
            i += 2;
            continue;
        }
        if let Some((_, vendor)) = VENDOR_WORDS.iter().find(|(word, _)| *word == w) {
            facts.vendor = facts.vendor.or(Some(vendor));
        }
        let mut parts = Vec::new();
        split_alnum(w, &mut parts);
        if let [n, unit] = parts.as_slice() {
            if number(n).is_some() && (unit == "ghz" || unit == "mhz") {
                i += 1;
                continue;
            }
        }
        let fused = parts.len() > 1;
        let first_new = facts.tokens.len();
        for p in parts {
            let p = match p.as_str() {
                "laptop" | "notebook" => String::from("mobile"),
                _ => p,
            };
            // A letter fused to a model number is part of it (`W7900`, `R9700`), not the `w/` or
            // `(R)` the noise words stand for.
            if !NOISE.contains(&p.as_str()) || (fused && p.len() == 1) {
                facts.tokens.push(p);
            }
        }
        if fused {
            for pair in facts.tokens[first_new..].windows(2) {
                facts.fused.push((pair[0].clone(), pair[1].clone()));
            }
        }
        i += 1;
    }
    facts
}

/// A device's names, read once.
#[derive(Debug, Clone)]
pub(crate) struct DeviceKeys {
    names: Vec<NameFacts>,
    gpu_cores: Option<u32>,
}

/// The resolution index of a device list. The exact-name table (a sorted list of every normalized
/// name) is built at once, as most names people type are exact; the word tables — each device's
/// names read into tokens, and the devices holding each token, so a name is resolved by binary search
/// among the few devices that hold its tokens rather than by reading all ~2,000 — are built the first
/// time a name is not exact (a CLI call that names an exact device never reads them).
#[derive(Default)]
pub(crate) struct Index {
    /// (normalized name, device position), sorted by name then position.
    exact: Vec<(String, u32)>,
    words: OnceBox<WordIndex>,
}

impl Clone for Index {
    fn clone(&self) -> Self {
        let words = OnceBox::new();
        if let Some(built) = self.words.get() {
            let _ = words.set(Box::new(built.clone()));
        }
        Self {
            exact: self.exact.clone(),
            words,
        }
    }
}

impl core::fmt::Debug for Index {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Index")
            .field("exact", &self.exact.len())
            .field("words_built", &self.words.get().is_some())
            .finish()
    }
}

/// The word tables of an [`Index`].
#[derive(Debug, Clone, Default)]
pub(crate) struct WordIndex {
    keys: Vec<DeviceKeys>,
    /// Every token of every name, sorted and deduplicated.
    tokens: Vec<String>,
    /// Where each token's devices start in `devices` (one more entry than `tokens`).
    starts: Vec<u32>,
    /// The devices (positions, ascending) that hold each token, token after token.
    devices: Vec<u32>,
}

fn names(device: &Device) -> impl Iterator<Item = &str> {
    core::iter::once(device.id.as_str())
        .chain(core::iter::once(device.name.as_str()))
        .chain(device.aliases.iter().map(String::as_str))
        .chain(without_gpu_name(&device.name))
}

/// A SoC's name without the GPU it names in parentheses (`Snapdragon X Elite X1E-78-100 (Adreno
/// X1-85)` → `Snapdragon X Elite X1E-78-100`): people name the chip alone. Other parentheses (chip
/// codes, `(variant 2)`, `(32-core GPU)`) tell variants apart and stay.
fn without_gpu_name(name: &str) -> Option<&str> {
    const GPU_BRANDS: &[&str] = &["Adreno", "Radeon", "Mali", "Immortalis", "Arc", "Iris"];
    let open = name.find(" (")?;
    let inner = name[open + 2..].strip_suffix(')')?;
    GPU_BRANDS.iter().any(|b| inner.starts_with(b)).then(|| &name[..open])
}

fn position(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

impl Index {
    /// The exact-name table of `devices`; the word tables wait for [`Self::words`].
    pub(crate) fn build(devices: &[Device]) -> Self {
        let mut exact: Vec<(String, u32)> = devices
            .iter()
            .enumerate()
            .flat_map(|(i, d)| names(d).map(move |n| (normalize_key(n), position(i))))
            .collect();
        exact.sort_unstable();
        Self {
            exact,
            words: OnceBox::new(),
        }
    }

    /// The first device (in list order) one of whose names normalizes to `key`.
    fn exact(&self, key: &str) -> Option<usize> {
        let at = self.exact.partition_point(|(name, _)| name.as_str() < key);
        let (name, device) = self.exact.get(at)?;
        (name == key).then_some(*device as usize)
    }

    /// Whether one of the names normalizes to `key`.
    pub(crate) fn has_exact(&self, key: &str) -> bool {
        self.exact(key).is_some()
    }

    /// The word tables of `devices` (the list this index was built from), read on first use.
    pub(crate) fn words(&self, devices: &[Device]) -> &WordIndex {
        self.words.get_or_init(|| Box::new(WordIndex::build(devices)))
    }
}

impl WordIndex {
    /// Reads every device's names.
    fn build(devices: &[Device]) -> Self {
        let keys: Vec<DeviceKeys> = devices
            .iter()
            .map(|d| {
                // The name read once when the id is its slug (`amd-epyc-9274f`), as in every
                // database row: the same words, read twice, took a third of the build.
                let id_is_slug = normalize_key(&d.id) == normalize_key(&d.name);
                let read_names: Vec<NameFacts> = names(d)
                    .enumerate()
                    .map(|(i, n)| {
                        if i == 0 && id_is_slug {
                            NameFacts::default()
                        } else {
                            read(n)
                        }
                    })
                    .collect();
                let gpu_cores = d.gpu_cores.or_else(|| read_names.get(1).and_then(|n| n.gpu_cores));
                DeviceKeys {
                    names: read_names,
                    gpu_cores,
                }
            })
            .collect();
        let mut postings: Vec<(&str, u32)> = keys
            .iter()
            .enumerate()
            .flat_map(|(i, k)| {
                k.names
                    .iter()
                    .flat_map(|n| n.tokens.iter())
                    .map(move |t| (t.as_str(), position(i)))
            })
            .collect();
        postings.sort_unstable();
        postings.dedup();
        let (mut tokens, mut starts) = (Vec::new(), Vec::new());
        for (at, (token, _)) in postings.iter().enumerate() {
            if tokens.last().is_none_or(|last: &String| last != token) {
                tokens.push(String::from(*token));
                starts.push(position(at));
            }
        }
        starts.push(position(postings.len()));
        let devices = postings.iter().map(|(_, d)| *d).collect();
        Self {
            keys,
            tokens,
            starts,
            devices,
        }
    }

    /// The devices (positions, ascending) whose names hold `token`.
    fn devices_with(&self, token: &str) -> Vec<usize> {
        let Ok(t) = self.tokens.binary_search_by(|probe| probe.as_str().cmp(token)) else {
            return Vec::new();
        };
        self.devices[self.starts[t] as usize..self.starts[t + 1] as usize]
            .iter()
            .map(|&d| d as usize)
            .collect()
    }

    /// The devices (positions, ascending) whose names, together, hold every token.
    pub(crate) fn devices_with_all(&self, tokens: &[String]) -> Vec<usize> {
        let Some((first, rest)) = tokens.split_first() else {
            return Vec::new();
        };
        let mut found = self.devices_with(first);
        for t in rest {
            let with = self.devices_with(t);
            found.retain(|i| with.binary_search(i).is_ok());
        }
        found
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
pub(crate) fn resolve<'a>(devices: &'a [Device], index: &Index, name: &str) -> Result<&'a Device, CoreError> {
    match resolution(devices, index, name) {
        Resolution::Unique(d) => Ok(d),
        Resolution::MemoryVariants(variants) => variants.first().copied().ok_or_else(|| unknown(devices, index, name)),
        Resolution::Ambiguous(tied) => Err(CoreError::AmbiguousDevice {
            name: String::from(name),
            candidates: tied.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", "),
        }),
        Resolution::Unknown => Err(unknown(devices, index, name)),
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
pub(crate) fn resolution<'a>(devices: &'a [Device], index: &Index, name: &str) -> Resolution<'a> {
    resolution_by_rule(devices, index, name).0
}

/// [`resolution`], with the rule that decided.
pub(crate) fn resolution_by_rule<'a>(devices: &'a [Device], index: &Index, name: &str) -> (Resolution<'a>, Rule) {
    let key = normalize_key(name);
    if key.is_empty() {
        return (Resolution::Unknown, Rule::Undecided);
    }
    if let Some(d) = index.exact(&key).and_then(|i| devices.get(i)) {
        return (Resolution::Unique(d), Rule::Exact);
    }
    if let Some(products) = codename_products(name) {
        let found: Vec<&Device> = products
            .iter()
            .filter_map(|p| index.exact(&normalize_key(p)).and_then(|i| devices.get(i)))
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
    let words = index.words(devices);
    let mut scored: Vec<(usize, &Device, &DeviceKeys)> = words
        .devices_with_all(&wanted.tokens)
        .into_iter()
        .filter_map(|i| Some((devices.get(i)?, words.keys.get(i)?)))
        .filter_map(|(d, k)| score(d, k, &wanted).map(|s| (s, d, k)))
        .collect();
    scored.sort_by_key(|(s, _, _)| *s);
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

/// An unknown name, with the three closest device names (by their normalized names, read once in
/// the index).
fn unknown(devices: &[Device], index: &Index, name: &str) -> CoreError {
    let key = normalize_key(name);
    let mut best = alloc::vec![usize::MAX; devices.len()];
    for (k, device) in &index.exact {
        let distance = if !key.is_empty() && (k.contains(&key) || key.contains(k.as_str())) {
            0
        } else {
            edit_distance(&key, k)
        };
        if let Some(b) = best.get_mut(*device as usize) {
            *b = (*b).min(distance);
        }
    }
    let mut scored: Vec<(usize, &str)> = devices
        .iter()
        .zip(best)
        .map(|(d, best)| (best, d.name.as_str()))
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    let suggestions: Vec<&str> = scored.iter().take(3).map(|(_, n)| *n).collect();
    CoreError::UnknownDevice {
        name: String::from(name),
        suggestions: suggestions.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_tokens_and_constraints() {
        let f = read("NVIDIA A100-SXM4-40GB");
        assert_eq!(f.tokens, ["a", "100", "sxm", "4"]);
        assert_eq!(f.memory_gb, Some(40.0));
        let f = read("rtx3080ti");
        assert_eq!(f.tokens, ["rtx", "3080", "ti"]);
        let f = read("Apple M3 Pro 18-core GPU");
        assert_eq!(f.tokens, ["m", "3", "pro"]);
        assert_eq!(f.gpu_cores, Some(18));
        let f = read("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
        assert_eq!(f.tokens, ["xeon", "e", "5", "2680", "v", "4"]);
        let f = read("NVIDIA GeForce RTX 4090 Laptop GPU");
        assert_eq!(f.tokens, ["rtx", "4090", "mobile"]);
        assert_eq!(
            read("Tesla T4G").memory_gb,
            None,
            "a letter after a number is not a memory size"
        );
        assert_eq!(read("V100 GPU(32G)").memory_gb, Some(32.0));
    }
}

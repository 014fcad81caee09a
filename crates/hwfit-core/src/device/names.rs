//! How a device name is read: identifying tokens (split at separators and letter/digit boundaries,
//! vendor, brand and board-partner words dropped, `laptop` read as `mobile`, driver suffixes and
//! bracketed marketing names unwrapped) and the constraints it states (memory, GPU cores, vendor).
//!
//! Pure text, `alloc` only: the build script includes this file to index the bundled device database
//! at compile time, so the tokens it stores are the ones resolution reads.

use alloc::string::String;
use alloc::vec::Vec;

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
pub(crate) const FREE: &[&str] = &[
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
pub(crate) const CHIP_PREFIXES: &[&str] = &["gk", "gm", "gp", "gv", "tu", "ga", "ad", "gh", "gb", "gf"];

/// What a name says: its identifying tokens and the constraints it states.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct NameFacts {
    pub tokens: Vec<String>,
    pub memory_gb: Option<f64>,
    pub gpu_cores: Option<u32>,
    /// A CPU core count the name states (`12-core CPU`, `16-Core Processor`).
    pub cpu_cores: Option<u32>,
    /// The name asks for a CPU: it says `CPU` (not only in a core count) and names no GPU, so the
    /// CPU of a SoC (`Apple M2 Max CPU`) is not its GPU.
    pub names_cpu: bool,
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
        cpu_cores: None,
        names_cpu: false,
        vendor: None,
        fused: Vec::new(),
    };
    // `CPU` as a noun (`Apple M2 Max CPU`), not in a core count (`10-core CPU` describes a chip).
    let (mut cpu_word, mut graphics_word) = (false, false);
    let mut bare_cores = None;
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
                (Some("core" | "cores"), Some("cpu")) | (Some("cpu"), Some("core" | "cores")) => {
                    facts.cpu_cores = Some(n as u32);
                    3
                }
                (Some("core" | "cores"), Some("processor")) => {
                    facts.cpu_cores = Some(n as u32);
                    2
                }
                (Some("gpu"), _) if previous == Some("cpu") => {
                    facts.gpu_cores = Some(n as u32);
                    2
                }
                // `10 CPU` (a count), not a model number's last part (`X1P-42-100 CPU`).
                (Some("cpu"), _) if w.len() <= 2 => {
                    facts.cpu_cores = Some(n as u32);
                    2
                }
                // A bare core count: GPU cores where the device is sold by them (Apple); compute units
                // as benchmark tables write Apple's GPU cores (`M2 (10CU)`).
                // (A CPU's, where the name says CPU: `Apple M4 CPU (10-core)`.)
                (Some("core" | "cores" | "cu"), _) => {
                    bare_cores = bare_cores.or(Some(n as u32));
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
        cpu_word |= w == "cpu";
        graphics_word |= w == "gpu" || w == "graphics";
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
    facts.names_cpu = cpu_word && !graphics_word && facts.gpu_cores.is_none();
    if facts.names_cpu {
        facts.cpu_cores = facts.cpu_cores.or(bare_cores);
    } else {
        facts.gpu_cores = facts.gpu_cores.or(bare_cores);
    }
    facts
}

/// A device's names: its id, its name, its aliases and, for a SoC named with its GPU in parentheses,
/// the name without it.
pub(crate) fn device_names<'a>(
    id: &'a str,
    name: &'a str,
    aliases: impl Iterator<Item = &'a str>,
) -> impl Iterator<Item = &'a str> {
    core::iter::once(id)
        .chain(core::iter::once(name))
        .chain(aliases)
        .chain(without_gpu_name(name))
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

//! The weight format a checkpoint is published in: read from its `config.json`
//! (`quantization_config`, or MLX's `quantization`) or from the format its name states
//! (`Qwen3-8B-FP8`, `…-AWQ`, `…-Q4_K_M`, `mlx-community/…-4bit`). A question that states no
//! precision is answered at it (see [`crate::api::defaults::precision`]).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::Precision;

/// The weight format a checkpoint is published in, and what states it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckpointFormat {
    /// The precision hwfit computes the checkpoint at; absent when its format is not one hwfit
    /// models (EXL2, HQQ, AQLM …): a question about it must state a precision to be answered at
    /// the checkpoint's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<Precision>,
    /// What states the format, in words (`quantization_config: quant_method 'fp8'`).
    pub stated_by: String,
}

/// The `quantization_config` of a pre-quantized checkpoint (AWQ, GPTQ, FP8, MXFP4, bitsandbytes,
/// compressed-tensors, ModelOpt …), or MLX's `quantization` (`bits`, `group_size`, `mode`).
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct QuantizationConfig {
    pub quant_method: Option<String>,
    /// Bits per weight: an integer for AWQ, GPTQ and MLX, a fraction for EXL2 (`4.65`).
    pub bits: Option<f64>,
    pub group_size: Option<i64>,
    pub load_in_4bit: Option<bool>,
    pub load_in_8bit: Option<bool>,
    pub bnb_4bit_quant_type: Option<String>,
    pub fmt: Option<String>,
    /// compressed-tensors' storage format (`float-quantized`, `pack-quantized`, `nvfp4-pack-quantized` …).
    pub format: Option<String>,
    /// compressed-tensors' and ModelOpt's quantization schemes, by group name.
    pub config_groups: Option<crate::map::SortedMap<String, SchemeGroup>>,
    /// ModelOpt's algorithm (`FP8`, `NVFP4`, `W4A16_AWQ` …).
    pub quant_algo: Option<String>,
    /// FP-Quant's forward format (`mxfp4`, `nvfp4`).
    pub forward_dtype: Option<String>,
    /// Quanto's weight type (`int8`, `int4`, `float8`).
    pub weights: Option<String>,
    /// MLX's quantization mode (`affine`, the default, or `mxfp4`).
    pub mode: Option<String>,
    /// The routed experts' own format beside an FP8 checkpoint's (DeepSeek-V4: `fp4`; its
    /// config states it beside `quantization_config`, which transformers folds in).
    pub expert_dtype: Option<String>,
}

/// One scheme of a compressed-tensors or ModelOpt `config_groups`.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct SchemeGroup {
    pub weights: Option<WeightScheme>,
}

/// How a scheme stores weights.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct WeightScheme {
    pub num_bits: Option<u32>,
    /// `int` or `float`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub group_size: Option<i64>,
    /// `tensor`, `channel`, `group`, `block`, `tensor_group`.
    pub strategy: Option<String>,
}

/// Integer weights at `bits` in groups of `group` (`None` or ≤ 0: one scale per output channel).
fn grouped_integer(bits: u32, group: Option<i64>) -> Option<Precision> {
    match (bits, group.filter(|&g| g > 0)) {
        (8, _) => Some(Precision::Int8),
        (4, Some(_)) => Some(Precision::Awq),
        (4, None) => Some(Precision::Int4),
        _ => None,
    }
}

/// The words for a group size: "groups of 128" or "one scale per channel".
fn groups(group: Option<i64>) -> String {
    match group.filter(|&g| g > 0) {
        Some(g) => format!("groups of {g}"),
        None => String::from("one scale per channel"),
    }
}

impl WeightScheme {
    /// The precision of weights stored this way.
    fn precision(&self) -> Option<Precision> {
        let float = self.kind.as_deref().is_some_and(|k| k.eq_ignore_ascii_case("float"));
        match (self.num_bits?, float) {
            (8, true) => Some(Precision::Fp8),
            (4, true) => match self.group_size {
                Some(16) => Some(Precision::Nvfp4),
                Some(32) => Some(Precision::Mxfp4),
                _ => None,
            },
            (bits, false) => grouped_integer(bits, self.group_size),
            _ => None,
        }
    }

    fn describe(&self) -> String {
        format!(
            "{}-bit {} weights in {}",
            self.num_bits.unwrap_or(0),
            self.kind.as_deref().unwrap_or("int"),
            groups(self.group_size)
        )
    }
}

impl QuantizationConfig {
    /// The checkpoint format this config states; `field` is where it was read
    /// (`quantization_config` or `quantization`).
    #[must_use]
    pub fn format(&self, field: &str) -> CheckpointFormat {
        let (precision, what) = self.read();
        CheckpointFormat {
            precision,
            stated_by: format!("{field}: {what}"),
        }
    }

    /// The precision and the words saying what the config states.
    fn read(&self) -> (Option<Precision>, String) {
        let method = self.quant_method.as_deref().map(str::to_ascii_lowercase);
        // A whole number of bits (EXL2's 4.65 is none).
        let bits = self
            .bits
            .filter(|b| (1.0..=16.0).contains(b) && libm::fabs(libm::round(*b) - b) < 1e-9)
            .map(|b| libm::round(b) as u32);
        let named = |m: &str| format!("quant_method '{m}'");
        // Schemes decide over the method's name: NVIDIA's DeepSeek-V4 NVFP4 says `fp8` and keeps
        // its routed experts in the NVFP4 scheme its `config_groups` states.
        if self.config_groups.is_some() || self.quant_algo.is_some() {
            return self.read_schemes(method.as_deref().unwrap_or("none"));
        }
        match method.as_deref() {
            Some(m @ ("fp8" | "fbgemm_fp8")) => {
                let detail = self.fmt.as_deref().map(|f| format!(" ({f})")).unwrap_or_default();
                if self
                    .expert_dtype
                    .as_deref()
                    .is_some_and(|d| d.eq_ignore_ascii_case("fp4"))
                {
                    // DeepSeek-V4: the routed experts (~97 % of the weights) in FP4, the rest in
                    // FP8; MXFP4 is the format hwfit models with only the experts at 4 bits.
                    return (
                        Some(Precision::Mxfp4),
                        format!(
                            "{}{detail} with expert_dtype 'fp4': routed experts in 4-bit floats, read as mxfp4 (hwfit keeps the other weights at 16 bits where the checkpoint has 8)",
                            named(m)
                        ),
                    );
                }
                (Some(Precision::Fp8), format!("{}{detail}", named(m)))
            }
            Some("mxfp4") => (Some(Precision::Mxfp4), named("mxfp4")),
            // Intel's AutoRound exports GPTQ's layout under its own name.
            Some(m @ ("awq" | "gptq" | "intel/auto-round" | "auto-round")) => {
                let what = format!(
                    "{} with {}-bit weights in {}",
                    named(m),
                    bits.unwrap_or(0),
                    groups(self.group_size)
                );
                (bits.and_then(|b| grouped_integer(b, self.group_size)), what)
            }
            Some("bitsandbytes") => {
                if self.load_in_4bit == Some(true) {
                    let kind = self.bnb_4bit_quant_type.as_deref().unwrap_or("fp4");
                    // bitsandbytes stores FP4 and NF4 alike: 4-bit codes in blocks of 64.
                    (
                        Some(Precision::Nf4),
                        format!("{} 4-bit ({kind})", named("bitsandbytes")),
                    )
                } else if self.load_in_8bit == Some(true) {
                    (Some(Precision::Int8), format!("{} 8-bit", named("bitsandbytes")))
                } else {
                    (
                        None,
                        format!("{} without load_in_4bit or load_in_8bit", named("bitsandbytes")),
                    )
                }
            }
            Some("fp_quant") => {
                let dtype = self.forward_dtype.as_deref().unwrap_or("").to_ascii_lowercase();
                let precision = match dtype.as_str() {
                    "mxfp4" => Some(Precision::Mxfp4),
                    "nvfp4" => Some(Precision::Nvfp4),
                    _ => None,
                };
                (precision, format!("{} ({dtype})", named("fp_quant")))
            }
            Some("eetq") => (Some(Precision::Int8), named("eetq")),
            Some("quanto") => {
                let weights = self.weights.as_deref().unwrap_or("").to_ascii_lowercase();
                let precision = match weights.as_str() {
                    "int8" => Some(Precision::Int8),
                    "int4" => Some(Precision::Int4),
                    w if w.starts_with("float8") => Some(Precision::Fp8),
                    _ => None,
                };
                (precision, format!("{} with {weights} weights", named("quanto")))
            }
            Some(m) => {
                let bits = self
                    .bits
                    .map(|b| format!(" at {b} bits per weight"))
                    .unwrap_or_default();
                (None, format!("{}{bits}", named(m)))
            }
            // MLX's `quantization`: affine groups (a 16-bit scale and bias per group) or MXFP4.
            None => self.read_mlx(bits),
        }
    }

    /// compressed-tensors and ModelOpt: the storage format, else the algorithm ModelOpt names, else
    /// the weight scheme every group shares.
    fn read_schemes(&self, method: &str) -> (Option<Precision>, String) {
        let schemes: Vec<&WeightScheme> = self
            .config_groups
            .iter()
            .flat_map(crate::map::SortedMap::values)
            .filter_map(|g| g.weights.as_ref())
            .collect();
        let from_format = match self.format.as_deref() {
            Some("float-quantized") => Some(Precision::Fp8),
            Some("nvfp4-pack-quantized") => Some(Precision::Nvfp4),
            Some("mxfp4-pack-quantized") => Some(Precision::Mxfp4),
            _ => None,
        };
        let from_algo = match self.quant_algo.as_deref().map(str::to_ascii_uppercase).as_deref() {
            Some("FP8") => Some(Precision::Fp8),
            Some("NVFP4") => Some(Precision::Nvfp4),
            Some("MXFP4") => Some(Precision::Mxfp4),
            Some("W4A16_AWQ" | "INT4_AWQ") => Some(Precision::Awq),
            _ => None,
        };
        let shared = match schemes.split_first() {
            Some((first, rest)) if rest.iter().all(|s| s.precision() == first.precision()) => first.precision(),
            _ => None,
        };
        let mut parts = vec![format!("quant_method '{method}'")];
        for (name, value) in [("format", &self.format), ("quant_algo", &self.quant_algo)] {
            if let Some(v) = value {
                parts.push(format!("{name} '{v}'"));
            }
        }
        match schemes.as_slice() {
            [] => {}
            [one] => parts.push(one.describe()),
            many if shared.is_some() => parts.push(format!("{} groups of {}", many.len(), many[0].describe())),
            many => parts.push(format!("{} schemes that differ", many.len())),
        }
        let what = parts.join(", ");
        (from_format.or(from_algo).or(shared), what)
    }

    /// MLX's `quantization`: `bits` in affine groups of `group_size` (64 by default), or MXFP4.
    fn read_mlx(&self, bits: Option<u32>) -> (Option<Precision>, String) {
        let mode = self.mode.as_deref().unwrap_or("affine").to_ascii_lowercase();
        let group = self.group_size.unwrap_or(64);
        let what = format!(
            "MLX {mode}, {} bits in groups of {group}",
            self.bits.map_or_else(|| String::from("?"), |b| b.to_string())
        );
        let precision = match (mode.as_str(), bits, group) {
            ("mxfp4", _, _) => Some(Precision::Mxfp4),
            // hwfit's MLX formats are the default groups of 64 (b + 0.5 bits per weight).
            ("affine", Some(2), 64) => Some(Precision::Mlx2),
            ("affine", Some(3), 64) => Some(Precision::Mlx3),
            ("affine", Some(4), 64) => Some(Precision::Mlx4),
            ("affine", Some(5), 64) => Some(Precision::Mlx5),
            ("affine", Some(6), 64) => Some(Precision::Mlx6),
            ("affine", Some(8), 64) => Some(Precision::Mlx8),
            _ => None,
        };
        (precision, what)
    }
}

/// The format a repackaged upload's name states: a precision name at its end (`-FP8`, `-AWQ`,
/// `-GPTQ-Int4`, `-Q4_K_M`, `-NVFP4`), bitsandbytes' `-bnb-4bit`, or `mlx-community`'s `-4bit`.
/// A bare `-GGUF` names a container, not a format: `None`.
#[must_use]
pub fn from_name(name: &str) -> Option<CheckpointFormat> {
    let (organisation, short) = name.rsplit_once('/').unwrap_or(("", name));
    let segments: Vec<String> = short.split(['-', '_', '.']).map(str::to_ascii_lowercase).collect();
    let stated = |precision: Precision, words: &str| {
        Some(CheckpointFormat {
            precision: Some(precision),
            stated_by: format!("the name '{name}': {words}"),
        })
    };
    let n = segments.len();
    let last = segments.last().map_or("", String::as_str);
    let before = if n >= 2 { segments[n - 2].as_str() } else { "" };
    let mlx = organisation.eq_ignore_ascii_case("mlx-community") || segments.iter().any(|s| s == "mlx");
    match (before, last) {
        ("bnb", "4bit") => return stated(Precision::Nf4, "bitsandbytes 4-bit"),
        ("bnb", "8bit") => return stated(Precision::Int8, "bitsandbytes 8-bit"),
        ("gptq", "int4") => return stated(Precision::Awq, "GPTQ 4-bit"),
        ("gptq", "int8") => return stated(Precision::Int8, "GPTQ 8-bit"),
        (_, bits) if mlx && bits.ends_with("bit") => {
            let precision = match bits {
                "2bit" => Precision::Mlx2,
                "3bit" => Precision::Mlx3,
                "4bit" => Precision::Mlx4,
                "5bit" => Precision::Mlx5,
                "6bit" => Precision::Mlx6,
                "8bit" => Precision::Mlx8,
                _ => return None,
            };
            return stated(precision, "MLX affine quantization");
        }
        _ => {}
    }
    // The longest tail of segments that parses as a precision (`Q4_K_M` spans three), ignoring
    // `-dynamic` (compressed-tensors' FP8 with dynamic activation scales) after it.
    let end = if last == "dynamic" { n - 1 } else { n };
    (1..end).find_map(|i| {
        let tail = segments[i..end].join("_");
        let precision = tail.parse::<Precision>().ok()?;
        // Plain numeric types (an `-fp16` or `-bf16` upload) are no quantization format.
        (!matches!(
            precision,
            Precision::Fp32 | Precision::Fp16 | Precision::Bf16 | Precision::F16
        ))
        .then(|| stated(precision, &format!("'{tail}'")))
        .flatten()
    })
}

/// The format of the release `id` whose config states `from_config`: the config's, where it names
/// one hwfit models; else the one the name states (NVIDIA's `-NVFP4` uploads keep theirs in a
/// separate `hf_quant_config.json`); else the config's unmodelled one.
#[must_use]
pub fn of_release(id: &str, from_config: Option<CheckpointFormat>) -> Option<CheckpointFormat> {
    match from_config {
        Some(f) if f.precision.is_some() => Some(f),
        other => from_name(id).or(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> CheckpointFormat {
        serde_json::from_str::<QuantizationConfig>(json)
            .unwrap()
            .format("quantization_config")
    }

    #[test]
    fn each_method_reads_as_its_format() {
        let cases = [
            (
                r#"{"quant_method":"fp8","fmt":"e4m3","weight_block_size":[128,128]}"#,
                Some(Precision::Fp8),
            ),
            (
                r#"{"quant_method":"mxfp4","modules_to_not_convert":["lm_head"]}"#,
                Some(Precision::Mxfp4),
            ),
            (
                r#"{"quant_method":"awq","bits":4,"group_size":128,"version":"gemm"}"#,
                Some(Precision::Awq),
            ),
            (
                r#"{"quant_method":"gptq","bits":4,"group_size":128,"desc_act":false}"#,
                Some(Precision::Awq),
            ),
            (
                r#"{"quant_method":"gptq","bits":8,"group_size":128}"#,
                Some(Precision::Int8),
            ),
            (
                r#"{"quant_method":"gptq","bits":4,"group_size":-1}"#,
                Some(Precision::Int4),
            ),
            (r#"{"quant_method":"gptq","bits":3,"group_size":128}"#, None),
            (
                r#"{"quant_method":"bitsandbytes","load_in_4bit":true,"bnb_4bit_quant_type":"nf4"}"#,
                Some(Precision::Nf4),
            ),
            (
                r#"{"quant_method":"bitsandbytes","load_in_8bit":true}"#,
                Some(Precision::Int8),
            ),
            (r#"{"quant_method":"exl2","bits":4.65}"#, None),
            (r#"{"quant_method":"hqq"}"#, None),
            (r#"{"bits":4,"group_size":64}"#, Some(Precision::Mlx4)),
            (r#"{"bits":8,"group_size":64}"#, Some(Precision::Mlx8)),
            (r#"{"bits":4,"group_size":32}"#, None),
            (r#"{"bits":4,"group_size":32,"mode":"mxfp4"}"#, Some(Precision::Mxfp4)),
            (
                r#"{"quant_method":"compressed-tensors","format":"float-quantized","config_groups":{"group_0":{"weights":{"num_bits":8,"type":"float","strategy":"channel"}}}}"#,
                Some(Precision::Fp8),
            ),
            (
                r#"{"quant_method":"compressed-tensors","format":"pack-quantized","config_groups":{"group_0":{"weights":{"num_bits":4,"type":"int","group_size":128,"strategy":"group"}}}}"#,
                Some(Precision::Awq),
            ),
            (
                r#"{"quant_method":"compressed-tensors","format":"int-quantized","config_groups":{"group_0":{"weights":{"num_bits":8,"type":"int","strategy":"channel"}}}}"#,
                Some(Precision::Int8),
            ),
            (
                r#"{"quant_method":"modelopt","quant_algo":"NVFP4","config_groups":{"group_0":{"weights":{"num_bits":4,"type":"float","group_size":16}}}}"#,
                Some(Precision::Nvfp4),
            ),
            (
                r#"{"quant_method":"modelopt","quant_algo":"FP8"}"#,
                Some(Precision::Fp8),
            ),
        ];
        for (json, expected) in cases {
            assert_eq!(read(json).precision, expected, "{json}");
        }
    }

    #[test]
    fn what_states_the_format_is_said_in_words() {
        let f = read(r#"{"quant_method":"awq","bits":4,"group_size":128}"#);
        assert_eq!(
            f.stated_by,
            "quantization_config: quant_method 'awq' with 4-bit weights in groups of 128"
        );
        let f = read(r#"{"quant_method":"exl2","bits":4.65}"#);
        assert_eq!(
            f.stated_by,
            "quantization_config: quant_method 'exl2' at 4.65 bits per weight"
        );
    }

    #[test]
    fn names_state_formats_and_containers_do_not() {
        let precision = |name: &str| from_name(name).and_then(|f| f.precision);
        assert_eq!(precision("Qwen/Qwen3-8B-FP8"), Some(Precision::Fp8));
        assert_eq!(precision("Qwen/Qwen3-8B-AWQ"), Some(Precision::Awq));
        assert_eq!(precision("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4"), Some(Precision::Awq));
        assert_eq!(
            precision("RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic"),
            Some(Precision::Fp8)
        );
        assert_eq!(
            precision("unsloth/Llama-3.2-1B-Instruct-bnb-4bit"),
            Some(Precision::Nf4)
        );
        assert_eq!(precision("mlx-community/Qwen3-8B-4bit"), Some(Precision::Mlx4));
        assert_eq!(precision("bartowski/Qwen3-8B-Q4_K_M"), Some(Precision::Q4KM));
        assert_eq!(precision("nvidia/Llama-3.3-70B-Instruct-NVFP4"), Some(Precision::Nvfp4));
        assert_eq!(precision("unsloth/Qwen3-8B-GGUF"), None);
        assert_eq!(precision("unsloth/Qwen3-8B"), None);
        assert_eq!(precision("someone/Qwen3-8B-bf16"), None);
        assert_eq!(precision("someone/Qwen3-8B-4bit"), None, "4-bit in which format?");
    }

    /// Real `config.json` files (`tests/fixtures/quantized_configs/`, sources in its SOURCES.md)
    /// read as the format their checkpoints are stored in.
    #[test]
    fn real_checkpoint_configs_read_as_their_formats() {
        macro_rules! fixture {
            ($file:literal) => {
                (
                    $file,
                    include_str!(concat!("../../../tests/fixtures/quantized_configs/", $file)),
                )
            };
        }
        let cases = [
            (fixture!("LDCC__Qwen2.5-72B-Instruct-ko-AWQ.json"), Some(Precision::Awq)),
            (
                fixture!("TheBloke__airoboros-l2-13B-2.2.1-AWQ.json"),
                Some(Precision::Awq),
            ),
            (
                fixture!("TheBloke__Wizard-Vicuna-30B-Uncensored-GPTQ.json"),
                Some(Precision::Int4),
            ),
            (
                fixture!("TheBloke__Wizard-Vicuna-30B-Uncensored-GPTQ__gptq-4bit-128g-actorder_True.json"),
                Some(Precision::Awq),
            ),
            (
                fixture!("TheBloke__Wizard-Vicuna-30B-Uncensored-GPTQ__gptq-8bit-128g-actorder_False.json"),
                Some(Precision::Int8),
            ),
            (
                fixture!("Intel__Qwen2-0.5B-Instuct-int4-inc.json"),
                Some(Precision::Awq),
            ),
            (
                fixture!("OPEA__Qwen2.5-0.5B-Instruct-int4-sym-inc.json"),
                Some(Precision::Awq),
            ),
            (fixture!("wttw__Llama3-8b-GenDS.json"), Some(Precision::Nf4)),
            (fixture!("reubzdubz__Molmo7B_D_NF4Quant.json"), Some(Precision::Nf4)),
            (fixture!("moonshotai__Kimi-K2.5.json"), Some(Precision::Awq)),
            (fixture!("poolside__Laguna-XS.2-FP8.json"), Some(Precision::Fp8)),
            (fixture!("RedHatAI__DeepSeek-V4-Flash-NVFP4-FP8.json"), None),
            (fixture!("nvidia__Gemma-4-31B-IT-NVFP4.json"), Some(Precision::Nvfp4)),
            (fixture!("nvidia__DeepSeek-V4-Flash-NVFP4.json"), Some(Precision::Nvfp4)),
            (
                fixture!("lmstudio-community__Qwen3-14B-4bit.json"),
                Some(Precision::Mlx4),
            ),
            (
                fixture!("mlx-community__Qwen3.5-9B-MLX-8bit.json"),
                Some(Precision::Mlx8),
            ),
            (fixture!("Qwen__Qwen3-32B-FP8.json"), Some(Precision::Fp8)),
            (fixture!("amd__Llama-3.2-1B-FP8-KV.json"), Some(Precision::Fp8)),
        ];
        for ((file, json), expected) in cases {
            let value = crate::parse_config_text(json).unwrap();
            let config = crate::HfConfig::deserialize_value(&value).unwrap_or_else(|e| panic!("{file}: {e}"));
            let format = config
                .checkpoint_format()
                .unwrap_or_else(|| panic!("{file}: no format read"));
            assert_eq!(format.precision, expected, "{file}: {}", format.stated_by);
        }
    }
}

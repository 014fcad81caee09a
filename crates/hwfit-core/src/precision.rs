//! Numeric precisions and the quantization formats people type, with their real bits per weight.

string_enum! {
    /// The precision model weights are stored and computed at.
    pub enum Precision: "precision" {
        /// IEEE single precision.
        Fp32 => "fp32" | "float32" | "float" | "f32" | "full",
        /// IEEE half precision.
        Fp16 => "fp16" | "float16" | "half",
        /// bfloat16.
        Bf16 => "bf16" | "bfloat16",
        /// 8-bit floating point (E4M3/E5M2), on hardware with FP8 tensor cores.
        Fp8 => "fp8" | "float8" | "e4m3" | "e5m2",
        /// 8-bit integer weights (e.g. bitsandbytes LLM.int8, ONNX/OpenVINO INT8).
        Int8 => "int8" | "i8" | "w8a8" | "w8a16",
        /// 4-bit integer weights (e.g. GPTQ/AWQ/NF4/bnb-4bit), group scales excluded.
        Int4 => "int4" | "i4" | "nf4" | "gptq" | "awq" | "w4a16",
        /// llama.cpp GGUF Q4_0: blocks of 32 4-bit weights with one fp16 scale.
        Q4_0 => "q4_0",
        /// llama.cpp GGUF Q4_K_M: 4-bit k-quant super-blocks, some tensors at Q6_K.
        Q4KM => "q4_k_m",
        /// llama.cpp GGUF Q5_K_M: 5-bit k-quant super-blocks, some tensors at Q6_K.
        Q5KM => "q5_k_m",
        /// llama.cpp GGUF Q8_0: blocks of 32 8-bit weights with one fp16 scale.
        Q8_0 => "q8_0",
        /// llama.cpp GGUF F16 (unquantized half precision in a GGUF file).
        F16 => "f16" | "gguf_f16",
    }
}

impl Precision {
    /// Storage bits per weight, including block scales.
    ///
    /// - Plain types: their width.
    /// - Q4_0: 32 × 4 bits + one 16-bit scale per block = 144 bits / 32 = 4.5.
    /// - Q8_0: 32 × 8 bits + one 16-bit scale = 272 / 32 = 8.5.
    /// - Q4_K_M: measured from GGUF file sizes in `data/measured/llm_tokens_per_second.csv`
    ///   (`model_size_GB`, from XiongjieDai/GPU-Benchmarks-on-LLM-Inference; Llama 3 8B: 4.58 GiB /
    ///   8.03 B = 4.90; Llama 3 70B: 39.59 GiB / 70.55 B = 4.82), mean 4.86.
    /// - Q5_K_M: Q5_K's 5.5 bpw (256-weight super-blocks: 5 bits + 6-bit scales/mins + two fp16)
    ///   with the same share of tensors at Q6_K (6.5625 bpw) that lifts Q4_K (4.5) to Q4_K_M (4.86),
    ///   i.e. 17.5 %: 5.5 × 0.825 + 6.5625 × 0.175 = 5.69.
    #[must_use]
    pub const fn bits_per_weight(self) -> f64 {
        match self {
            Self::Fp32 => 32.0,
            Self::Fp16 | Self::Bf16 | Self::F16 => 16.0,
            Self::Fp8 | Self::Int8 => 8.0,
            Self::Int4 => 4.0,
            Self::Q4_0 => 4.5,
            Self::Q4KM => 4.86,
            Self::Q5KM => 5.69,
            Self::Q8_0 => 8.5,
        }
    }

    /// Bytes for `count` weights at this precision.
    #[must_use]
    pub fn weight_bytes(self, count: u64) -> f64 {
        count as f64 * self.bits_per_weight() / 8.0
    }

    /// Bytes per activation value while computing: fp32 keeps fp32 activations; fp8 and int8
    /// (W8A8) keep 8-bit activations between layers; every other reduced precision (weight-only int4,
    /// GGUF, fp16, bf16) computes with 16-bit activations.
    #[must_use]
    pub const fn activation_bytes(self) -> u64 {
        match self {
            Self::Fp32 => 4,
            Self::Fp8 | Self::Int8 => 1,
            _ => 2,
        }
    }

    /// Whether weights at this precision can be trained directly (master weights and gradients).
    #[must_use]
    pub const fn is_trainable(self) -> bool {
        matches!(self, Self::Fp32 | Self::Fp16 | Self::Bf16)
    }

    /// Whether this is a llama.cpp GGUF format.
    #[must_use]
    pub const fn is_gguf(self) -> bool {
        matches!(self, Self::Q4_0 | Self::Q4KM | Self::Q5KM | Self::Q8_0 | Self::F16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_spellings_parse() {
        assert_eq!("Q4_K_M".parse::<Precision>().unwrap(), Precision::Q4KM);
        assert_eq!("q4-k-m".parse::<Precision>().unwrap(), Precision::Q4KM);
        assert_eq!("float16".parse::<Precision>().unwrap(), Precision::Fp16);
        assert_eq!("BF16".parse::<Precision>().unwrap(), Precision::Bf16);
        assert!("fp12".parse::<Precision>().is_err());
    }

    #[test]
    fn seven_billion_weights_at_q4_0_take_3_94_gb() {
        // 7e9 × 4.5 / 8 = 3.9375e9 bytes
        let bytes = Precision::Q4_0.weight_bytes(7_000_000_000);
        assert!((bytes - 3.9375e9).abs() < 1.0);
    }

    #[test]
    fn q4_k_m_matches_the_shared_data_file_sizes_within_two_percent() {
        // Llama 3 8B (8.03 B params) Q4_K_M GGUF is 4.58 GiB in data/measured/llm_tokens_per_second.csv.
        let gib = Precision::Q4KM.weight_bytes(8_030_000_000) / f64::from(1u32 << 30);
        assert!((gib / 4.58 - 1.0).abs() < 0.02, "{gib}");
    }
}

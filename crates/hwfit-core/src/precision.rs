//! Numeric precisions and the quantization formats people type, with their real bits per weight.

string_enum! {
    /// The precision model weights are stored and computed at: numeric types, checkpoint
    /// quantization formats and llama.cpp's GGUF file types, as people type them.
    pub enum Precision: "precision" {
        /// IEEE single precision.
        Fp32 => "fp32" | "float32" | "float" | "f32" | "full",
        /// IEEE half precision.
        Fp16 => "fp16" | "float16" | "half",
        /// bfloat16.
        Bf16 => "bf16" | "bfloat16",
        /// 8-bit floating point (E4M3/E5M2, per-tensor or block scales), on FP8 tensor cores.
        Fp8 => "fp8" | "float8" | "e4m3" | "e5m2" | "fp8_e4m3" | "fp8_e5m2" | "w8a8_fp8",
        /// 8-bit integer weights (bitsandbytes LLM.int8, ONNX/OpenVINO INT8, W8A8).
        Int8 => "int8" | "i8" | "w8a8" | "w8a16" | "bnb_int8" | "llm_int8",
        /// 4-bit integer weights, scales not counted.
        Int4 => "int4" | "i4",
        /// AWQ or GPTQ 4-bit weights in groups of 128 with an fp16 scale and a 4-bit zero point.
        Awq => "awq" | "gptq" | "w4a16" | "awq_int4" | "gptq_int4" | "int4_awq",
        /// bitsandbytes NF4: 4-bit normal-float weights in blocks of 64, double-quantized scales.
        Nf4 => "nf4" | "bnb_4bit" | "bnb_nf4" | "qlora",
        /// OCP microscaling FP4 (gpt-oss checkpoints): blocks of 32 E2M1 values, one E8M0 scale.
        Mxfp4 => "mxfp4" | "mx_fp4",
        /// llama.cpp's MXFP4_MOE GGUF file type (gpt-oss GGUFs): experts in MXFP4, the other
        /// tensors in Q8_0.
        Mxfp4Moe => "mxfp4_moe" | "gguf_mxfp4" | "mxfp4 moe",
        /// NVIDIA NVFP4: blocks of 16 E2M1 values, one E4M3 scale (Blackwell tensor cores).
        Nvfp4 => "nvfp4" | "fp4" | "nv_fp4",
        /// GGUF Q4_0: blocks of 32 4-bit weights with one fp16 scale.
        Q4_0 => "q4_0",
        /// GGUF Q4_1: Q4_0 with an fp16 minimum per block.
        Q4_1 => "q4_1",
        /// GGUF Q5_0: blocks of 32 5-bit weights with one fp16 scale.
        Q5_0 => "q5_0",
        /// GGUF Q5_1: Q5_0 with an fp16 minimum per block.
        Q5_1 => "q5_1",
        /// GGUF Q8_0: blocks of 32 8-bit weights with one fp16 scale.
        Q8_0 => "q8_0",
        /// GGUF Q2_K file type (2-bit k-quants, some tensors higher).
        Q2K => "q2_k",
        /// GGUF Q3_K_S file type.
        Q3KS => "q3_k_s",
        /// GGUF Q3_K_M file type.
        Q3KM => "q3_k_m" | "q3_k",
        /// GGUF Q3_K_L file type.
        Q3KL => "q3_k_l",
        /// GGUF Q4_K_S file type.
        Q4KS => "q4_k_s",
        /// GGUF Q4_K_M file type: 4-bit k-quant super-blocks, some tensors at Q6_K.
        Q4KM => "q4_k_m" | "q4_k",
        /// GGUF Q5_K_S file type.
        Q5KS => "q5_k_s",
        /// GGUF Q5_K_M file type: 5-bit k-quant super-blocks, some tensors at Q6_K.
        Q5KM => "q5_k_m" | "q5_k",
        /// GGUF Q6_K file type.
        Q6K => "q6_k",
        /// GGUF IQ1_S (importance-matrix 1-bit codebooks).
        Iq1S => "iq1_s",
        /// GGUF IQ1_M.
        Iq1M => "iq1_m",
        /// GGUF IQ2_XXS.
        Iq2Xxs => "iq2_xxs",
        /// GGUF IQ2_XS.
        Iq2Xs => "iq2_xs",
        /// GGUF IQ2_S.
        Iq2S => "iq2_s",
        /// GGUF IQ2_M.
        Iq2M => "iq2_m",
        /// GGUF IQ3_XXS.
        Iq3Xxs => "iq3_xxs",
        /// GGUF IQ3_XS.
        Iq3Xs => "iq3_xs",
        /// GGUF IQ3_S.
        Iq3S => "iq3_s",
        /// GGUF IQ3_M.
        Iq3M => "iq3_m",
        /// GGUF IQ4_NL (non-linear 4-bit, blocks of 32).
        Iq4Nl => "iq4_nl",
        /// GGUF IQ4_XS.
        Iq4Xs => "iq4_xs",
        /// GGUF F16 (unquantized half precision in a GGUF file).
        F16 => "f16" | "gguf_f16",
        /// MLX's affine 2-bit quantization (groups of 64 with a 16-bit scale and bias each).
        Mlx2 => "mlx_2bit" | "mlx2" | "mlx_q2",
        /// MLX's affine 3-bit quantization.
        Mlx3 => "mlx_3bit" | "mlx3" | "mlx_q3",
        /// MLX's affine 4-bit quantization (`mlx_lm.convert -q`'s default).
        Mlx4 => "mlx_4bit" | "mlx4" | "mlx_q4",
        /// MLX's affine 5-bit quantization.
        Mlx5 => "mlx_5bit" | "mlx5" | "mlx_q5",
        /// MLX's affine 6-bit quantization.
        Mlx6 => "mlx_6bit" | "mlx6" | "mlx_q6",
        /// MLX's affine 8-bit quantization.
        Mlx8 => "mlx_8bit" | "mlx8" | "mlx_q8",
    }
}

/// Bits per weight of a GGUF file type from llama.cpp's own figure for Llama-3-8B
/// (`tools/quantize/quantize.cpp`, `QUANT_OPTIONS`: file size in GiB for 8.03 B weights).
const fn llama3_8b_file(gib: f64) -> f64 {
    gib * 1_073_741_824.0 * 8.0 / 8.03e9
}

/// Bits per weight of MLX's affine format at `bits`: a 16-bit scale and a 16-bit bias per group of
/// 64 weights (`mlx.core.quantize`'s default group size; the scale type is the weights' own).
const fn mlx_affine(bits: f64) -> f64 {
    bits + 32.0 / 64.0
}

impl Precision {
    /// Storage bits per weight, including block scales, from each format's definition:
    ///
    /// - plain types: their width; int4: 4 (scales not counted);
    /// - AWQ/GPTQ (group 128): 4 + (16-bit scale + 4-bit zero) / 128 = 4.156;
    /// - NF4: 4 + an 8-bit block scale per 64 + an fp32 scale per 256 blocks = 4.127;
    /// - MXFP4: 32 × 4 bits + an 8-bit scale = 4.25; NVFP4: 16 × 4 bits + an 8-bit scale = 4.5;
    /// - GGUF block types (`ggml-common.h`): Q4_0 (32 × 4 + 16) / 32 = 4.5, Q4_1 5.0, Q5_0 5.5,
    ///   Q5_1 6.0, Q8_0 8.5, IQ4_NL 4.5; i-quants as llama.cpp's quantize tool states them
    ///   (IQ1_S 1.56, IQ1_M 1.75, IQ2_XXS 2.06, IQ2_XS 2.31, IQ2_S 2.5, IQ2_M 2.7, IQ3_XXS 3.06,
    ///   IQ3_XS 3.3, IQ3_S 3.44, IQ3_M 3.66, IQ4_XS 4.25 bits per weight);
    /// - GGUF k-quant file types mix tensor types (the output and some attention tensors higher), so
    ///   their bits come from llama.cpp's file sizes for Llama-3-8B (Q3_K_S 3.41 GiB, Q3_K_M 3.74,
    ///   Q3_K_L 4.03, Q4_K_S 4.37, Q5_K_S 5.21, Q6_K 6.14; Q2_K 2.96 GiB) — Q4_K_M and Q5_K_M keep
    ///   the figures below, measured from published GGUF files.
    /// - MLX's affine formats (`mlx.core.quantize`: groups of 64 by default, each with a scale and a
    ///   bias of the weights' own 16-bit type): b + 32/64 = b + 0.5 bits (mlx_4bit 4.5, mlx_8bit 8.5).
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
            Self::Awq => 4.0 + 20.0 / 128.0,
            Self::Nf4 => 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0),
            Self::Mxfp4 | Self::Mxfp4Moe | Self::Iq4Xs => 4.25,
            Self::Nvfp4 | Self::Q4_0 | Self::Iq4Nl => 4.5,
            Self::Q4_1 => 5.0,
            Self::Q5_0 => 5.5,
            Self::Q5_1 => 6.0,
            Self::Q8_0 => 8.5,
            Self::Q2K => llama3_8b_file(2.96),
            Self::Q3KS => llama3_8b_file(3.41),
            Self::Q3KM => llama3_8b_file(3.74),
            Self::Q3KL => llama3_8b_file(4.03),
            Self::Q4KS => llama3_8b_file(4.37),
            Self::Q4KM => 4.86,
            Self::Q5KS => llama3_8b_file(5.21),
            Self::Q5KM => 5.69,
            Self::Q6K => llama3_8b_file(6.14),
            Self::Iq1S => 1.56,
            Self::Iq1M => 1.75,
            Self::Iq2Xxs => 2.06,
            Self::Iq2Xs => 2.31,
            Self::Iq2S => 2.5,
            Self::Iq2M => 2.7,
            Self::Iq3Xxs => 3.06,
            Self::Iq3Xs => 3.3,
            Self::Iq3S => 3.44,
            Self::Iq3M => 3.66,
            Self::Mlx2 => mlx_affine(2.0),
            Self::Mlx3 => mlx_affine(3.0),
            Self::Mlx4 => mlx_affine(4.0),
            Self::Mlx5 => mlx_affine(5.0),
            Self::Mlx6 => mlx_affine(6.0),
            Self::Mlx8 => mlx_affine(8.0),
        }
    }

    /// Bits per weight of the tensors a file in this format keeps at higher precision: AWQ, GPTQ,
    /// bitsandbytes, FP8 and FP4 checkpoints quantize the layers' linear weights and keep the
    /// embedding and output head in 16 bits; llama.cpp's MXFP4_MOE keeps them in Q8_0 (8.5 bits);
    /// other GGUF averages already include their mix.
    #[must_use]
    pub const fn embedding_bits(self) -> f64 {
        match self {
            Self::Int8 | Self::Int4 | Self::Awq | Self::Nf4 | Self::Fp8 | Self::Mxfp4 | Self::Nvfp4 => 16.0,
            Self::Mxfp4Moe => 8.5,
            other => other.bits_per_weight(),
        }
    }

    /// Whether only mixture-of-experts weights take this format (gpt-oss's MXFP4 checkpoints keep
    /// attention and the router in bf16, its MXFP4_MOE GGUFs in Q8_0: [`Self::embedding_bits`]).
    #[must_use]
    pub const fn quantizes_only_experts(self) -> bool {
        matches!(self, Self::Mxfp4 | Self::Mxfp4Moe)
    }

    /// Bytes for `count` weights at this precision.
    #[must_use]
    pub fn weight_bytes(self, count: u64) -> f64 {
        count as f64 * self.bits_per_weight() / 8.0
    }

    /// Bytes per activation value while computing: fp32 keeps fp32 activations; fp8 and int8
    /// (W8A8) keep 8-bit activations between layers; every other reduced precision (weight-only
    /// formats, GGUF, fp16, bf16) computes with 16-bit activations.
    #[must_use]
    pub const fn activation_bytes(self) -> u64 {
        match self {
            Self::Fp32 => 4,
            Self::Fp8 | Self::Int8 => 1,
            _ => 2,
        }
    }

    /// Whether training at this precision is mixed precision — fp32 weights, gradients and AdamW
    /// state, the matrix products at this precision under autocast (PyTorch's AMP) — given what a
    /// request asked (`requested`): by default yes at fp16 and bf16, as `torch.autocast`, Hugging
    /// Face's Trainer (`bf16=True`) and the ZeRO paper's 16 bytes per parameter train; `false`
    /// means pure training (weights, gradients and AdamW state at this precision). fp32 training
    /// has nothing to mix, whatever was asked.
    #[must_use]
    pub const fn mixed_precision(self, requested: Option<bool>) -> bool {
        match requested {
            _ if !matches!(self, Self::Fp16 | Self::Bf16) => false,
            Some(asked) => asked,
            None => true,
        }
    }

    /// Whether weights at this precision can be trained directly (master weights and gradients).
    #[must_use]
    pub const fn is_trainable(self) -> bool {
        matches!(self, Self::Fp32 | Self::Fp16 | Self::Bf16)
    }

    /// Whether this is a llama.cpp GGUF file type.
    #[must_use]
    pub const fn is_gguf(self) -> bool {
        matches!(
            self,
            Self::Q4_0
                | Self::Q4_1
                | Self::Q5_0
                | Self::Q5_1
                | Self::Q8_0
                | Self::Q2K
                | Self::Q3KS
                | Self::Q3KM
                | Self::Q3KL
                | Self::Q4KS
                | Self::Q4KM
                | Self::Q5KS
                | Self::Q5KM
                | Self::Q6K
                | Self::Iq1S
                | Self::Iq1M
                | Self::Iq2Xxs
                | Self::Iq2Xs
                | Self::Iq2S
                | Self::Iq2M
                | Self::Iq3Xxs
                | Self::Iq3Xs
                | Self::Iq3S
                | Self::Iq3M
                | Self::Iq4Nl
                | Self::Iq4Xs
                | Self::Mxfp4Moe
                | Self::F16
        )
    }

    /// Whether this is one of MLX's affine quantization formats (`mlx-community`'s 2–8-bit models).
    #[must_use]
    pub const fn is_mlx(self) -> bool {
        matches!(
            self,
            Self::Mlx2 | Self::Mlx3 | Self::Mlx4 | Self::Mlx5 | Self::Mlx6 | Self::Mlx8
        )
    }

    /// Whether this is a 4-bit checkpoint format GPUs dequantize to 16 bits (int4, AWQ/GPTQ, NF4).
    #[must_use]
    pub const fn is_weight_only_int4(self) -> bool {
        matches!(self, Self::Int4 | Self::Awq | Self::Nf4)
    }

    /// Whether this is an FP4 microscaling format (MXFP4, NVFP4).
    #[must_use]
    pub const fn is_fp4(self) -> bool {
        matches!(self, Self::Mxfp4 | Self::Mxfp4Moe | Self::Nvfp4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_training_is_mixed_unless_asked_pure() {
        assert!(Precision::Bf16.mixed_precision(None));
        assert!(Precision::Fp16.mixed_precision(Some(true)));
        assert!(!Precision::Bf16.mixed_precision(Some(false)));
        // fp32 training has nothing to mix.
        assert!(!Precision::Fp32.mixed_precision(Some(true)));
        assert!(!Precision::Fp32.mixed_precision(None));
    }

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
    fn block_formats_follow_their_definitions() {
        assert!((Precision::Mxfp4.bits_per_weight() - 4.25).abs() < 1e-12);
        assert!((Precision::Nvfp4.bits_per_weight() - 4.5).abs() < 1e-12);
        assert!((Precision::Awq.bits_per_weight() - 4.15625).abs() < 1e-12);
        // Q6_K: 6.14 GiB for Llama-3-8B = 6.57 bits, against the 6.5625 of a pure Q6_K block.
        assert!((Precision::Q6K.bits_per_weight() - 6.5625).abs() < 0.03);
        assert_eq!("IQ4_XS".parse::<Precision>().unwrap(), Precision::Iq4Xs);
        assert_eq!("Q4_K".parse::<Precision>().unwrap(), Precision::Q4KM);
        assert_eq!("MXFP4".parse::<Precision>().unwrap(), Precision::Mxfp4);
        assert_eq!("gptq".parse::<Precision>().unwrap(), Precision::Awq);
        // MLX: b bits + a 16-bit scale and bias per 64 weights.
        assert_eq!("MLX_4bit".parse::<Precision>().unwrap(), Precision::Mlx4);
        assert!((Precision::Mlx4.bits_per_weight() - 4.5).abs() < 1e-12);
        assert!((Precision::Mlx8.bits_per_weight() - 8.5).abs() < 1e-12);
        // Every GGUF type is smaller than F16 and ordered as its name says.
        let ordered = [
            Precision::Iq1S,
            Precision::Iq2Xxs,
            Precision::Q2K,
            Precision::Q3KM,
            Precision::Q4KM,
            Precision::Q5KM,
            Precision::Q6K,
            Precision::Q8_0,
            Precision::F16,
        ];
        assert!(ordered
            .windows(2)
            .all(|w| w[0].bits_per_weight() < w[1].bits_per_weight()));
    }

    #[test]
    fn q4_k_m_matches_the_shared_data_file_sizes_within_two_percent() {
        // Llama 3 8B (8.03 B params) Q4_K_M GGUF is 4.58 GiB in data/measured/llm_tokens_per_second.csv.
        let gib = Precision::Q4KM.weight_bytes(8_030_000_000) / f64::from(1u32 << 30);
        assert!((gib / 4.58 - 1.0).abs() < 0.02, "{gib}");
    }
}

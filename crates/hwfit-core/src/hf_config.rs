//! Hugging Face `config.json` ingestion: a `ModelSpec` from the parsed config object. The faces read
//! and parse the file; the core maps the fields. Covers the BERT family, GPT-2, Llama-style decoders
//! (Llama, Mistral, Mixtral, Qwen2, Gemma, Phi), T5, BART, ViT/DeiT/DINOv2, Whisper, wav2vec2/HuBERT,
//! CLIP/SigLIP and LLaVA shapes, ResNet. Missing fields take the `transformers` defaults of that
//! `model_type`; a field hwfit cannot do without is an error naming it.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::Deserialize;

use crate::catalog::build::{bart, dense, gpt2, llama, stack, t5, vit, wav2vec2, whisper};
use crate::catalog::{ResolvedModel, SpecSource};
use crate::spec::{Component, Modality, ModelSpec, StackRole};
use crate::{Classifier, ClassifierInput, CoreError, Family};

/// The fields of a `config.json` that cost depends on (any other field is ignored).
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HfConfig {
    pub model_type: Option<String>,
    /// Older transformers write `"architectures": null` in nested configs (mllama's text and vision).
    #[serde(deserialize_with = "null_as_empty")]
    pub architectures: Vec<String>,
    pub name_or_path: Option<String>,
    #[serde(rename = "_name_or_path")]
    pub underscore_name_or_path: Option<String>,
    // BERT / Llama style
    pub num_hidden_layers: Option<u32>,
    pub hidden_size: Option<u32>,
    pub num_attention_heads: Option<u32>,
    #[serde(deserialize_with = "number_or_list")]
    pub num_key_value_heads: Option<u32>,
    pub head_dim: Option<u32>,
    #[serde(deserialize_with = "number_or_list")]
    pub intermediate_size: Option<u32>,
    /// Phi-3-small's feed-forward width (its `up_proj` is twice as wide: a gated GELU).
    pub ff_intermediate_size: Option<u32>,
    pub vocab_size: Option<u32>,
    pub max_position_embeddings: Option<u32>,
    pub tie_word_embeddings: Option<bool>,
    pub hidden_act: Option<String>,
    // normalisation and positions (the operators a layer runs)
    pub rms_norm_eps: Option<f64>,
    pub layer_norm_eps: Option<f64>,
    pub layer_norm_epsilon: Option<f64>,
    pub norm_epsilon: Option<f64>,
    pub use_qk_norm: Option<bool>,
    pub qk_layernorm: Option<bool>,
    pub rope_theta: Option<f64>,
    pub rope_parameters: Option<serde_json::Value>,
    pub rope_scaling: Option<serde_json::Value>,
    pub rotary_dim: Option<u32>,
    pub rotary_pct: Option<f64>,
    pub partial_rotary_factor: Option<f64>,
    pub position_embedding_type: Option<String>,
    /// JinaBERT's feed-forward (`"geglu"`: gated).
    pub feed_forward_type: Option<String>,
    /// Nomic BERT's feed-forward activation (`"swiglu"`: gated).
    pub activation_function: Option<String>,
    /// Nomic BERT: the share of each head's dimensions rotated (rotary positions where above 0).
    pub rotary_emb_fraction: Option<f64>,
    // mixture of experts (each family spells them its own way)
    pub num_local_experts: Option<u32>,
    #[serde(deserialize_with = "number_or_list")]
    pub num_experts: Option<u32>,
    pub n_routed_experts: Option<u32>,
    #[serde(deserialize_with = "number_or_list")]
    pub moe_num_experts: Option<u32>,
    pub num_experts_per_tok: Option<u32>,
    pub experts_per_token: Option<u32>,
    /// Kimi Linear and Kimi-K3's spellings of the experts per token and the shared experts.
    pub num_experts_per_token: Option<u32>,
    pub num_shared_experts: Option<u32>,
    /// Kimi-K3's latent experts: the width the routed experts read and write (`moe_latent_size`
    /// elsewhere).
    pub routed_expert_hidden_size: Option<u32>,
    /// Kimi Linear's and Kimi-K3's Kimi Delta Attention layers and their geometry.
    pub linear_attn_config: Option<LinearAttnConfig>,
    /// Kimi-K3: the latent-attention layers' output gated per value by a full-rank projection.
    pub mla_use_output_gate: Option<bool>,
    /// Gemma 4's full-attention layers: their head width, key/value heads, and keys projected once
    /// for keys and values.
    pub global_head_dim: Option<u32>,
    pub num_global_key_value_heads: Option<u32>,
    pub attention_k_eq_v: Option<bool>,
    /// Gemma 4's experts per token.
    pub top_k_experts: Option<u32>,
    /// Gemma 4: each layer runs routed experts beside its dense feed-forward.
    pub enable_moe_block: Option<bool>,
    pub moe_k: Option<u32>,
    pub moe_intermediate_size: Option<u32>,
    pub shared_expert_intermediate_size: Option<u32>,
    pub shared_intermediate_size: Option<u32>,
    pub n_shared_experts: Option<u32>,
    pub moe_num_shared_experts: Option<u32>,
    pub first_k_dense_replace: Option<u32>,
    pub decoder_sparse_step: Option<u32>,
    pub mlp_only_layers: Option<Vec<u32>>,
    /// MiMo-V2's per-layer flags (0: a dense feed-forward, 1: experts); DeepSeek-V2's single
    /// number (every layer) reads as none.
    #[serde(deserialize_with = "per_layer_flags")]
    pub moe_layer_freq: Option<Vec<u32>>,
    pub interleave_moe_layer_step: Option<u32>,
    pub intermediate_size_mlp: Option<u32>,
    pub moe_layer_start_index: Option<u32>,
    pub moe_layer_interval: Option<u32>,
    // multi-head latent attention
    pub q_lora_rank: Option<u32>,
    pub kv_lora_rank: Option<u32>,
    pub qk_nope_head_dim: Option<u32>,
    pub qk_rope_head_dim: Option<u32>,
    pub v_head_dim: Option<u32>,
    // DeepSeek-V4's attention: grouped low-rank output, compressed caches per layer kind and the
    // lightning indexer (`compress_ratios` per layer, or `layer_types` with `compress_rates`)
    pub expert_dtype: Option<String>,
    pub o_groups: Option<u32>,
    pub o_lora_rank: Option<u32>,
    pub compress_ratios: Option<Vec<u32>>,
    pub compress_rates: Option<CompressRates>,
    pub index_n_heads: Option<u32>,
    pub index_head_dim: Option<u32>,
    pub index_topk: Option<u32>,
    /// GLM-5.2: per layer, `full` (an indexer of its own) or `shared` (the previous one's choice).
    pub indexer_types: Option<Vec<String>>,
    /// MiniMax-M3's sparse attention (MSA).
    pub sparse_attention_config: Option<SparseAttentionConfig>,
    /// MiniMax-M3: the dense layers' feed-forward width (the experts' is `intermediate_size`).
    pub dense_intermediate_size: Option<u32>,
    // local attention
    pub sliding_window: Option<u32>,
    pub sliding_window_pattern: Option<u32>,
    pub use_sliding_window: Option<bool>,
    pub attention_chunk_size: Option<u32>,
    pub layer_types: Option<Vec<String>>,
    /// MiMo-V2's per-layer attention flags (1: sliding window, 0: full attention).
    pub hybrid_layer_pattern: Option<Vec<u32>>,
    /// MiMo-V2's sliding-window layers' own key/value heads (the full layers':
    /// `num_key_value_heads`).
    pub swa_num_key_value_heads: Option<u32>,
    /// Nemotron 3's block pattern, one name per layer (`mamba`, `attention`, `moe`, `mlp`), where
    /// Nemotron-H wrote `hybrid_override_pattern`.
    pub layers_block_type: Option<Vec<String>>,
    pub full_attention_interval: Option<u32>,
    // state mixers of hybrid models: Mamba-2 (Granite 4, Bamba, Falcon-H1; Nemotron-H's names)
    // and Gated DeltaNet (Qwen3-Next)
    pub mamba_n_heads: Option<u32>,
    pub mamba_d_head: Option<u32>,
    pub mamba_d_state: Option<u32>,
    pub mamba_n_groups: Option<u32>,
    pub mamba_d_conv: Option<u32>,
    pub mamba_expand: Option<u32>,
    pub mamba_num_heads: Option<u32>,
    pub mamba_head_dim: Option<u32>,
    pub ssm_state_size: Option<u32>,
    pub n_groups: Option<u32>,
    pub conv_kernel: Option<u32>,
    pub linear_num_value_heads: Option<u32>,
    pub linear_value_head_dim: Option<u32>,
    pub linear_num_key_heads: Option<u32>,
    pub linear_key_head_dim: Option<u32>,
    pub linear_conv_kernel_dim: Option<u32>,
    pub attn_layer_indices: Option<Vec<u32>>,
    // Nemotron-H's blocks (one mixer or one feed-forward each) and LFM2's short convolutions
    pub hybrid_override_pattern: Option<String>,
    pub mamba_ssm_cache_dtype: Option<String>,
    pub moe_shared_expert_intermediate_size: Option<u32>,
    pub moe_latent_size: Option<u32>,
    // Parakeet (FastConformer encoder and CTC or transducer heads)
    pub encoder_config: Option<Box<HfConfig>>,
    pub conv_kernel_size: Option<u32>,
    pub subsampling_factor: Option<u32>,
    pub subsampling_conv_channels: Option<u32>,
    pub subsampling_conv_kernel_size: Option<u32>,
    pub subsampling_conv_stride: Option<u32>,
    pub decoder_hidden_size: Option<u32>,
    pub durations: Option<Vec<u32>>,
    pub attention_head_dim: Option<u32>,
    pub full_attn_idxs: Option<Vec<u32>>,
    #[serde(rename = "conv_L_cache")]
    pub conv_l_cache: Option<u32>,
    pub conv_dim: Option<u32>,
    pub block_ff_dim: Option<u32>,
    pub block_auto_adjust_ff_dim: Option<bool>,
    pub block_ffn_dim_multiplier: Option<f64>,
    pub block_multiple_of: Option<u32>,
    pub tie_embedding: Option<bool>,
    // per-layer embeddings (Gemma 3n)
    pub vocab_size_per_layer_input: Option<u32>,
    pub hidden_size_per_layer_input: Option<u32>,
    // vision towers
    pub depth: Option<u32>,
    pub embed_dim: Option<u32>,
    pub mlp_ratio: Option<f64>,
    pub out_hidden_size: Option<u32>,
    pub spatial_merge_size: Option<u32>,
    pub mm_tokens_per_image: Option<u32>,
    pub num_global_layers: Option<u32>,
    /// `true`: every layer attends both ways (EmbeddingGemma); Gemma 4 names the tokens that do
    /// (`"vision"`), its text staying causal — read as `false`.
    #[serde(deserialize_with = "true_or_scoped")]
    pub use_bidirectional_attention: Option<bool>,
    // GPT-2 style
    pub n_layer: Option<u32>,
    pub n_embd: Option<u32>,
    pub n_head: Option<u32>,
    pub n_inner: Option<u32>,
    pub n_positions: Option<u32>,
    // DistilBERT style
    pub n_layers: Option<u32>,
    pub dim: Option<u32>,
    pub n_heads: Option<u32>,
    pub hidden_dim: Option<u32>,
    // T5 / BART / Whisper style
    pub d_model: Option<u32>,
    pub d_ff: Option<u32>,
    pub d_kv: Option<u32>,
    pub num_heads: Option<u32>,
    pub num_layers: Option<u32>,
    pub num_decoder_layers: Option<u32>,
    pub feed_forward_proj: Option<String>,
    pub encoder_layers: Option<u32>,
    pub decoder_layers: Option<u32>,
    pub encoder_attention_heads: Option<u32>,
    pub encoder_ffn_dim: Option<u32>,
    pub num_mel_bins: Option<u32>,
    pub max_target_positions: Option<u32>,
    // vision
    pub image_size: Option<u32>,
    pub patch_size: Option<u32>,
    pub num_channels: Option<u32>,
    // convolutional networks (ResNet style)
    pub embedding_size: Option<u32>,
    pub hidden_sizes: Option<Vec<u32>>,
    pub depths: Option<Vec<u32>>,
    pub layer_type: Option<String>,
    pub downsample_in_first_stage: Option<bool>,
    pub downsample_in_bottleneck: Option<bool>,
    // classification heads
    pub num_labels: Option<u32>,
    #[serde(deserialize_with = "entry_count")]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "Option<alloc::collections::BTreeMap<String, String>>")
    )]
    pub id2label: Option<u32>,
    // composite models
    #[serde(alias = "llm_config")]
    pub text_config: Option<Box<HfConfig>>,
    pub vision_config: Option<Box<HfConfig>>,
    /// A pre-quantized checkpoint's format (AWQ, GPTQ, FP8, MXFP4, bitsandbytes, compressed-tensors …).
    #[serde(alias = "compression_config")]
    pub quantization_config: Option<crate::checkpoint::QuantizationConfig>,
    /// MLX's quantization (`mlx-community` checkpoints): bits, group size, mode.
    pub quantization: Option<crate::checkpoint::QuantizationConfig>,
    // SAM: an image encoder with windowed attention, a prompt encoder and a mask decoder
    pub prompt_encoder_config: Option<Box<HfConfig>>,
    pub mask_decoder_config: Option<Box<HfConfig>>,
    pub mlp_dim: Option<u32>,
    // Kokoro: no model_type; PL-BERT (ALBERT), a prosody predictor, an iSTFTNet decoder
    pub plbert: Option<Box<HfConfig>>,
    pub istftnet: Option<kokoro::IstftNet>,
    pub style_dim: Option<u32>,
    pub n_token: Option<u32>,
    pub max_dur: Option<u32>,
    pub text_encoder_kernel_size: Option<u32>,
    pub window_size: Option<u32>,
    pub use_rel_pos: Option<bool>,
    pub global_attn_indexes: Option<Vec<u32>>,
    pub output_channels: Option<u32>,
    pub attention_downsample_rate: Option<u32>,
    pub iou_head_depth: Option<u32>,
    pub iou_head_hidden_dim: Option<u32>,
    pub num_multimask_outputs: Option<u32>,
    pub mask_input_channels: Option<u32>,
    pub num_point_embeddings: Option<u32>,
    // Gemma 3n: key/value sharing, AltUp and LAuReL, its image encoder (by timm architecture) and
    // its conformer audio encoder
    pub num_kv_shared_layers: Option<u32>,
    pub altup_num_inputs: Option<u32>,
    pub laurel_rank: Option<u32>,
    pub architecture: Option<String>,
    pub vision_soft_tokens_per_image: Option<u32>,
    pub audio_soft_tokens_per_image: Option<u32>,
    pub audio_config: Option<Box<HfConfig>>,
    pub conf_num_hidden_layers: Option<u32>,
    pub conf_num_attention_heads: Option<u32>,
    pub conf_conv_kernel_size: Option<u32>,
    pub conf_reduction_factor: Option<u32>,
    pub input_feat_size: Option<u32>,
    pub sscp_conv_channel_size: Option<Vec<u32>>,
    pub sscp_conv_kernel_size: Option<Vec<Vec<u32>>>,
    pub sscp_conv_stride_size: Option<Vec<Vec<u32>>>,
    // Kimi's MoonViT vision towers (Kimi-K2.5, Kimi-K3)
    pub vt_hidden_size: Option<u32>,
    pub vt_num_hidden_layers: Option<u32>,
    pub vt_num_attention_heads: Option<u32>,
    pub vt_intermediate_size: Option<u32>,
    // DINOv3's ViT
    pub use_gated_mlp: Option<bool>,
    pub num_register_tokens: Option<u32>,
}

/// MiniMax Sparse Attention (MiniMax-M3's `sparse_attention_config`): an indexer of
/// `sparse_num_index_heads` × `sparse_index_dim` scores the cached tokens, its scores max-pooled
/// into blocks of `sparse_block_size`; each query attends to the `sparse_topk_blocks` best blocks,
/// the `sparse_init_block` first and the `sparse_local_block` last, on the layers
/// `sparse_attention_freq` flags.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct SparseAttentionConfig {
    pub use_sparse_attention: Option<bool>,
    pub sparse_attention_freq: Option<Vec<u32>>,
    pub sparse_block_size: Option<u32>,
    pub sparse_index_dim: Option<u32>,
    pub sparse_num_index_heads: Option<u32>,
    pub sparse_topk_blocks: Option<u32>,
    pub sparse_init_block: Option<u32>,
    pub sparse_local_block: Option<u32>,
}

/// Kimi Delta Attention (Kimi Linear's and Kimi-K3's `linear_attn_config`): the 1-based ids of the
/// KDA layers (`kda_layers`) and of the latent-attention ones (`full_attn_layers`), `num_heads`
/// heads of `head_dim`, a `short_conv_kernel_size`-tap convolution on queries, keys and values, and
/// an output gate that is low-rank (rank `head_dim`) unless `use_full_rank_gate`.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct LinearAttnConfig {
    pub kda_layers: Option<Vec<u32>>,
    pub full_attn_layers: Option<Vec<u32>>,
    pub num_heads: Option<u32>,
    pub head_dim: Option<u32>,
    pub short_conv_kernel_size: Option<u32>,
    pub use_full_rank_gate: Option<bool>,
}

/// DeepSeek-V4's tokens per compressed cache entry of each attention layer kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct CompressRates {
    /// Compressed sparse attention (CSA; 4 in DeepSeek-V4).
    pub compressed_sparse_attention: Option<u32>,
    /// Heavily compressed attention (HCA; 128 in DeepSeek-V4).
    pub heavily_compressed_attention: Option<u32>,
}

/// A count stated as one number, or as one number per layer (their mean, rounded).
fn number_or_list<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Count {
        One(u32),
        PerLayer(Vec<u32>),
    }
    Ok(match Option::<Count>::deserialize(deserializer)? {
        None => None,
        Some(Count::One(n)) => Some(n),
        Some(Count::PerLayer(list)) if list.is_empty() => None,
        Some(Count::PerLayer(list)) => {
            let sum: u64 = list.iter().map(|&n| u64::from(n)).sum();
            u32::try_from(sum.div_ceil(list.len() as u64)).ok()
        }
    })
}

/// Flags stated one per layer; a single number (a frequency) reads as none.
fn per_layer_flags<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<u32>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flags {
        Every(#[allow(dead_code)] u32),
        PerLayer(Vec<u32>),
    }
    Ok(match Option::<Flags>::deserialize(deserializer)? {
        Some(Flags::PerLayer(list)) if !list.is_empty() => Some(list),
        _ => None,
    })
}

/// A flag stated as a boolean, or as the scope it applies to (a string): `true` only when the
/// boolean is.
fn true_or_scoped<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Plain(bool),
        Scoped(#[allow(dead_code)] String),
    }
    Ok(Option::<Flag>::deserialize(deserializer)?.map(|f| matches!(f, Flag::Plain(true))))
}

/// A list of strings, `null` read as none.
fn null_as_empty<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    Ok(Option::<Vec<String>>::deserialize(deserializer)?.unwrap_or_default())
}

/// The number of entries of a JSON object (`id2label`'s labels).
fn entry_count<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    let map = Option::<serde_json::Map<String, serde_json::Value>>::deserialize(deserializer)?;
    Ok(map.map(|m| u32::try_from(m.len()).unwrap_or(u32::MAX)))
}

/// Whether a config's activation name is GELU's tanh approximation as `transformers` writes it out
/// in tensor operations (`NewGELUActivation`, `FastGELUActivation`).
pub(crate) fn written_out_gelu(activation: &str) -> bool {
    matches!(activation, "gelu_new" | "gelu_fast")
}

fn need(value: Option<u32>, field: &str, model_type: &str) -> Result<u32, CoreError> {
    match value {
        Some(0) => Err(CoreError::InvalidConfig(format!(
            "'{field}' is 0 for model_type '{model_type}'"
        ))),
        Some(v) => Ok(v),
        None => Err(CoreError::InvalidConfig(format!(
            "'{field}' is missing (needed for model_type '{model_type}')"
        ))),
    }
}

/// Parses the text of a `config.json`. Python's `json` module (which `transformers` saves configs
/// with) writes the non-standard numbers `NaN`, `Infinity` and `-Infinity` (Nemotron-H's
/// `time_step_limit`); outside strings they read as `null`, as no cost depends on them.
pub fn parse_config_text(text: &str) -> Result<serde_json::Value, CoreError> {
    serde_json::from_str(&python_numbers_as_null(text)).map_err(|e| CoreError::InvalidConfig(format!("{e}")))
}

/// `text` with each `NaN`, `Infinity` and `-Infinity` outside a string replaced by `null`.
fn python_numbers_as_null(text: &str) -> alloc::borrow::Cow<'_, str> {
    const TOKENS: [&str; 3] = ["-Infinity", "Infinity", "NaN"];
    if !TOKENS[1..].iter().any(|t| text.contains(t)) {
        return alloc::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if !in_string {
            if let Some(token) = TOKENS.iter().find(|t| rest.starts_with(**t)) {
                out.push_str("null");
                rest = &rest[token.len()..];
                continue;
            }
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    alloc::borrow::Cow::Owned(out)
}

/// The most register tokens a vision config may state (DINOv2 and DINOv3 use 4).
const MAX_REGISTER_TOKENS: u32 = 1024;

impl HfConfig {
    /// Reads a `config.json` already parsed as JSON; a wrong type is an error naming the field.
    pub fn deserialize_value(value: &serde_json::Value) -> Result<Self, CoreError> {
        Self::deserialize(value).map_err(|e| CoreError::InvalidConfig(format!("{e}")))
    }

    fn kind(&self) -> String {
        if self.is_kokoro() {
            return String::from("kokoro");
        }
        self.model_type
            .clone()
            .unwrap_or_default()
            .to_ascii_lowercase()
            .replace('-', "_")
    }

    /// The name the config calls its model, if it says.
    #[must_use]
    pub fn declared_name(&self) -> Option<&str> {
        self.underscore_name_or_path
            .as_deref()
            .or(self.name_or_path.as_deref())
            .filter(|n| !n.is_empty())
    }

    fn bert_like(&self, kind: &str) -> Result<Vec<Component>, CoreError> {
        let layers = need(self.num_hidden_layers.or(self.n_layers), "num_hidden_layers", kind)?;
        let hidden = need(self.hidden_size.or(self.dim), "hidden_size", kind)?;
        let heads = need(self.num_attention_heads.or(self.n_heads), "num_attention_heads", kind)?;
        let inter = self
            .intermediate_size
            .or(self.hidden_dim)
            .unwrap_or(hidden.saturating_mul(4));
        let vocab = need(self.vocab_size, "vocab_size", kind)?;
        // DeBERTa's relative positions, JinaBERT's ALiBi biases and rotary positions keep no
        // position table.
        let position_type = self.position_embedding_type.as_deref().unwrap_or("absolute");
        let rotary = matches!(position_type, "rotary" | "rope");
        let positions = if kind.starts_with("deberta") || position_type == "alibi" || rotary {
            0
        } else {
            self.max_position_embeddings.unwrap_or(512)
        };
        let mut encoder = stack(StackRole::Encoder, Modality::Text, layers, hidden, heads, inter)
            .vocab(vocab, true)
            .positions(positions);
        if self.feed_forward_type.as_deref().is_some_and(|t| t.ends_with("glu")) {
            encoder = encoder.gated();
        }
        encoder.rotary = rotary;
        Ok(vec![encoder.component()])
    }

    fn decoder(&self, kind: &str) -> Result<Vec<Component>, CoreError> {
        let mut parts = vec![self.decoder_stack(kind)?.component()];
        let per_layer = self.per_layer_embedding_parameters();
        if per_layer > 0 {
            parts.push(dense("per-layer embeddings", per_layer, 0));
        }
        Ok(parts)
    }

    fn components(&self) -> Result<multimodal::Read, CoreError> {
        let kind = self.kind();
        let k = kind.as_str();
        let max_pos = self.max_position_embeddings.or(self.n_positions).unwrap_or(0);
        let (parts, positions) = match k {
            "bert" | "roberta" | "xlm_roberta" | "distilbert" | "electra" | "mpnet" | "camembert" | "deberta"
            | "deberta_v2" | "xlm" | "layoutlm" => (self.bert_like(k)?, max_pos.max(512)),
            "new" => {
                // Alibaba's GTE `NewModel` (gte-multilingual-base, gte-*-en-v1.5): its modelling code
                // always gates the feed-forward (`NewGatedMLP`: one doubled input projection).
                let mut parts = self.bert_like(k)?;
                if let Some(Component::Transformer(t)) = parts.first_mut() {
                    t.gated_ffn = true;
                }
                (parts, max_pos)
            }
            "nomic_bert" => {
                // Nomic BERT (nomic-embed-text): GPT-2-style keys, an encoder with rotary positions
                // (no position table) and a SwiGLU feed-forward (`fc11`, `fc12`, `fc2`).
                let layers = need(self.n_layer, "n_layer", k)?;
                let hidden = need(self.n_embd, "n_embd", k)?;
                let heads = need(self.n_head, "n_head", k)?;
                let vocab = need(self.vocab_size, "vocab_size", k)?;
                let rotary = self.rotary_emb_fraction.is_some_and(|f| f > 0.0);
                let positions = self.n_positions.unwrap_or(2048);
                let mut encoder = stack(
                    StackRole::Encoder,
                    Modality::Text,
                    layers,
                    hidden,
                    heads,
                    self.n_inner.unwrap_or(hidden.saturating_mul(4)),
                )
                .vocab(vocab, true)
                .positions(if rotary { 0 } else { positions });
                if self.activation_function.as_deref().is_some_and(|a| a.ends_with("glu")) {
                    encoder = encoder.gated();
                }
                encoder.rotary = rotary;
                (vec![encoder.component()], positions)
            }
            "modernbert" => {
                // ModernBERT: GLU feed-forward (one doubled input projection), rotary positions.
                let mut parts = self.bert_like(k)?;
                if let Some(Component::Transformer(t)) = parts.first_mut() {
                    t.gated_ffn = true;
                    t.learned_positions = 0;
                    t.rotary = true;
                }
                (parts, max_pos)
            }
            "gpt2" => {
                let layers = need(self.n_layer, "n_layer", k)?;
                let hidden = need(self.n_embd, "n_embd", k)?;
                let heads = need(self.n_head, "n_head", k)?;
                let vocab = need(self.vocab_size, "vocab_size", k)?;
                let positions = self.n_positions.unwrap_or(1024);
                let mut parts = gpt2(layers, hidden, heads, vocab, positions);
                if let Some(Component::Transformer(t)) = parts.first_mut() {
                    if let Some(inner) = self.n_inner {
                        t.intermediate_size = inner;
                    }
                    t.written_out_gelu = written_out_gelu(self.activation_function.as_deref().unwrap_or("gelu_new"));
                }
                (parts, positions)
            }
            k if decoder::DECODERS.contains(&k) => (self.decoder(k)?, max_pos),
            "parakeet_ctc" | "parakeet_tdt" | "parakeet_rnnt" | "parakeet_encoder" => (self.parakeet(k)?, 0),
            "falcon_h1" => {
                // Read by the standard fields, its Mamba-2 half would go uncounted.
                return Err(CoreError::InvalidConfig(String::from(
                    "model_type 'falcon_h1' runs attention and Mamba-2 side by side in every layer, which hwfit does not read yet",
                )));
            }
            "t5" | "mt5" | "umt5" => {
                let d = need(self.d_model, "d_model", k)?;
                let ff = need(self.d_ff, "d_ff", k)?;
                let heads = need(self.num_heads, "num_heads", k)?;
                let layers = need(self.num_layers, "num_layers", k)?;
                let vocab = need(self.vocab_size, "vocab_size", k)?;
                let gated = self
                    .feed_forward_proj
                    .as_deref()
                    .is_some_and(|p| p.starts_with("gated"));
                let mut parts = t5(
                    d,
                    ff,
                    heads,
                    layers,
                    vocab,
                    gated,
                    self.tie_word_embeddings.unwrap_or(true),
                );
                // T5Config maps `gated-gelu` to `gelu_new`; other activations are fused calls.
                let gelu_new = self.feed_forward_proj.as_deref() == Some("gated-gelu");
                for part in &mut parts {
                    if let Component::Transformer(t) = part {
                        t.written_out_gelu = gelu_new;
                        t.head_dim = self.d_kv.unwrap_or(64);
                        if t.role == StackRole::CrossDecoder {
                            t.layers = self.num_decoder_layers.unwrap_or(layers);
                        }
                    }
                }
                (parts, 512)
            }
            "bart" | "mbart" | "marian" | "pegasus" => {
                let d = need(self.d_model, "d_model", k)?;
                let layers = need(self.encoder_layers, "encoder_layers", k)?;
                let heads = need(self.encoder_attention_heads, "encoder_attention_heads", k)?;
                let ffn = need(self.encoder_ffn_dim, "encoder_ffn_dim", k)?;
                let vocab = need(self.vocab_size, "vocab_size", k)?;
                let positions = self.max_position_embeddings.unwrap_or(1024);
                (bart(d, layers, heads, ffn, vocab, positions + 2), positions)
            }
            "vit" | "deit" | "dinov2" | "dinov2_with_registers" | "beit" => {
                let layers = need(self.num_hidden_layers, "num_hidden_layers", k)?;
                let hidden = need(self.hidden_size, "hidden_size", k)?;
                let heads = need(self.num_attention_heads, "num_attention_heads", k)?;
                let inter = self.intermediate_size.unwrap_or(hidden.saturating_mul(4));
                let image = self.image_size.unwrap_or(224);
                let patch = need(self.patch_size, "patch_size", k)?;
                let mut encoder = vit(layers, hidden, heads, inter, image, patch);
                self.register_tokens(&mut encoder)?;
                (vec![encoder.component()], 0)
            }
            "dinov3_vit" => {
                // DINOv3's ViT: rotary positions (no position table), a class token and
                // `num_register_tokens` registers before the patches, a gated MLP where the config
                // says so (the larger variants).
                let layers = need(self.num_hidden_layers, "num_hidden_layers", k)?;
                let hidden = need(self.hidden_size, "hidden_size", k)?;
                let heads = need(self.num_attention_heads, "num_attention_heads", k)?;
                let inter = self.intermediate_size.unwrap_or(hidden.saturating_mul(4));
                let image = self.image_size.unwrap_or(224);
                let patch = need(self.patch_size, "patch_size", k)?;
                let mut encoder = vit(layers, hidden, heads, inter, image, patch);
                encoder.learned_positions = 0;
                encoder.rotary = true;
                encoder.gated_ffn = self.use_gated_mlp.unwrap_or(false);
                self.register_tokens(&mut encoder)?;
                (vec![encoder.component()], 0)
            }
            "whisper" => {
                let d = need(self.d_model, "d_model", k)?;
                let layers = need(self.encoder_layers, "encoder_layers", k)?;
                let heads = need(self.encoder_attention_heads, "encoder_attention_heads", k)?;
                let ffn = need(self.encoder_ffn_dim, "encoder_ffn_dim", k)?;
                let vocab = need(self.vocab_size, "vocab_size", k)?;
                let mut parts = whisper(d, layers, heads, ffn, vocab, self.num_mel_bins.unwrap_or(80));
                // Whisper large-v3-turbo and distil-whisper keep the encoder but cut the decoder.
                if let Some(decoder_layers) = self.decoder_layers {
                    for part in &mut parts {
                        if let Component::Transformer(t) = part {
                            if t.role == StackRole::CrossDecoder {
                                t.layers = decoder_layers;
                            }
                        }
                    }
                }
                (parts, self.max_target_positions.unwrap_or(448))
            }
            "wav2vec2" | "hubert" | "wavlm" | "data2vec_audio" => {
                let layers = need(self.num_hidden_layers, "num_hidden_layers", k)?;
                let hidden = need(self.hidden_size, "hidden_size", k)?;
                let heads = need(self.num_attention_heads, "num_attention_heads", k)?;
                let inter = self.intermediate_size.unwrap_or(hidden.saturating_mul(4));
                (wav2vec2(layers, hidden, heads, inter), 0)
            }
            "resnet" => (self.resnet()?, 0),
            "sam" => (self.sam()?, 0),
            "kokoro" => (self.kokoro()?, 0),
            "clip" | "siglip" | "siglip2" => self.dual_encoder(k),
            "llava" => self.llava()?,
            "" => return Err(CoreError::InvalidConfig(String::from("'model_type' is missing"))),
            // A vision tower beside a language model: nested (`text_config`) or at the top level
            // (Qwen2-VL's older form). A vision config alone (SAM's image encoder with prompt and
            // mask decoders) is no language model: read by the standard fields, or refused naming them.
            _ if self.text_config.is_some() || (self.vision_config.is_some() && self.num_hidden_layers.is_some()) => {
                self.multimodal(k)?
            }
            other => return self.by_standard_fields(other),
        };
        Ok((parts, positions, None))
    }

    /// Sets a vision encoder's register tokens from `num_register_tokens` (DINOv2 with registers,
    /// DINOv3): tokens every pass carries besides the class token and the patches.
    fn register_tokens(&self, encoder: &mut crate::spec::TransformerStack) -> Result<(), CoreError> {
        let registers = self.num_register_tokens.unwrap_or(0);
        if registers > MAX_REGISTER_TOKENS {
            return Err(CoreError::InvalidConfig(format!(
                "'num_register_tokens' is {registers}: more than {MAX_REGISTER_TOKENS}, beyond any vision transformer"
            )));
        }
        if let Modality::Image { register_tokens, .. } = &mut encoder.input {
            *register_tokens = registers;
        }
        Ok(())
    }

    /// A nested config the model type cannot do without.
    fn required<'a>(sub: Option<&'a HfConfig>, field: &str, kind: &str) -> Result<&'a HfConfig, CoreError> {
        sub.ok_or_else(|| CoreError::InvalidConfig(format!("'{field}' is missing (needed for model_type '{kind}')")))
    }

    /// A ViT vision tower from this (vision) config; missing fields take `defaults`:
    /// [layers, hidden, heads, intermediate, image size, patch size].
    fn vision_tower(&self, defaults: [u32; 6]) -> crate::spec::TransformerStack {
        let [layers, hidden, heads, inter, image, patch] = defaults;
        vit(
            self.num_hidden_layers.unwrap_or(layers),
            self.hidden_size.unwrap_or(hidden),
            self.num_attention_heads.unwrap_or(heads),
            self.intermediate_size.unwrap_or(inter),
            self.image_size.unwrap_or(image),
            self.patch_size.unwrap_or(patch),
        )
    }

    /// CLIP/SigLIP: a vision tower and a text tower, with `transformers`' defaults for missing fields.
    fn dual_encoder(&self, kind: &str) -> (Vec<Component>, u32) {
        let clip = kind == "clip";
        let empty = HfConfig::default();
        let v = self.vision_config.as_deref().unwrap_or(&empty);
        let t = self.text_config.as_deref().unwrap_or(&empty);
        let vision = v.vision_tower([12, 768, 12, 3072, 224, if clip { 32 } else { 16 }]);
        let v_hidden = vision.hidden_size;
        let t_hidden = t.hidden_size.unwrap_or(if clip { 512 } else { 768 });
        let positions = t.max_position_embeddings.unwrap_or(if clip { 77 } else { 64 });
        let text = stack(
            StackRole::Encoder,
            Modality::Text,
            t.num_hidden_layers.unwrap_or(12),
            t_hidden,
            t.num_attention_heads.unwrap_or(if clip { 8 } else { 12 }),
            t.intermediate_size.unwrap_or(if clip { 2048 } else { 3072 }),
        )
        .vocab(t.vocab_size.unwrap_or(if clip { 49408 } else { 32000 }), true)
        .positions(positions);
        let projection = u64::from(v_hidden + t_hidden) * u64::from(t_hidden);
        (
            vec![
                vision.component(),
                text.component(),
                dense("image/text projections", projection, 2 * projection),
            ],
            positions,
        )
    }

    /// LLaVA: a CLIP vision tower, a two-layer projector and a Llama-style language model.
    fn llava(&self) -> Result<(Vec<Component>, u32), CoreError> {
        let v = Self::required(self.vision_config.as_deref(), "vision_config", "llava")?;
        let t = Self::required(self.text_config.as_deref(), "text_config", "llava")?;
        let vision = v.vision_tower([24, 1024, 16, 4096, 336, 14]);
        let (v_hidden, image, patch) = (
            vision.hidden_size,
            v.image_size.unwrap_or(336),
            v.patch_size.unwrap_or(14),
        );
        // LlamaConfig defaults where LLaVA's text_config leaves fields out.
        let hidden = t.hidden_size.unwrap_or(4096);
        let heads = t.num_attention_heads.unwrap_or(32);
        let lm = llama(
            t.num_hidden_layers.unwrap_or(32),
            hidden,
            heads,
            t.num_key_value_heads.unwrap_or(heads),
            t.intermediate_size.unwrap_or(11008),
            t.vocab_size.or(self.vocab_size).unwrap_or(32000),
            t.tie_word_embeddings.unwrap_or(false),
        );
        let h = u64::from(hidden);
        let proj = u64::from(v_hidden) * h + h * h;
        let tokens = u64::from((image / patch).pow(2) + 1);
        let positions = t.max_position_embeddings.unwrap_or(4096);
        Ok((
            vec![
                vision.component(),
                dense("multimodal projector", proj, 2 * tokens * proj),
                lm.component(),
            ],
            positions,
        ))
    }

    /// The components and the context length, without classifying (for the catalog, which states
    /// each model's subfamily).
    pub(crate) fn spec_parts(&self) -> Result<(Vec<Component>, u32), CoreError> {
        let (components, max_positions, _) = self.components()?;
        ModelSpec::check_plausible(&components)?;
        Ok((components, max_positions))
    }

    /// The format the checkpoint is published in, when the config states one (its
    /// `quantization_config`, MLX's `quantization`, or a language model's own).
    #[must_use]
    pub fn checkpoint_format(&self) -> Option<crate::checkpoint::CheckpointFormat> {
        if let Some(q) = &self.quantization_config {
            // DeepSeek-V4 states its experts' format beside the quantization config.
            if q.expert_dtype.is_none() && self.expert_dtype.is_some() {
                let q = crate::checkpoint::QuantizationConfig {
                    expert_dtype: self.expert_dtype.clone(),
                    ..q.clone()
                };
                return Some(q.format("quantization_config"));
            }
            return Some(q.format("quantization_config"));
        }
        if let Some(q) = &self.quantization {
            return Some(q.format("quantization"));
        }
        self.text_config.as_deref().and_then(Self::checkpoint_format)
    }

    /// Builds the spec. The family and subfamily come from the classifier, fed the architecture class
    /// and model type; `name` overrides the config's own `_name_or_path`.
    pub fn to_model(&self, name: Option<&str>) -> Result<ResolvedModel, CoreError> {
        let (components, max_positions, note) = self.components()?;
        ModelSpec::check_plausible(&components)?;
        let name = String::from(name.or(self.declared_name()).unwrap_or("custom-model"));
        let kind = self.kind();
        let classification = Classifier::builtin().classify(&ClassifierInput {
            model_name: format!("{name} {kind}"),
            model_class: self.architectures.first().cloned(),
            ..ClassifierInput::default()
        });
        let mut family = classification.builtin_family().unwrap_or(Family::TextGeneration);
        let mut subfamily = classification
            .builtin_subfamily()
            .filter(|s| s.family() == family)
            .unwrap_or(family.default_subfamily());
        // A language model with a vision tower is a vision-language model, whatever its class is
        // called (`Glm4vMoeForConditionalGeneration` reads like T5's sequence-to-sequence class).
        let sees_images = components.iter().any(|c| match c {
            Component::Transformer(t) => matches!(t.input, Modality::Image { .. }),
            Component::Conv(_) => true,
            Component::Dense { .. } => false,
        });
        let generates = components
            .iter()
            .any(|c| matches!(c, Component::Transformer(t) if t.generates()));
        if family == Family::TextGeneration && sees_images && generates {
            family = Family::Multimodal;
            subfamily = crate::Subfamily::VisionLanguage;
        }
        Ok(ResolvedModel {
            spec: ModelSpec {
                name,
                family,
                subfamily,
                components,
                max_positions,
            },
            source: SpecSource::HfConfig { model_type: kind, note },
            checkpoint: self.checkpoint_format(),
        })
    }
}

mod conformer;
mod convnet;
mod decoder;
mod gemma3n;
mod kokoro;
mod multimodal;
mod parakeet;
mod segment;

pub(crate) use segment::{sam_mask_decoder_parameters, sam_prompt_encoder_parameters};

#[cfg(test)]
mod tests;

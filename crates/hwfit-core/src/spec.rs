//! `ModelSpec`: the architecture facts that cost depends on, and the costs derived from them.
//!
//! A model is a list of components: transformer stacks (encoders, decoders, cross-attending
//! decoders, each fed by text tokens, image patches or audio frames), convolutional networks with
//! their published cost figures, and dense extras (projectors, audio feature encoders). Parameter
//! counts are computed from the dimensions, so a spec read from a `config.json` and one from the
//! catalog agree by construction.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::{CoreError, Family, Precision, Subfamily};

/// What feeds a transformer stack, which fixes its token count per item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all_fields(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Modality {
    /// Text tokens: the request's sequence length.
    Text,
    /// Square images cut into square patches, plus one class token and any register tokens.
    Image {
        /// Input side in pixels.
        image_size: u32,
        /// Patch side in pixels.
        patch_size: u32,
        /// Learned register tokens every pass carries besides the class token (DINOv2 with
        /// registers, DINOv3).
        #[serde(default, skip_serializing_if = "is_zero")]
        register_tokens: u32,
    },
    /// Audio feature frames (e.g. Whisper's 1500 encoder positions for 30 s).
    Audio {
        /// Frames per item.
        frames: u32,
    },
    /// A square feature map an earlier part of the model made (the later stages of a hierarchical
    /// image encoder such as Hiera): `side²` tokens, no embedding of its own.
    FeatureMap {
        /// Tokens per side.
        side: u32,
    },
}

/// The attention pattern of a stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StackRole {
    /// Bidirectional self-attention (BERT, ViT, encoder halves).
    Encoder,
    /// Causal self-attention with a KV cache (GPT, Llama).
    Decoder,
    /// Causal self-attention plus cross-attention to an encoder (T5, BART, Whisper decoders).
    CrossDecoder,
}

/// A stack of identical transformer layers with its embeddings.
// Each flag is an independent fact a `config.json` states (gated feed-forward, tied embeddings,
// rotary positions, query/key norms).
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TransformerStack {
    /// Attention pattern.
    pub role: StackRole,
    /// What feeds it.
    pub input: Modality,
    /// Number of layers.
    pub layers: u32,
    /// Model (residual) width.
    pub hidden_size: u32,
    /// Query heads.
    pub attention_heads: u32,
    /// Key/value heads (fewer than query heads under grouped-query attention).
    pub kv_heads: u32,
    /// Width of one head.
    pub head_dim: u32,
    /// Feed-forward inner width (per expert).
    pub intermediate_size: u32,
    /// Gated feed-forward (SwiGLU/GeGLU: three matrices instead of two).
    pub gated_ffn: bool,
    /// Feed-forward experts per layer (1 for dense models).
    pub experts: u32,
    /// Experts each token is routed to.
    pub active_experts: u32,
    /// Token-embedding rows owned by this stack (0 when shared with another stack or absent).
    pub vocab_size: u32,
    /// Whether the output projection reuses the input embedding (only matters for generating stacks).
    pub tied_embeddings: bool,
    /// Learned absolute position embeddings (0 for rotary/relative positions).
    pub learned_positions: u32,
    /// Inner width of the always-active shared experts in each mixture-of-experts layer (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shared_expert_size: u32,
    /// Of `layers`, those with one dense feed-forward instead of experts (mixture-of-experts stacks).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dense_layers: u32,
    /// Inner width of the dense layers' feed-forward (with `dense_layers`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dense_intermediate_size: u32,
    /// Multi-head latent attention (DeepSeek-V2/V3, Kimi K2) instead of separate key/value heads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latent_attention: Option<LatentAttention>,
    /// DeepSeek-V4's attention (low-rank queries and output, one key/value head, a compressed
    /// cache per layer kind) instead of the standard heads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compressed_attention: Option<CompressedAttention>,
    /// DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5): each query attends to the `index_topk`
    /// cached tokens a lightning indexer scores highest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sparse_attention: Option<SparseAttention>,
    /// Local (sliding-window or chunked) attention on some of the layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sliding_window: Option<SlidingWindow>,
    /// The full-attention layers' own heads where they differ from the local layers' (Gemma 4:
    /// wider heads, fewer of them, keys projected once for keys and values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_attention: Option<FullAttention>,
    /// Of `layers`, those whose token mixer keeps a fixed-size state instead of a growing KV cache
    /// (linear attention, state-space and convolution layers of hybrid models).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recurrent_layers: u32,
    /// The token mixer of the recurrent layers, where the config describes it (without one they
    /// are counted as attention layers that cache nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_mixer: Option<StateMixer>,
    /// Width of the latent the routed experts work in (Nemotron 3 Super's `moe_latent_size`: each
    /// expert layer projects the residual stream down to it and back; 0: the residual width).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub expert_latent_size: u32,
    /// Of `layers`, those with a token mixer and no feed-forward (Nemotron-H's block pattern has
    /// fewer feed-forward blocks than mixer blocks).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mixer_only_layers: u32,
    /// Attention whose output is gated per value by a second query-sized projection (Qwen3-Next's
    /// `q_proj` produces the queries and the gate; Kimi-K3's latent attention, `mla_use_output_gate`,
    /// a full-rank gate from the residual stream).
    #[serde(default, skip_serializing_if = "is_false")]
    pub gated_attention: bool,
    /// Width of one value head where it differs from the query/key heads' `head_dim` (MiMo-V2's
    /// 128 against 192; 0: `head_dim`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub value_head_dim: u32,
    /// The normalisation each layer runs (from the config: `rms_norm_eps` vs `layer_norm_eps`).
    #[serde(default, skip_serializing_if = "Norm::is_layer_norm")]
    pub norm: Norm,
    /// Normalisations per layer besides any query/key norms (2; Gemma 2/3 wrap each block: 4).
    #[serde(default = "two", skip_serializing_if = "is_two")]
    pub norms_per_layer: u32,
    /// Normalised queries and keys before attention (Qwen3, OLMo 2, Gemma 3): two more norms a
    /// layer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub qk_norm: bool,
    /// Rotary position embeddings applied to queries and keys in every layer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rotary: bool,
    /// Learned attention sinks (gpt-oss): a logit per head that every query's softmax also
    /// normalises over. No fused attention kernel of `transformers` takes them, so eager PyTorch
    /// runs this attention as separate operations.
    #[serde(default, skip_serializing_if = "is_false")]
    pub attention_sinks: bool,
    /// Of the attention layers, the last ones that reuse the keys and values of an earlier layer
    /// of their kind (Gemma 3n's `num_kv_shared_layers`): they have no key/value projections and
    /// cache nothing, yet attend like the others.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kv_shared_layers: u32,
    /// Attention biased by learned relative positions (T5's bucketed `relative_attention_bias`),
    /// computed once per stack and step from the query and key positions.
    #[serde(default, skip_serializing_if = "is_false")]
    pub relative_position_bias: bool,
    /// The projections are GPT-2's `Conv1D` layers (weights stored transposed; the queries, keys
    /// and values in one `c_attn`, split after it).
    #[serde(default, skip_serializing_if = "is_false")]
    pub conv1d_projections: bool,
    /// The feed-forward's activation is the tanh approximation of GELU as `gelu_new` or `gelu_fast`
    /// name it (GPT-2, Phi-2, flan-T5's gated-gelu): `transformers` writes it out as tensor
    /// operations where `gelu`, `gelu_pytorch_tanh`, `silu` and `relu` are one fused call each.
    #[serde(default, skip_serializing_if = "is_false")]
    pub written_out_gelu: bool,
}

string_enum! {
    /// A transformer's normalisation layer.
    #[derive(Default)]
    pub enum Norm: "norm" {
        #[default]
        /// Mean and variance, scale and shift (BERT, GPT-2, ViT, Whisper): one fused operator in
        /// every framework.
        LayerNorm => "layer_norm",
        /// Root mean square, scale only (Llama, Mistral, Qwen, Gemma, T5), written as separate
        /// tensor operations in `transformers`.
        RmsNorm => "rms_norm",
    }
}

impl Norm {
    #[allow(clippy::trivially_copy_pass_by_ref)]
    fn is_layer_norm(&self) -> bool {
        *self == Self::LayerNorm
    }
}

/// The most parameters a model may have: 10^15, a thousand times the largest published models
/// (Kimi K2's and Ling-1T's 10^12).
pub const MAX_PARAMETERS: f64 = 1e15;

/// The most key and value values one token may cache across the layers: 2^24, seven times
/// GPT-3's 2.4 million (96 layers of 12,288-wide keys and values); with the largest batch and
/// context ([`crate::resources::MAX_BATCH_SIZE`], [`crate::resources::MAX_SEQ_LENGTH`]) at FP32
/// the cache's bytes stay within `u64`.
pub const MAX_CACHED_VALUES_PER_TOKEN: f64 = 16_777_216.0;

/// The most values one token's working set may take across the layers: 2^28, eight times
/// Llama 3.1 405B's 35 million.
pub const MAX_WORKING_VALUES_PER_TOKEN: f64 = 268_435_456.0;

/// The most tokens an image, clip or feature map may make: as many as the longest text sequence a
/// request may state ([`crate::resources::MAX_SEQ_LENGTH`], 2^20; SAM's 1024 × 1024 image in 16-pixel
/// patches makes 4,096).
#[allow(clippy::cast_precision_loss, reason = "2^20 is exact")]
pub const MAX_TOKENS_PER_ITEM: f64 = crate::resources::MAX_SEQ_LENGTH as f64;

/// The most values an image's feature maps may take: 2^30, five times the catalog's largest
/// (DETR's 216 million at COCO resolution).
pub const MAX_FEATURE_MAP_VALUES: f64 = 1_073_741_824.0;

/// The sizes a stack's config states, as [`ModelSpec::check_plausible`] bounds them.
struct StatedSizes {
    parameters: f64,
    cached_values_per_token: f64,
    working_values_per_token: f64,
}

const fn two() -> u32 {
    2
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_two(v: &u32) -> bool {
    *v == 2
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(v: &bool) -> bool {
    !*v
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// Multi-head latent attention: queries and keys/values pass through low-rank projections, and the
/// cache keeps the compressed latent plus one shared rotary key per token (as vLLM, SGLang and
/// llama.cpp cache it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LatentAttention {
    /// Rank of the query projection (0: queries projected directly).
    pub q_lora_rank: u32,
    /// Rank of the compressed key/value latent.
    pub kv_lora_rank: u32,
    /// Per-head query/key width without position encoding.
    pub qk_nope_head_dim: u32,
    /// Per-head rotary query/key width.
    pub qk_rope_head_dim: u32,
    /// Per-head value width.
    pub v_head_dim: u32,
}

/// DeepSeek-V4's attention (`deepseek_v4`; DeepSeek-V4 technical report §2.3): the queries through
/// a low-rank projection, one key/value head whose keys are its values (`head_dim` wide), the
/// output through `o_groups` grouped low-rank projections. Every layer attends to its last
/// `window` tokens; besides them, a compressed-sparse-attention (CSA) layer pools every
/// `sparse_ratio` tokens (overlapping windows: its compressor projects twice the head width) into
/// one cached entry and attends to the `index_topk` entries its lightning indexer (`index_heads` ×
/// `index_head_dim`, its own cached keys) scores highest; a heavily-compressed-attention (HCA)
/// layer pools every `heavy_ratio` tokens and attends to every entry. The other layers attend to
/// the window only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompressedAttention {
    /// Rank of the query projection.
    pub q_lora_rank: u32,
    /// Groups of heads the output projection is split into.
    pub o_groups: u32,
    /// Rank of each group's output projection.
    pub o_lora_rank: u32,
    /// Recent tokens every layer attends to uncompressed.
    pub window: u32,
    /// Layers with compressed sparse attention.
    pub sparse_layers: u32,
    /// Tokens per compressed entry of a CSA layer.
    pub sparse_ratio: u32,
    /// The indexer's heads.
    pub index_heads: u32,
    /// The indexer's head width.
    pub index_head_dim: u32,
    /// Compressed entries a CSA query attends to.
    pub index_topk: u32,
    /// Layers with heavily compressed attention.
    pub heavy_layers: u32,
    /// Tokens per compressed entry of an HCA layer.
    pub heavy_ratio: u32,
}

impl CompressedAttention {
    /// Parameters of one layer's attention: query down and up, the key/value head, the grouped
    /// output down and up.
    fn parameters_per_layer(&self, hidden: u64, heads: u64, head_dim: u64) -> u64 {
        let q_rank = u64::from(self.q_lora_rank);
        let queries = heads * head_dim;
        let o_rank = u64::from(self.o_lora_rank);
        hidden * q_rank
            + q_rank * queries
            + hidden * head_dim
            + queries * o_rank
            + u64::from(self.o_groups) * o_rank * hidden
    }

    /// Parameters of every layer's compressor: a CSA layer's key/value and gate projections at
    /// twice the head width and its indexer (queries from the query latent, keys and gates at twice
    /// its head width, a weight per head); an HCA layer's key/value and gate projections.
    fn compressor_parameters(&self, hidden: u64, head_dim: u64) -> u64 {
        let q_rank = u64::from(self.q_lora_rank);
        let index_width = u64::from(self.index_heads) * u64::from(self.index_head_dim);
        let indexer = q_rank * index_width
            + 2 * hidden * 2 * u64::from(self.index_head_dim)
            + hidden * u64::from(self.index_heads);
        let sparse = 2 * hidden * 2 * head_dim + indexer;
        let heavy = 2 * hidden * head_dim;
        u64::from(self.sparse_layers) * sparse + u64::from(self.heavy_layers) * heavy
    }

    /// Cached entries one query of a layer of each kind attends to over `context` tokens, and the
    /// indexer's scored entries: (all layers' window, CSA entries, HCA entries, indexed entries),
    /// summed over the layers.
    fn attended(&self, layers: u64, context: u64) -> (u64, u64, u64, u64) {
        let window = layers * context.min(u64::from(self.window));
        let sparse_entries = context / u64::from(self.sparse_ratio.max(1));
        let sparse = u64::from(self.sparse_layers) * sparse_entries.min(u64::from(self.index_topk));
        let heavy = u64::from(self.heavy_layers) * (context / u64::from(self.heavy_ratio.max(1)));
        let indexed = u64::from(self.sparse_layers) * sparse_entries;
        (window, sparse, heavy, indexed)
    }

    /// Values every layer caches for `tokens` tokens: the window's keys (the values), the CSA
    /// entries with their indexer keys, the HCA entries.
    fn cached_values(&self, layers: u64, tokens: u64, head_dim: u64) -> u64 {
        let window = layers * tokens.min(u64::from(self.window)) * head_dim;
        let sparse = u64::from(self.sparse_layers)
            * (tokens / u64::from(self.sparse_ratio.max(1)))
            * (head_dim + u64::from(self.index_head_dim));
        let heavy = u64::from(self.heavy_layers) * (tokens / u64::from(self.heavy_ratio.max(1))) * head_dim;
        window.saturating_add(sparse).saturating_add(heavy)
    }
}

/// Sparse attention chosen by an indexer: DeepSeek Sparse Attention (DeepSeek-V3.2 technical
/// report §2.1; GLM-5) — a lightning indexer (`index_heads` × `index_head_dim`: queries from the
/// query latent, one key per token that the cache keeps, a weight per head) scores every cached
/// token, and each query attends to the `index_topk` highest — and MiniMax Sparse Attention
/// (MiniMax-M3: the indexer's scores max-pooled into blocks, each query attending to its top blocks
/// and the block before it: `index_topk` tokens in all). Layers whose indexer is `shared`
/// (GLM-5.2's `indexer_types`) reuse the previous indexer's choice: no indexer of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SparseAttention {
    /// The indexer's heads.
    pub index_heads: u32,
    /// The indexer's head width (its cached key's width).
    pub index_head_dim: u32,
    /// Tokens each query attends to.
    pub index_topk: u32,
    /// Layers with an indexer of their own.
    pub indexed_layers: u32,
    /// Whether the indexer weighs its heads with a projection of its own (DeepSeek's
    /// `weights_proj`; MiniMax-M3's block indexer has none).
    #[serde(default, skip_serializing_if = "is_false")]
    pub weighted_heads: bool,
}

impl SparseAttention {
    /// Parameters of the indexers: queries from a `q_rank` latent (the hidden state without one),
    /// a key and a weight per head from the hidden state.
    fn parameters(&self, hidden: u64, q_rank: u64) -> u64 {
        let from = if q_rank > 0 { q_rank } else { hidden };
        let heads = u64::from(self.index_heads);
        let dim = u64::from(self.index_head_dim);
        let weights = if self.weighted_heads { hidden * heads } else { 0 };
        u64::from(self.indexed_layers) * (from * heads * dim + hidden * dim + weights)
    }
}

/// Local attention on some layers: each of them attends to (and caches) at most `window` tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SlidingWindow {
    /// Tokens a local layer attends to.
    pub window: u32,
    /// How many of the stack's layers are local (the others attend to the whole context).
    pub layers: u32,
}

/// The heads of a stack's full-attention layers where they differ from its local layers'
/// (Gemma 4's `global_head_dim`, `num_global_key_value_heads` and `attention_k_eq_v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FullAttention {
    /// Key/value heads.
    pub kv_heads: u32,
    /// Width of one query, key and value head.
    pub head_dim: u32,
    /// One projection makes the keys and (normalised apart) the values: no value projection.
    pub keys_as_values: bool,
}

string_enum! {
    /// The fixed-state token mixer of a hybrid model's recurrent layers.
    pub enum MixerKind: "mixer kind" {
        /// Mamba-2's selective state space (Granite 4, Falcon-H1, Nemotron-H, Bamba): the input
        /// projection yields the gate, the inner stream, the B and C groups and a time step per head.
        Mamba2 => "mamba2",
        /// Gated DeltaNet linear attention (Qwen3-Next): queries, keys, values and an output gate,
        /// a decay and a write strength per value head.
        GatedDeltaNet => "gated_delta_net",
        /// Kimi Delta Attention (Kimi Linear, Kimi-K3): Gated DeltaNet's queries, keys, values
        /// and write strength per head, with a decay per channel (a low-rank projection through
        /// `head_dim`) and an output gate per value, full-rank or low-rank ([`StateMixer::gate_rank`]).
        KimiDeltaAttention => "kimi_delta_attention",
        /// A gated short convolution (LFM2): the input projection yields two gates and the stream,
        /// a depthwise filter of a few taps mixes along time; no state beyond the filter's inputs.
        ShortConv => "short_conv",
    }
}

/// The token mixer of a hybrid stack's recurrent layers, by the widths its config states. Mamba-2
/// and Gated DeltaNet project the residual stream to an inner stream of `heads × head_dim` values (and as many
/// again for the output gate) and to queries and keys of `key_groups × key_dim` (Mamba-2: the C and
/// B groups of `d_state`), convolve the inner stream, queries and keys along time with a
/// `conv_kernel`-tap filter, keep a `head_dim × key_dim` state per head, and project the inner
/// stream back to the residual width. The short convolution is one head of the residual width, no
/// queries or keys, no state beyond its filter's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StateMixer {
    /// Which mixer.
    pub kind: MixerKind,
    /// Heads of the inner stream (Mamba-2's `mamba_n_heads`; DeltaNet's value heads).
    pub heads: u32,
    /// Width of one head of the inner stream.
    pub head_dim: u32,
    /// Query/key groups (Mamba-2's `n_groups`; DeltaNet's key heads).
    pub key_groups: u32,
    /// Width of one group's queries and keys (Mamba-2's state size; DeltaNet's key head width).
    pub key_dim: u32,
    /// Taps of the causal convolution along time.
    pub conv_kernel: u32,
    /// The heads' state is kept in fp32 whatever the model's precision (Nemotron 3's
    /// `mamba_ssm_cache_dtype`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fp32_state: bool,
    /// Kimi Delta Attention's output gate through a rank this wide (Kimi Linear: `head_dim`); 0 a
    /// full-rank gate (Kimi-K3's `use_full_rank_gate`) or, for other mixers, none of its own.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gate_rank: u32,
}

impl StateMixer {
    fn inner(&self) -> u64 {
        u64::from(self.heads) * u64::from(self.head_dim)
    }

    fn keys(&self) -> u64 {
        u64::from(self.key_groups) * u64::from(self.key_dim)
    }

    /// Outputs of the input projection: the gate and the inner stream, queries and keys, and the
    /// per-head scalars (Mamba-2: a time step; DeltaNet: a decay and a write strength); the short
    /// convolution's two gates and stream.
    fn input_width(&self) -> u64 {
        let heads = u64::from(self.heads);
        match self.kind {
            MixerKind::Mamba2 => 2 * self.inner() + 2 * self.keys() + heads,
            MixerKind::GatedDeltaNet => 2 * self.inner() + 2 * self.keys() + 2 * heads,
            // Values, queries, keys, the write strength per head, the decay's low-rank down
            // projection, and the gate (full-rank, or its low-rank down projection).
            MixerKind::KimiDeltaAttention => {
                let gate = match self.gate_rank {
                    0 => self.inner(),
                    rank => u64::from(rank),
                };
                self.inner() + 2 * self.keys() + heads + u64::from(self.head_dim) + gate
            }
            MixerKind::ShortConv => 3 * self.inner(),
        }
    }

    /// Parameters of the low-rank up projections beyond the input projection: Kimi Delta
    /// Attention's decay (`head_dim` → the inner width) and its low-rank gate's.
    fn low_rank_up_parameters(&self) -> u64 {
        match self.kind {
            MixerKind::KimiDeltaAttention => {
                let gates = if self.gate_rank == 0 {
                    0
                } else {
                    u64::from(self.gate_rank)
                };
                (u64::from(self.head_dim) + gates) * self.inner()
            }
            _ => 0,
        }
    }

    /// Channels the convolution filters: the inner stream, queries and keys.
    fn conv_channels(&self) -> u64 {
        self.inner() + 2 * self.keys()
    }

    /// Values of the per-head state (none for the short convolution).
    fn head_state_values(&self) -> u64 {
        u64::from(self.heads) * u64::from(self.head_dim) * u64::from(self.key_dim)
    }

    /// Parameters of one layer's mixer: the input projection, the convolution filter and the
    /// output projection (per-head constants, biases and the norm, under 0.1 %, are left out as for
    /// attention).
    #[must_use]
    pub fn parameters_per_layer(&self, hidden_size: u32) -> u64 {
        let h = u64::from(hidden_size);
        h * self.input_width()
            + self.low_rank_up_parameters()
            + self.conv_channels() * u64::from(self.conv_kernel)
            + self.inner() * h
    }

    /// The convolution's last `conv_kernel − 1` inputs, kept per sequence.
    fn conv_values(&self) -> u64 {
        self.conv_channels() * u64::from(self.conv_kernel.saturating_sub(1))
    }

    /// Bytes one sequence keeps per layer, whatever its length — each head's `head_dim × key_dim`
    /// state and the convolution's last inputs — with values of `bytes_per_value` (the heads' state
    /// at 4 where the model keeps it in fp32).
    #[must_use]
    pub fn state_bytes_per_layer(&self, bytes_per_value: u64) -> u64 {
        let head_bytes = if self.fp32_state { 4 } else { bytes_per_value };
        self.head_state_values() * head_bytes + self.conv_values() * bytes_per_value
    }

    /// FLOPs per token of one layer beyond its projections: the convolution, and updating and
    /// reading the state (a multiply-accumulate per state value each).
    #[must_use]
    pub fn scan_flops_per_token(&self) -> u64 {
        4 * self.head_state_values() + 2 * self.conv_channels() * u64::from(self.conv_kernel)
    }
}

/// A convolutional network described by its published figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConvNet {
    /// Parameters (published).
    pub parameters: u64,
    /// Forward FLOPs per image (2 × published multiply-accumulates).
    pub flops_per_item: u64,
    /// Elements of the largest feature map live at once in a forward pass.
    pub peak_activation_elements: u64,
    /// Elements of all convolution/pooling outputs (kept for the backward pass in training).
    pub total_activation_elements: u64,
    /// Input side in pixels the figures refer to.
    pub image_size: u32,
    /// Convolution and linear layers (published depth): the kernels a step dispatches; 0 unknown.
    #[serde(default)]
    pub layers: u32,
}

/// One part of a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all_fields(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(
    clippy::large_enum_variant,
    reason = "transformer stacks are nearly every component; boxing them would add an indirection to each"
)]
pub enum Component {
    /// A transformer stack.
    Transformer(TransformerStack),
    /// A convolutional network.
    Conv(ConvNet),
    /// A dense extra (multimodal projector, audio feature encoder) with its parameter count and
    /// forward FLOPs per item.
    Dense {
        /// What it is.
        name: String,
        /// Parameters.
        parameters: u64,
        /// Forward FLOPs per item.
        flops_per_item: u64,
        /// Operators eager PyTorch dispatches for it in a forward pass, where they were counted
        /// (0: a product and its activation).
        #[serde(default, skip_serializing_if = "is_zero")]
        operators: u32,
    },
}

/// The architecture facts of one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelSpec {
    /// Canonical name (the Hugging Face id where there is one).
    pub name: String,
    /// Family.
    pub family: Family,
    /// Subfamily.
    pub subfamily: Subfamily,
    /// The model's parts.
    pub components: Vec<Component>,
    /// Longest text sequence the model accepts (its `max_position_embeddings` or equivalent).
    pub max_positions: u32,
}

impl TransformerStack {
    /// Query/key width plus value width over all heads, halved: the per-token, per-context-token
    /// multiply-accumulates of attention scores and the weighted sum.
    fn attention_width(&self) -> u64 {
        let heads = u64::from(self.attention_heads);
        match self.latent_attention {
            Some(m) => heads * u64::from(m.qk_nope_head_dim + m.qk_rope_head_dim + m.v_head_dim) / 2,
            None => heads * (u64::from(self.head_dim) + u64::from(self.value_width(self.head_dim))) / 2,
        }
    }

    /// Width of one value head beside query/key heads `head_dim` wide.
    fn value_width(&self, head_dim: u32) -> u32 {
        match self.value_head_dim {
            0 => head_dim,
            v => v,
        }
    }

    /// The attention width of the full-attention layers (their own heads, where they differ).
    fn full_attention_width(&self) -> u64 {
        match self.full_attention {
            Some(f) => {
                u64::from(self.attention_heads) * (u64::from(f.head_dim) + u64::from(self.value_width(f.head_dim))) / 2
            }
            None => self.attention_width(),
        }
    }

    /// Parameters of one full-attention layer's attention (their own heads, where they differ from
    /// the local layers').
    fn full_attention_parameters_per_layer(&self) -> u64 {
        let Some(f) = self.full_attention else {
            return self.attention_parameters_per_layer();
        };
        let h = u64::from(self.hidden_size);
        let heads = u64::from(self.attention_heads);
        let (key, value) = (u64::from(f.head_dim), u64::from(self.value_width(f.head_dim)));
        let kv = u64::from(f.kv_heads) * if f.keys_as_values { key } else { key + value };
        h * heads * key + heads * value * h + h * kv
    }

    /// Attention layers of each kind: (full, local).
    fn attention_layer_kinds(&self) -> (u64, u64) {
        let attending = self.attention_layers();
        let local = self.sliding_window.map_or(0, |w| w.layers.min(attending));
        (u64::from(attending - local), u64::from(local))
    }

    /// Parameters of one layer's attention blocks (Q, K, V, O; twice for cross-attending decoders;
    /// the low-rank projections under latent attention).
    #[must_use]
    pub fn attention_parameters_per_layer(&self) -> u64 {
        let h = u64::from(self.hidden_size);
        let heads = u64::from(self.attention_heads);
        if let Some(c) = self.compressed_attention {
            return c.parameters_per_layer(h, heads, u64::from(self.head_dim));
        }
        if let Some(m) = self.latent_attention {
            let qk = heads * u64::from(m.qk_nope_head_dim + m.qk_rope_head_dim);
            let q = match u64::from(m.q_lora_rank) {
                0 => h * qk,
                rank => h * rank + rank * qk,
            };
            let kv_rank = u64::from(m.kv_lora_rank);
            let kv_down = h * (kv_rank + u64::from(m.qk_rope_head_dim));
            let kv_up = kv_rank * heads * u64::from(m.qk_nope_head_dim + m.v_head_dim);
            let out = heads * u64::from(m.v_head_dim) * h;
            // Kimi-K3's gated latent attention: a full-rank gate per value.
            let gate = if self.gated_attention { out } else { 0 };
            return q + kv_down + kv_up + out + gate;
        }
        let (key, value) = (u64::from(self.head_dim), u64::from(self.value_width(self.head_dim)));
        // Queries (and Qwen3-Next's gate) at the key width; the output reads the value heads.
        let query_sized = if self.gated_attention { 2 } else { 1 };
        let one = query_sized * h * heads * key + heads * value * h + h * u64::from(self.kv_heads) * (key + value);
        if self.role == StackRole::CrossDecoder {
            2 * one
        } else {
            one
        }
    }

    fn ffn_matrices(&self) -> u64 {
        if self.gated_ffn {
            3
        } else {
            2
        }
    }

    /// Feed-forward parameters of one expert in one layer (the whole feed-forward of a dense layer);
    /// latent experts read and write the latent width instead of the residual one.
    #[must_use]
    pub fn ffn_parameters_per_expert(&self) -> u64 {
        let width = match self.expert_latent_size {
            0 => self.hidden_size,
            latent => latent,
        };
        self.ffn_matrices() * u64::from(width) * u64::from(self.intermediate_size)
    }

    /// Layers with a feed-forward (all but the mixer-only ones).
    #[must_use]
    pub fn ffn_layers(&self) -> u32 {
        self.layers.saturating_sub(self.mixer_only_layers)
    }

    /// Layers whose feed-forward is a mixture of experts (0 for dense stacks).
    #[must_use]
    pub fn moe_layers(&self) -> u32 {
        if self.experts > 1 {
            self.ffn_layers().saturating_sub(self.dense_layers)
        } else {
            0
        }
    }

    /// Feed-forward parameters every token passes through, per stack: dense layers' feed-forwards
    /// and the shared experts of mixture-of-experts layers.
    fn always_active_ffn_parameters(&self) -> u64 {
        let h = u64::from(self.hidden_size);
        if self.experts <= 1 {
            return u64::from(self.ffn_layers()) * self.ffn_parameters_per_expert();
        }
        let dense = u64::from(self.dense_layers) * self.ffn_matrices() * h * u64::from(self.dense_intermediate_size);
        let shared = u64::from(self.moe_layers()) * self.ffn_matrices() * h * u64::from(self.shared_expert_size);
        let router = u64::from(self.moe_layers()) * h * u64::from(self.experts);
        let latent = u64::from(self.moe_layers()) * 2 * h * u64::from(self.expert_latent_size);
        dense + shared + router + latent
    }

    /// Parameters of the routed experts, over all layers.
    #[must_use]
    pub fn routed_expert_parameters(&self) -> u64 {
        u64::from(self.moe_layers()) * u64::from(self.experts) * self.ffn_parameters_per_expert()
    }

    /// Embedding, position, patch and output-projection parameters.
    #[must_use]
    pub fn embedding_parameters(&self) -> u64 {
        let h = u64::from(self.hidden_size);
        let vocab = u64::from(self.vocab_size) * h;
        let output = if self.generates() && !self.tied_embeddings {
            vocab
        } else {
            0
        };
        let patches = match self.input {
            Modality::Image {
                patch_size,
                register_tokens,
                ..
            } => (3 * u64::from(patch_size).pow(2) + u64::from(register_tokens)) * h,
            _ => 0,
        };
        vocab + output + u64::from(self.learned_positions) * h + patches
    }

    /// Parameters of every layer's token mixer: attention (the key/value-sharing layers have no key
    /// and value projections) or, in the recurrent layers of a hybrid stack, its state mixer.
    fn attention_parameters(&self) -> u64 {
        let kv_projections = 2 * u64::from(self.hidden_size) * u64::from(self.kv_heads) * u64::from(self.head_dim);
        let (mixer_layers, mixers) = self.described_mixer().map_or((0, 0), |(layers, m)| {
            (layers, layers * m.parameters_per_layer(self.hidden_size))
        });
        let attending = u64::from(self.layers) - mixer_layers;
        let full = self.attention_layer_kinds().0.min(attending);
        ((attending - full) * self.attention_parameters_per_layer() + full * self.full_attention_parameters_per_layer())
            .saturating_sub(u64::from(self.kv_shared_layers) * kv_projections)
            + self.compressed_attention.map_or(0, |c| {
                c.compressor_parameters(u64::from(self.hidden_size), u64::from(self.head_dim))
            })
            + self.sparse_attention.map_or(0, |d| {
                let q_rank = self.latent_attention.map_or(0, |m| u64::from(m.q_lora_rank));
                d.parameters(u64::from(self.hidden_size), q_rank)
            })
            + mixers
    }

    /// Recurrent layers whose state mixer is described, with it.
    fn described_mixer(&self) -> Option<(u64, StateMixer)> {
        self.state_mixer
            .map(|m| (u64::from(self.recurrent_layers.min(self.layers)), m))
    }

    /// Bytes of the fixed state one sequence keeps in the recurrent layers (decoders only; none
    /// without a described mixer).
    #[must_use]
    pub fn recurrent_state_bytes(&self, bytes_per_value: u64) -> u64 {
        match (self.role, self.described_mixer()) {
            (StackRole::Encoder, _) | (_, None) => 0,
            (_, Some((layers, m))) => layers * m.state_bytes_per_layer(bytes_per_value),
        }
    }

    /// The sizes the config states, in floating point so that no size overflows before it is
    /// checked: an upper estimate of the parameters (every projection at the widest of the
    /// widths, every feed-forward at the widest inner width, the embeddings twice) and the values
    /// one token's keys and values and one token's working set take across the layers (a
    /// recurrent layer's state is per sequence, not per token).
    fn stated_sizes(&self) -> StatedSizes {
        let f = f64::from;
        let layers = f(self.layers);
        let h = f(self.hidden_size);
        let q = f(self.attention_heads) * f(self.head_dim);
        let kv = f(self.kv_heads.max(self.attention_heads)) * f(self.head_dim);
        let latent = self.latent_attention.map_or(0.0, |m| {
            f(m.q_lora_rank) + f(m.kv_lora_rank) + f(m.qk_rope_head_dim) + f(m.qk_nope_head_dim) + f(m.v_head_dim)
        });
        let widths = [
            self.intermediate_size,
            self.dense_intermediate_size,
            self.shared_expert_size,
        ];
        let inner = f(widths.into_iter().max().unwrap_or(0));
        let width = h.max(f(self.expert_latent_size));
        let mixer = self.state_mixer.map_or(0.0, |m| {
            f(m.heads) * f(m.head_dim.max(1)) * (f(m.key_dim.max(1)) + f(m.conv_kernel) + 1.0) * f(m.key_groups.max(1))
        });
        let per_layer = h * (2.0 * q + 2.0 * kv + latent * f(self.attention_heads).max(1.0))
            + 3.0 * width * inner * (f(self.experts.max(1)) + 1.0)
            + h * mixer;
        StatedSizes {
            parameters: layers * per_layer + 2.0 * f(self.vocab_size) * h + f(self.learned_positions) * h,
            cached_values_per_token: layers * (2.0 * kv + latent),
            working_values_per_token: layers * (5.0 * h + 2.0 * q + 3.0 * inner * f(self.active_experts.max(1))),
        }
    }

    /// All parameters (norms and biases, under 0.5 % for every catalog model, are left out).
    #[must_use]
    pub fn parameters(&self) -> u64 {
        self.attention_parameters()
            + self.always_active_ffn_parameters()
            + self.routed_expert_parameters()
            + self.embedding_parameters()
    }

    /// Non-embedding parameters a token passes through (mixture of experts: the shared parts and
    /// the routed experts it picks).
    #[must_use]
    pub fn active_layer_parameters(&self) -> u64 {
        let routed = u64::from(self.moe_layers()) * u64::from(self.active_experts) * self.ffn_parameters_per_expert();
        self.attention_parameters() + self.always_active_ffn_parameters() + routed
    }

    /// Parameters of the experts a batch of `tokens` reaches: each token picks `active_experts` of
    /// `experts`; with routing spread evenly, the expected number of distinct experts per layer is
    /// `E × (1 − (1 − k/E)^tokens)` — `k` for one token, nearly all of them for a large batch.
    #[must_use]
    pub fn reached_expert_parameters(&self, tokens: u64) -> u64 {
        if self.moe_layers() == 0 {
            return 0;
        }
        let experts = f64::from(self.experts);
        let missed = libm::pow(1.0 - f64::from(self.active_experts) / experts, tokens as f64);
        let reached = (experts * (1.0 - missed)).min(experts);
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a positive count below 2^53"
        )]
        let parameters =
            libm::round(reached * f64::from(self.moe_layers()) * self.ffn_parameters_per_expert() as f64) as u64;
        parameters
    }

    /// Parameters the matrix products of a step over `tokens` tokens read: every layer's attention,
    /// the feed-forwards every token passes through, the experts the tokens reach, the patch
    /// projection and the output projection over the vocabulary. Embedding and position tables are
    /// looked up row by row, not read whole (a tied table is read once, as the output projection).
    #[must_use]
    pub fn matmul_parameters(&self, tokens: u64) -> u64 {
        self.attention_parameters()
            + self.always_active_ffn_parameters()
            + self.reached_expert_parameters(tokens)
            + self.projected_table_parameters()
    }

    /// The tables a step multiplies by rather than looks up: the output projection over the
    /// vocabulary (generating stacks) and the patch projection (image stacks).
    fn projected_table_parameters(&self) -> u64 {
        let h = u64::from(self.hidden_size);
        let output = if self.generates() {
            u64::from(self.vocab_size) * h
        } else {
            0
        };
        let patches = match self.input {
            Modality::Image { patch_size, .. } => 3 * u64::from(patch_size).pow(2) * h,
            _ => 0,
        };
        output + patches
    }

    /// Bytes of `parameters` split by role at `precision`: checkpoint formats keep the embedding
    /// and output tables in 16 bits, and MXFP4 checkpoints of mixture-of-experts models quantize only
    /// the experts (gpt-oss keeps attention and the router in bf16).
    fn split_bytes(&self, precision: Precision, embeddings: u64, experts: u64) -> f64 {
        let layers = self.attention_parameters() + self.always_active_ffn_parameters();
        let layer_bits = if precision.quantizes_only_experts() && self.routed_expert_parameters() > 0 {
            precision.embedding_bits()
        } else {
            precision.bits_per_weight()
        };
        (embeddings as f64 * precision.embedding_bits()
            + layers as f64 * layer_bits
            + experts as f64 * precision.bits_per_weight())
            / 8.0
    }

    /// Bytes of all the stack's weights stored at `precision`.
    #[must_use]
    pub fn weight_bytes(&self, precision: Precision) -> f64 {
        self.split_bytes(precision, self.embedding_parameters(), self.routed_expert_parameters())
    }

    /// Bytes the matrix products of a step over `tokens` tokens read at `precision` (see
    /// [`Self::matmul_parameters`]).
    #[must_use]
    pub fn matmul_weight_bytes(&self, precision: Precision, tokens: u64) -> f64 {
        self.split_bytes(
            precision,
            self.projected_table_parameters(),
            self.reached_expert_parameters(tokens),
        )
    }

    /// Layers that attend over the context (all but the recurrent ones).
    fn attention_layers(&self) -> u32 {
        self.layers.saturating_sub(self.recurrent_layers)
    }

    /// Whether the stack produces tokens (has an output projection over the vocabulary).
    #[must_use]
    pub fn generates(&self) -> bool {
        matches!(self.role, StackRole::Decoder | StackRole::CrossDecoder) && self.vocab_size > 0
    }

    /// Tokens per item: the sequence length for text, patches, class and register tokens for images,
    /// frames for audio, the grid for a feature map.
    #[must_use]
    pub fn tokens_per_item(&self, seq_length: u32) -> u64 {
        match self.input {
            Modality::Text => u64::from(seq_length),
            Modality::Image {
                image_size,
                patch_size,
                register_tokens,
            } => u64::from(image_size / patch_size.max(1))
                .saturating_pow(2)
                .saturating_add(1 + u64::from(register_tokens)),
            Modality::Audio { frames } => u64::from(frames),
            Modality::FeatureMap { side } => u64::from(side).saturating_pow(2),
        }
    }

    /// Forward FLOPs for one token attending to `context` tokens (Kaplan et al. 2020, Table 1:
    /// 2·N + 2·n_layer·n_ctx·d_attn), plus the 2·d·V output projection for generating stacks.
    #[must_use]
    pub fn flops_per_token(&self, context: u64) -> u64 {
        if let Some(c) = self.compressed_attention {
            // Each attended entry costs what a context token costs a standard head; the indexer
            // scores every CSA entry with its own heads (products of queries and keys only).
            let (window, sparse, heavy, indexed) = c.attended(u64::from(self.attention_layers()), context);
            let index_width = u64::from(c.index_heads) * u64::from(c.index_head_dim);
            let attention = 2 * (window + sparse + heavy) * self.attention_width() + 2 * indexed * index_width;
            return 2 * self.active_layer_parameters() + attention + self.logit_flops_per_token();
        }
        let (full, local) = self.attention_layer_kinds();
        // Under sparse attention a query attends to its top-k tokens; the indexers score them all.
        let (attended, indexer) = self.sparse_attention.map_or((context, 0), |d| {
            let scored = u64::from(d.indexed_layers) * context * u64::from(d.index_heads) * u64::from(d.index_head_dim);
            (context.min(u64::from(d.index_topk)), 2 * scored)
        });
        let local_context = self
            .sliding_window
            .map_or(attended, |w| attended.min(u64::from(w.window)));
        let attention = 2
            * (full * attended * self.full_attention_width() + local * local_context * self.attention_width())
            + indexer;
        let scan = self
            .described_mixer()
            .map_or(0, |(layers, m)| layers * m.scan_flops_per_token());
        2 * self.active_layer_parameters() + attention + scan + self.logit_flops_per_token()
    }

    /// FLOPs of the output projection for one token's logits (2·d·V; none for a stack that does
    /// not generate).
    #[must_use]
    pub fn logit_flops_per_token(&self) -> u64 {
        if self.generates() {
            2 * u64::from(self.hidden_size) * u64::from(self.vocab_size)
        } else {
            0
        }
    }

    /// Values one layer caches per token: a key and a value per key/value head, or the latent and
    /// the rotary key under latent attention; none for encoders.
    fn kv_values_per_token_per_layer(&self) -> u64 {
        match (self.role, self.latent_attention) {
            (StackRole::Encoder, _) => 0,
            (_, Some(m)) => u64::from(m.kv_lora_rank + m.qk_rope_head_dim),
            (_, None) => u64::from(self.kv_heads) * u64::from(self.head_dim + self.value_width(self.head_dim)),
        }
    }

    /// Values one full-attention layer caches per token (its own heads, where they differ).
    fn full_kv_values_per_token_per_layer(&self) -> u64 {
        match (self.role, self.full_attention) {
            (StackRole::Encoder, _) => 0,
            (_, Some(f)) => u64::from(f.kv_heads) * u64::from(f.head_dim + self.value_width(f.head_dim)),
            (_, None) => self.kv_values_per_token_per_layer(),
        }
    }

    /// Values every attention layer caches per token, the full and the local ones each at their
    /// own width.
    fn kv_values_per_token(&self, tokens: u64) -> u64 {
        if let (Some(c), false) = (self.compressed_attention, self.role == StackRole::Encoder) {
            return c.cached_values(u64::from(self.attention_layers()), tokens, u64::from(self.head_dim));
        }
        let (full, local) = self.attention_layer_kinds();
        let local_tokens = self.sliding_window.map_or(tokens, |w| tokens.min(u64::from(w.window)));
        // The indexers' keys, one per token and indexed layer.
        let indexer_keys = self.sparse_attention.map_or(0, |d| {
            u64::from(d.indexed_layers)
                .saturating_mul(tokens)
                .saturating_mul(u64::from(d.index_head_dim))
        });
        (full.saturating_mul(tokens))
            .saturating_mul(self.full_kv_values_per_token_per_layer())
            .saturating_add(
                local
                    .saturating_mul(local_tokens)
                    .saturating_mul(self.kv_values_per_token_per_layer()),
            )
            .saturating_add(indexer_keys)
    }

    /// Attention layers that cache keys and values (all but the sharing ones).
    fn caching_layers(&self) -> u32 {
        self.attention_layers().saturating_sub(self.kv_shared_layers)
    }

    /// Key and value bytes cached per token per sequence while the context is within every local
    /// window (decoders only).
    #[must_use]
    pub fn kv_cache_bytes_per_token(&self, bytes_per_value: u64) -> u64 {
        self.caching_share(self.kv_values_per_token(1).saturating_mul(bytes_per_value))
    }

    /// Key and value bytes one sequence of `tokens` caches: local layers keep only their window;
    /// key/value-sharing layers keep nothing (they share local and global layers in the stack's
    /// proportion, as Gemma 3n's repeating pattern does); recurrent layers keep their fixed state.
    #[must_use]
    pub fn kv_cache_bytes(&self, tokens: u64, bytes_per_value: u64) -> u64 {
        let all = self.kv_values_per_token(tokens).saturating_mul(bytes_per_value);
        self.caching_share(all) + self.recurrent_state_bytes(bytes_per_value)
    }

    /// The caching layers' share of what every attention layer would cache, never more than it:
    /// in u128, so that the product of a huge (fuzzed) cache and layer count cannot overflow
    /// before the division.
    fn caching_share(&self, all: u64) -> u64 {
        match self.attention_layers() {
            0 => 0,
            layers => {
                let share = u128::from(all) * u128::from(self.caching_layers()) / u128::from(layers);
                u64::try_from(share).unwrap_or(all)
            }
        }
    }

    /// Activation bytes per token of one layer kept for the backward pass (Korthikanti et al. 2022,
    /// Eq. 1, with 16-bit activations: 11h attention + 4h norms + 19h MLP, the MLP terms generalized to
    /// the real inner width `i` as 3h + 4i (+2i when gated), and memory-efficient attention, so no
    /// s² score term). GELU's tanh form written out in separate calls (GPT-2's `gelu_new`) has
    /// autograd save three more inner-width tensors than a fused GELU: the tanh's output and both
    /// factors of the final product (+6i). Scaled by `bytes_per_value / 2` for other activation
    /// widths. Query/key norms (`qk_norm`, transformers' RMS norm in separate calls) also keep the
    /// projections' outputs in fp32 for their backward pass: 4 bytes per query and key value.
    #[must_use]
    pub fn training_activation_bytes_per_token_per_layer(&self, bytes_per_value: u64) -> u64 {
        let h = u64::from(self.hidden_size);
        let i = u64::from(self.intermediate_size) * u64::from(self.active_experts.max(1));
        let written_out_gelu = if self.written_out_gelu { 6 * i } else { 0 };
        let mlp = 3 * h + 4 * i + if self.gated_ffn { 2 * i } else { 0 } + written_out_gelu;
        let qk_norm = if self.qk_norm {
            4 * u64::from(self.attention_heads + self.kv_heads) * u64::from(self.head_dim)
        } else {
            0
        };
        (15 * h + mlp) * bytes_per_value / 2 + qk_norm
    }

    /// Activation bytes per token live at once during inference: the residual stream, Q/K/V, the
    /// attention output and the feed-forward inner activations of one layer.
    #[must_use]
    pub fn inference_activation_bytes_per_token(&self, bytes_per_value: u64) -> u64 {
        let h = u64::from(self.hidden_size);
        let i = u64::from(self.intermediate_size) * u64::from(self.active_experts.max(1));
        (5 * h + self.ffn_matrices().saturating_sub(1) * i) * bytes_per_value
    }
}

impl Component {
    /// Parameters of this component.
    #[must_use]
    pub fn parameters(&self) -> u64 {
        match self {
            Self::Transformer(t) => t.parameters(),
            Self::Conv(c) => c.parameters,
            Self::Dense { parameters, .. } => *parameters,
        }
    }

    /// Forward FLOPs for one item (one sequence of `seq_length` tokens, one image, one clip).
    #[must_use]
    pub fn flops_per_item(&self, seq_length: u32) -> u64 {
        match self {
            Self::Transformer(t) => {
                let tokens = t.tokens_per_item(seq_length);
                // Encoders attend to all tokens; causal stacks to half of them on average.
                let context = match t.role {
                    StackRole::Encoder => tokens,
                    _ => tokens.div_ceil(2),
                };
                tokens.saturating_mul(t.flops_per_token(context))
            }
            Self::Conv(c) => c.flops_per_item,
            Self::Dense { flops_per_item, .. } => *flops_per_item,
        }
    }
}

impl ModelSpec {
    /// Total parameters.
    #[must_use]
    pub fn parameters(&self) -> u64 {
        self.components.iter().map(Component::parameters).sum()
    }

    /// Whether a stack reads text, so that the sequence length is the model's input; an image or
    /// audio model's tokens come from its input size, whatever sequence length a request states.
    #[must_use]
    pub fn reads_text(&self) -> bool {
        self.stacks().any(|s| s.input == Modality::Text)
    }

    /// Transformer stacks of the model.
    pub fn stacks(&self) -> impl Iterator<Item = &TransformerStack> {
        self.components.iter().filter_map(|c| match c {
            Component::Transformer(t) => Some(t),
            _ => None,
        })
    }

    /// Convolutional parts of the model.
    pub fn conv_nets(&self) -> impl Iterator<Item = &ConvNet> {
        self.components.iter().filter_map(|c| match c {
            Component::Conv(c) => Some(c),
            _ => None,
        })
    }

    /// The stack that generates tokens, if any.
    #[must_use]
    pub fn generating_stack(&self) -> Option<&TransformerStack> {
        self.stacks().find(|t| t.generates())
    }

    /// Whether the model generates text autoregressively (and so keeps a KV cache).
    #[must_use]
    pub fn is_generative(&self) -> bool {
        self.generating_stack().is_some()
    }

    /// Forward FLOPs for one item with text stacks at `seq_length` tokens.
    #[must_use]
    pub fn flops_per_item(&self, seq_length: u32) -> u64 {
        self.components.iter().map(|c| c.flops_per_item(seq_length)).sum()
    }

    /// Forward FLOPs to prefill one sequence of `seq_length` prompt tokens: a forward pass whose
    /// output projection runs for the last position only — the one token a prefill samples from
    /// (llama.cpp outputs only the logits a batch asks for, vLLM projects each sequence's last
    /// position, transformers' `generate()` passes `logits_to_keep=1`, and so does hwfit's runner).
    #[must_use]
    pub fn prefill_flops_per_item(&self, seq_length: u32) -> u64 {
        let unsampled = self.generating_stack().map_or(0, |t| {
            t.tokens_per_item(seq_length).saturating_sub(1) * t.logit_flops_per_token()
        });
        self.flops_per_item(seq_length) - unsampled
    }

    /// Forward FLOPs to generate one token with `context` tokens already cached.
    #[must_use]
    pub fn flops_per_generated_token(&self, context: u32) -> Option<u64> {
        self.generating_stack().map(|t| t.flops_per_token(u64::from(context)))
    }

    /// KV-cache bytes per token per sequence at short contexts, over all generating stacks.
    #[must_use]
    pub fn kv_cache_bytes_per_token(&self, bytes_per_value: u64) -> u64 {
        self.stacks().map(|t| t.kv_cache_bytes_per_token(bytes_per_value)).sum()
    }

    /// Parameters the matrix products of one step read: `batch` items of `seq_length` tokens for a
    /// forward pass (every component), or one new token per sequence for a decode step (the
    /// generating stack only; encoders ran once).
    #[must_use]
    pub fn matmul_parameters(&self, decode: bool, batch: u64, seq_length: u32) -> u64 {
        self.components
            .iter()
            .map(|c| match c {
                Component::Transformer(t) if decode => {
                    if t.generates() {
                        t.matmul_parameters(batch)
                    } else {
                        0
                    }
                }
                Component::Transformer(t) => t.matmul_parameters(batch * t.tokens_per_item(seq_length)),
                _ if decode => 0,
                other => other.parameters(),
            })
            .sum()
    }

    /// Bytes of all weights stored at `precision` (per-tensor mixes of checkpoint formats included).
    #[must_use]
    pub fn weight_bytes(&self, precision: Precision) -> f64 {
        self.components
            .iter()
            .map(|c| match c {
                Component::Transformer(t) => t.weight_bytes(precision),
                other => precision.weight_bytes(other.parameters()),
            })
            .sum()
    }

    /// Bytes the matrix products of one step read at `precision` (see [`Self::matmul_parameters`]).
    #[must_use]
    pub fn matmul_weight_bytes(&self, precision: Precision, decode: bool, batch: u64, seq_length: u32) -> f64 {
        self.components
            .iter()
            .map(|c| match c {
                Component::Transformer(t) if decode => {
                    if t.generates() {
                        t.matmul_weight_bytes(precision, batch)
                    } else {
                        0.0
                    }
                }
                Component::Transformer(t) => t.matmul_weight_bytes(precision, batch * t.tokens_per_item(seq_length)),
                _ if decode => 0.0,
                other => precision.weight_bytes(other.parameters()),
            })
            .sum()
    }

    /// A prompt of `batch` × `seq_length` tokens fed `chunk` tokens per forward pass: how many
    /// passes it takes (the longest stack's) and what their matrix products read. Every pass reads
    /// the weights its own tokens reach (the shared ones, and the experts its tokens are routed
    /// to), so a prompt longer than a chunk reads them once per chunk. Components other than
    /// transformer stacks are read once.
    #[must_use]
    pub fn prompt_in_chunks(&self, precision: Precision, batch: u64, seq_length: u32, chunk: u32) -> PromptChunks {
        let chunk = u64::from(chunk.max(1));
        let mut chunks = PromptChunks {
            passes: 1,
            weight_bytes: 0.0,
        };
        for c in &self.components {
            chunks.weight_bytes += match c {
                Component::Transformer(t) => {
                    let tokens = batch * t.tokens_per_item(seq_length);
                    let (full, rest) = (tokens / chunk, tokens % chunk);
                    chunks.passes = chunks.passes.max(tokens.div_ceil(chunk));
                    let rest_bytes = if rest > 0 {
                        t.matmul_weight_bytes(precision, rest)
                    } else {
                        0.0
                    };
                    full as f64 * t.matmul_weight_bytes(precision, chunk) + rest_bytes
                }
                other => precision.weight_bytes(other.parameters()),
            };
        }
        chunks
    }

    /// KV-cache bytes of one sequence of `tokens` (local-attention layers keep only their window;
    /// recurrent layers their fixed state).
    #[must_use]
    pub fn kv_cache_bytes(&self, tokens: u64, bytes_per_value: u64) -> u64 {
        self.stacks().map(|t| t.kv_cache_bytes(tokens, bytes_per_value)).sum()
    }

    /// Bytes of the fixed state one sequence keeps in recurrent layers (hybrid models), over all
    /// stacks.
    #[must_use]
    pub fn recurrent_state_bytes(&self, bytes_per_value: u64) -> u64 {
        self.stacks().map(|t| t.recurrent_state_bytes(bytes_per_value)).sum()
    }

    /// Refuses a model larger than any that runs: over [`MAX_PARAMETERS`] parameters, a token whose
    /// cached keys and values across the layers exceed [`MAX_CACHED_VALUES_PER_TOKEN`] or whose
    /// working set exceeds [`MAX_WORKING_VALUES_PER_TOKEN`], an image whose feature maps exceed
    /// [`MAX_FEATURE_MAP_VALUES`] — sizes a config can state (a fuzzed or mistyped one does) but no
    /// hardware holds, and whose products with the largest batch and context would overflow the
    /// byte counts.
    pub fn check_plausible(components: &[Component]) -> Result<(), CoreError> {
        let refuse = |values: f64, what: &str, max: f64| {
            Err(CoreError::InvalidConfig(format!(
                "its layers and widths describe {values:.3e} {what} (at most {max:.3e}): larger than any model that runs"
            )))
        };
        let stated: Vec<Option<StatedSizes>> = components
            .iter()
            .map(|c| match c {
                Component::Transformer(t) => Some(t.stated_sizes()),
                _ => None,
            })
            .collect();
        let parameters: f64 = components
            .iter()
            .zip(&stated)
            // Lazily: a stack's exact count may overflow where its stated sizes are implausible.
            .map(|(c, sizes)| sizes.as_ref().map_or_else(|| c.parameters() as f64, |s| s.parameters))
            .sum();
        if parameters > MAX_PARAMETERS {
            return refuse(parameters, "parameters", MAX_PARAMETERS);
        }
        for (component, sizes) in components.iter().zip(&stated) {
            match (component, sizes) {
                (Component::Transformer(t), Some(sizes)) => {
                    // An image's, clip's or feature map's tokens come from the config, not from a
                    // request: no more of them than the longest sequence a request may state.
                    let tokens = t.tokens_per_item(0) as f64;
                    if t.input != Modality::Text && tokens > MAX_TOKENS_PER_ITEM {
                        return refuse(tokens, "tokens per input", MAX_TOKENS_PER_ITEM);
                    }
                    if sizes.cached_values_per_token > MAX_CACHED_VALUES_PER_TOKEN {
                        let what = "cached key and value values per token";
                        return refuse(sizes.cached_values_per_token, what, MAX_CACHED_VALUES_PER_TOKEN);
                    }
                    if sizes.working_values_per_token > MAX_WORKING_VALUES_PER_TOKEN {
                        let what = "working-set values per token";
                        return refuse(sizes.working_values_per_token, what, MAX_WORKING_VALUES_PER_TOKEN);
                    }
                }
                (Component::Conv(c), None) if c.total_activation_elements as f64 > MAX_FEATURE_MAP_VALUES => {
                    let values = c.total_activation_elements as f64;
                    return refuse(values, "feature-map values per image", MAX_FEATURE_MAP_VALUES);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Parameters a token passes through: each stack's active layers (mixture of experts: the shared
    /// parts and the experts it is routed to) and its output projection over the vocabulary, plus
    /// every other component. The input embedding table is looked up, not multiplied, and is left
    /// out (where it is tied, it counts once, as the output projection).
    #[must_use]
    pub fn active_parameters(&self) -> u64 {
        self.components
            .iter()
            .map(|c| match c {
                Component::Transformer(t) => {
                    let output = if t.generates() {
                        u64::from(t.vocab_size) * u64::from(t.hidden_size)
                    } else {
                        0
                    };
                    t.active_layer_parameters() + output
                }
                other => other.parameters(),
            })
            .sum()
    }
}

/// A prompt fed in chunks ([`ModelSpec::prompt_in_chunks`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PromptChunks {
    /// Forward passes over the prompt (at least 1).
    pub passes: u64,
    /// Bytes the passes' matrix products read, over all passes.
    pub weight_bytes: f64,
}

#[cfg(test)]
mod tests {
    use crate::Catalog;

    fn params(name: &str) -> f64 {
        Catalog::builtin().resolve(name).unwrap().spec.parameters() as f64
    }

    /// Published parameter counts (model cards / papers) against the counts computed from the
    /// dimensions. Norms and biases are left out, so the computed count is at most ~1 % lower.
    #[test]
    fn computed_parameters_match_published_counts() {
        let published = [
            ("bert-base-uncased", 110e6),
            ("bert-large-uncased", 336e6),
            ("gpt2", 124e6),
            ("gpt2-xl", 1.558e9),
            ("Llama-2-7b-hf", 6.738e9),
            ("Llama-2-70b-hf", 68.98e9),
            ("Meta-Llama-3-8B", 8.03e9),
            ("Llama-3.1-405B", 405.8e9),
            ("Mistral-7B-v0.1", 7.24e9),
            ("Mixtral-8x7B-v0.1", 46.7e9),
            ("gemma-2b", 2.51e9),
            ("Qwen2.5-7B", 7.62e9),
            ("t5-small", 60.5e6),
            ("flan-t5-base", 248e6),
            ("vit-base-patch16-224", 86.6e6),
            ("whisper-base", 72.6e6),
            ("whisper-large-v3", 1.55e9),
            ("clip-vit-base-patch32", 151e6),
            ("llava-1.5-7b-hf", 7.06e9),
            ("resnet-50", 25.6e6),
        ];
        for (name, count) in published {
            let computed = params(name);
            let ratio = computed / count;
            assert!(
                (0.97..=1.02).contains(&ratio),
                "{name}: computed {computed:.4e} vs published {count:.4e}"
            );
        }
    }

    #[test]
    fn llama_2_7b_costs_about_two_flops_per_parameter_per_token() {
        let spec = Catalog::builtin().resolve("llama-2-7b").unwrap().spec;
        let flops = spec.flops_per_generated_token(1).unwrap() as f64;
        // 2 × 6.476e9 layer parameters + 2 × 4096 × 32000 logits = 13.21e9
        assert!((flops / 13.21e9 - 1.0).abs() < 0.01, "{flops:e}");
    }

    /// A prefill projects only the last position onto the vocabulary; a forward pass every
    /// position; an encoder has no projection to skip.
    #[test]
    fn a_prefill_computes_the_logits_of_its_last_token_only() {
        let qwen = Catalog::builtin().resolve("Qwen2.5-0.5B").unwrap().spec;
        let logits = 2 * 896 * 151_936_u64;
        assert_eq!(qwen.generating_stack().unwrap().logit_flops_per_token(), logits);
        assert_eq!(
            qwen.flops_per_item(512) - qwen.prefill_flops_per_item(512),
            511 * logits
        );
        assert_eq!(qwen.prefill_flops_per_item(1), qwen.flops_per_item(1));
        let bert = Catalog::builtin().resolve("bert-base-uncased").unwrap().spec;
        assert_eq!(bert.prefill_flops_per_item(128), bert.flops_per_item(128));
    }

    #[test]
    fn llama_3_8b_kv_cache_is_128_kib_per_token_at_fp16() {
        // 2 (K and V) × 32 layers × 8 KV heads × 128 dims × 2 bytes = 131072 bytes
        let spec = Catalog::builtin().resolve("Meta-Llama-3-8B").unwrap().spec;
        assert_eq!(spec.kv_cache_bytes_per_token(2), 131_072);
    }

    #[test]
    fn vit_base_16_sees_197_tokens() {
        let spec = Catalog::builtin().resolve("vit-base-patch16-224").unwrap().spec;
        assert_eq!(spec.stacks().next().unwrap().tokens_per_item(128), 197);
    }
}

//! Decoder-only language models from their `config.json`: grouped-query or latent attention, dense or
//! mixture-of-experts feed-forwards (shared experts, dense layers among expert layers), local
//! attention windows — read from the fields each family uses for them.

use alloc::string::String;
use alloc::vec::Vec;

use super::{need, HfConfig};
use crate::catalog::build::{llama, stack};
use crate::spec::{
    CompressedAttention, LatentAttention, MixerKind, Modality, Norm, SlidingWindow, SparseAttention, StackRole,
    StateMixer, TransformerStack,
};
use crate::CoreError;

/// Model types whose decoder ties its output projection to the input embedding unless told.
const TIED_BY_DEFAULT: &[&str] = &[
    "gemma",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "gemma3n",
    "gemma3n_text",
    "smollm3",
    "lfm2",
    "phi3small",
];

/// The defaults of a transformers config class, which its `config.json` may leave out: Gemma 3's
/// `text_config` states only what differs from `Gemma3TextConfig` (gemma-3-4b-it has no head counts,
/// gemma-3-27b-it no vocabulary size). Values from transformers' `configuration_gemma3.py`.
struct ClassDefaults {
    vocab_size: u32,
    hidden_size: u32,
    intermediate_size: u32,
    num_hidden_layers: u32,
    num_attention_heads: u32,
    num_key_value_heads: u32,
    head_dim: u32,
    max_position_embeddings: u32,
    sliding_window: u32,
}

/// `Gemma3TextConfig()`.
const GEMMA3_TEXT: ClassDefaults = ClassDefaults {
    vocab_size: 262_208,
    hidden_size: 2304,
    intermediate_size: 9216,
    num_hidden_layers: 26,
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    max_position_embeddings: 131_072,
    sliding_window: 4096,
};

/// The config class defaults of `kind`, where hwfit knows them.
fn class_defaults(kind: &str) -> Option<&'static ClassDefaults> {
    match kind {
        "gemma3_text" => Some(&GEMMA3_TEXT),
        _ => None,
    }
}

/// Model types whose attention normalises queries and keys per head (`q_norm`/`k_norm` in their
/// `transformers` modelling code; no config field says so).
const QK_NORMED: &[&str] = &[
    "qwen3",
    "qwen3_moe",
    "qwen3_next",
    "minimax_m2",
    "minimax_m3",
    "olmo2",
    "olmo3",
    "olmoe",
    "gemma3",
    "gemma3_text",
    "gemma3n",
    "gemma3n_text",
    "lfm2",
];

/// Model types that normalise before and after each attention and feed-forward block (four norms
/// a layer: Gemma 2 and 3's `pre_`/`post_feedforward_layernorm`).
const FOUR_NORMS: &[&str] = &["gemma2", "gemma3", "gemma3_text", "gemma3n", "gemma3n_text"];

/// Model types whose attention output is gated by a second query-sized projection (Qwen3-Next's
/// `q_proj` is twice as wide; no config field says so).
const OUTPUT_GATED: &[&str] = &["qwen3_next"];

/// Model types whose dense feed-forward is the shared expert's (Granite 4's `shared_mlp` runs
/// with `shared_intermediate_size` when it has no experts; its `intermediate_size` is the
/// experts' width).
const SHARED_MLP_ONLY: &[&str] = &["granitemoehybrid"];

/// Model types whose attention has learned sinks (`sinks` in their `transformers` modelling code;
/// no config field says so).
const SINKED: &[&str] = &["gpt_oss"];

/// Model types whose feed-forward is a plain two-matrix MLP (GELU), not a gated one.
const UNGATED: &[&str] = &[
    "phi",
    "gpt_neox",
    "starcoder2",
    "falcon",
    "gpt_bigcode",
    "gptj",
    "nemotron_h",
];

/// Nemotron-H's blocks by kind.
#[derive(Debug, Clone, Copy)]
struct Blocks {
    mamba: u32,
    attention: u32,
    /// Dense feed-forwards (`-`).
    feed_forward: u32,
    /// Mixtures of experts (`E`).
    experts: u32,
}

/// How the experts of a mixture-of-experts decoder are laid out.
struct Experts {
    count: u32,
    active: u32,
    size: u32,
    shared_size: u32,
    dense_layers: u32,
    dense_size: u32,
}

impl HfConfig {
    /// A decoder-only language model (`kind` is the normalized `model_type`); fields the config
    /// leaves out take its config class's defaults where hwfit knows them.
    pub(super) fn decoder_stack(&self, kind: &str) -> Result<TransformerStack, CoreError> {
        match class_defaults(kind) {
            Some(d) => self.with_defaults(d).decoder_stack_stated(kind),
            None => self.decoder_stack_stated(kind),
        }
    }

    /// The longest sequence: stated, else the config class's default (0: not known).
    pub(super) fn positions(&self, kind: &str) -> u32 {
        self.max_position_embeddings
            .or_else(|| class_defaults(kind).map(|d| d.max_position_embeddings))
            .unwrap_or(0)
    }

    /// This config with `d`'s values where it states none.
    fn with_defaults(&self, d: &ClassDefaults) -> Self {
        let mut c = self.clone();
        c.vocab_size = c.vocab_size.or(Some(d.vocab_size));
        c.hidden_size = c.hidden_size.or(Some(d.hidden_size));
        c.intermediate_size = c.intermediate_size.or(Some(d.intermediate_size));
        c.num_hidden_layers = c.num_hidden_layers.or(Some(d.num_hidden_layers));
        c.num_attention_heads = c.num_attention_heads.or(Some(d.num_attention_heads));
        c.num_key_value_heads = c.num_key_value_heads.or(Some(d.num_key_value_heads));
        c.head_dim = c.head_dim.or(Some(d.head_dim));
        c.max_position_embeddings = c.max_position_embeddings.or(Some(d.max_position_embeddings));
        c.sliding_window = c.sliding_window.or(Some(d.sliding_window));
        c
    }

    /// A decoder-only language model from the fields the config states.
    fn decoder_stack_stated(&self, kind: &str) -> Result<TransformerStack, CoreError> {
        // Nemotron 3 Ultra states its layers only as its block pattern.
        let pattern_layers = self
            .layers_block_type
            .as_ref()
            .and_then(|types| u32::try_from(types.len()).ok());
        let stated_layers = need(self.num_hidden_layers.or(pattern_layers), "num_hidden_layers", kind)?;
        let blocks = self.blocks(kind, stated_layers)?;
        // A stack layer is a token mixer and its feed-forward; Nemotron-H's blocks hold one each.
        let layers = blocks.map_or(stated_layers, |b| b.mamba + b.attention);
        let hidden = need(self.hidden_size, "hidden_size", kind)?;
        let heads = need(self.num_attention_heads, "num_attention_heads", kind)?;
        let vocab = need(self.vocab_size, "vocab_size", kind)?;
        // Under a block pattern, only `E` blocks hold experts.
        let experts = match blocks {
            Some(b) if b.experts == 0 => None,
            Some(_) => Some(
                self.experts(kind, layers)?
                    .ok_or_else(|| missing("n_routed_experts", kind))?,
            ),
            None => self.experts(kind, layers)?,
        };
        let inter = match &experts {
            Some(e) => e.size,
            None => self.dense_ffn_width(kind)?,
        };
        let kv = self.num_key_value_heads.unwrap_or(heads);
        let tied = self
            .tie_word_embeddings
            .or(self.tie_embedding)
            .unwrap_or(TIED_BY_DEFAULT.contains(&kind));
        let mut s = if UNGATED.contains(&kind) {
            stack(StackRole::Decoder, Modality::Text, layers, hidden, heads, inter)
                .kv(kv)
                .vocab(vocab, tied)
        } else {
            llama(layers, hidden, heads, kv, inter, vocab, tied)
        };
        if let Some(hd) = self.head_dim.or(self.attention_head_dim).filter(|&d| d > 0) {
            s = s.head_dim(hd);
        }
        if let Some(e) = experts {
            s = s.experts(e.count, e.active);
            s.shared_expert_size = e.shared_size;
            s.dense_layers = e.dense_layers;
            s.dense_intermediate_size = e.dense_size;
            s.expert_latent_size = self.moe_latent_size.or(self.routed_expert_hidden_size).unwrap_or(0);
        }
        if let Some(rank) = self.kv_lora_rank.filter(|&r| r > 0) {
            let m = LatentAttention {
                q_lora_rank: self.q_lora_rank.unwrap_or(0),
                kv_lora_rank: rank,
                qk_nope_head_dim: need(self.qk_nope_head_dim, "qk_nope_head_dim", kind)?,
                qk_rope_head_dim: need(self.qk_rope_head_dim, "qk_rope_head_dim", kind)?,
                v_head_dim: need(self.v_head_dim, "v_head_dim", kind)?,
            };
            s.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
            s.latent_attention = Some(m);
        }
        self.layer_operations(kind, &mut s);
        s.compressed_attention = self.compressed_attention(kind, layers)?;
        if s.compressed_attention.is_none() {
            s.sliding_window = self.local_attention(kind, layers);
            if let (Some(kv), Some(_)) = (self.swa_num_key_value_heads.filter(|&n| n > 0), s.sliding_window) {
                // MiMo-V2: the local layers' own key/value heads; `num_key_value_heads` is the
                // full layers'.
                s.kv_heads = kv;
            }
            s.full_attention = self.full_attention(&s);
        }
        if s.compressed_attention.is_none() {
            s.sparse_attention = self.sparse_attention(layers);
        }
        // A value head narrower than the query/key heads (MiMo-V2: 128 against 192), outside
        // latent attention (whose `v_head_dim` is its own).
        if s.latent_attention.is_none() && s.compressed_attention.is_none() {
            if let Some(v) = self.v_head_dim.filter(|&v| v > 0 && v != s.head_dim) {
                s.value_head_dim = v;
            }
        }
        s.recurrent_layers = match blocks {
            Some(b) => b.mamba,
            None => self.recurrent_layers(layers),
        };
        if let Some(b) = blocks {
            s.mixer_only_layers = layers - b.feed_forward - b.experts;
            if b.experts > 0 {
                // Feed-forward blocks among expert blocks are dense layers.
                s.dense_layers = b.feed_forward;
                s.dense_intermediate_size = if b.feed_forward > 0 {
                    self.intermediate_size.unwrap_or(0)
                } else {
                    0
                };
            }
        }
        if s.recurrent_layers > 0 {
            s.state_mixer = self.state_mixer(kind, hidden)?;
        }
        if self.use_bidirectional_attention == Some(true) {
            // EmbeddingGemma: a decoder's layers run as a bidirectional encoder, no output head.
            s.role = StackRole::Encoder;
        }
        Ok(s)
    }

    /// The normalisation, query/key norms and position encoding of a decoder's layers: the config's
    /// epsilon field names the norm (`rms_norm_eps` vs `layer_norm_eps`), its rotary fields the
    /// positions; where the modelling code adds norms the config does not mention (Qwen3's query/key
    /// norms, Gemma 2/3's norms after each block), the model type does.
    fn layer_operations(&self, kind: &str, s: &mut TransformerStack) {
        if self.rms_norm_eps.is_some() {
            s.norm = Norm::RmsNorm;
        } else if self
            .layer_norm_eps
            .or(self.layer_norm_epsilon)
            .or(self.norm_epsilon)
            .is_some()
        {
            s.norm = Norm::LayerNorm;
        }
        let rotary_fields = self.rope_theta.is_some()
            || self.rope_parameters.is_some()
            || self.rope_scaling.is_some()
            || self.rotary_dim.is_some()
            || self.rotary_pct.is_some()
            || self.partial_rotary_factor.is_some();
        s.rotary = s.learned_positions == 0 && (s.rotary || rotary_fields);
        s.qk_norm = self
            .use_qk_norm
            .or(self.qk_layernorm)
            .unwrap_or(QK_NORMED.contains(&kind));
        if FOUR_NORMS.contains(&kind) {
            s.norms_per_layer = 4;
        }
        s.attention_sinks = SINKED.contains(&kind);
        s.gated_attention = OUTPUT_GATED.contains(&kind) || self.mla_use_output_gate == Some(true);
        s.written_out_gelu = self
            .hidden_act
            .as_deref()
            .or(self.activation_function.as_deref())
            .is_some_and(super::written_out_gelu);
        if self.position_embedding_type.as_deref() == Some("nope") {
            // Granite 4's hybrids: no position encoding at all (the Mamba layers order the tokens).
            s.rotary = false;
        }
        s.kv_shared_layers = self.num_kv_shared_layers.unwrap_or(0).min(s.layers);
    }

    /// DeepSeek-V4's attention, where the config states its grouped low-rank output (`o_groups`,
    /// `o_lora_rank`): each layer's kind from `compress_ratios` (0: the window only; the CSA rate,
    /// 4 by default: compressed sparse attention; another rate: heavily compressed attention) or
    /// from `layer_types` at `compress_rates`, else transformers' default schedule (two HCA layers,
    /// then CSA and HCA in turn).
    fn compressed_attention(&self, kind: &str, layers: u32) -> Result<Option<CompressedAttention>, CoreError> {
        let (Some(o_groups), Some(o_lora_rank)) =
            (self.o_groups.filter(|&g| g > 0), self.o_lora_rank.filter(|&r| r > 0))
        else {
            return Ok(None);
        };
        let rates = self.compress_rates.unwrap_or_default();
        let sparse_ratio = rates.compressed_sparse_attention.unwrap_or(4);
        let heavy_ratio = rates.heavily_compressed_attention.unwrap_or(128);
        let n = layers as usize;
        let ratios: Vec<u32> = if let Some(r) = self.compress_ratios.as_deref().filter(|r| !r.is_empty()) {
            r.iter().take(n).copied().collect()
        } else if let Some(types) = self.layer_types.as_deref().filter(|t| !t.is_empty()) {
            types
                .iter()
                .take(n)
                .map(|t| match t.as_str() {
                    "compressed_sparse_attention" => Ok(sparse_ratio),
                    "heavily_compressed_attention" => Ok(heavy_ratio),
                    "sliding_attention" => Ok(0),
                    other => Err(CoreError::InvalidConfig(alloc::format!(
                        "layer_types: '{other}' is not a DeepSeek-V4 attention kind (sliding_attention, compressed_sparse_attention, heavily_compressed_attention)"
                    ))),
                })
                .collect::<Result<_, _>>()?
        } else {
            (0..n)
                .map(|i| {
                    if i >= 2 && i % 2 == 1 {
                        sparse_ratio
                    } else {
                        heavy_ratio
                    }
                })
                .collect()
        };
        let count = |keep: fn(u32, u32) -> bool| ratios.iter().filter(|&&r| keep(r, sparse_ratio)).count() as u32;
        let sparse_layers = count(|r, sparse| r == sparse);
        let heavy_layers = count(|r, sparse| r != 0 && r != sparse);
        if let Some(&other) = ratios
            .iter()
            .find(|&&r| r != 0 && r != sparse_ratio && r != heavy_ratio)
        {
            return Err(CoreError::InvalidConfig(alloc::format!(
                "compress_ratios: {other} is neither the sparse ({sparse_ratio}) nor the heavy ({heavy_ratio}) compression rate"
            )));
        }
        let indexed = |value: Option<u32>, field| {
            if sparse_layers == 0 {
                Ok(value.unwrap_or(0))
            } else {
                need(value, field, kind)
            }
        };
        Ok(Some(CompressedAttention {
            q_lora_rank: need(self.q_lora_rank, "q_lora_rank", kind)?,
            o_groups,
            o_lora_rank,
            window: need(self.sliding_window, "sliding_window", kind)?,
            sparse_layers,
            sparse_ratio,
            index_heads: indexed(self.index_n_heads, "index_n_heads")?,
            index_head_dim: indexed(self.index_head_dim, "index_head_dim")?,
            index_topk: indexed(self.index_topk, "index_topk")?,
            heavy_layers,
            heavy_ratio,
        }))
    }

    /// DeepSeek Sparse Attention, where the config states its indexer (`index_topk`,
    /// `index_n_heads`, `index_head_dim`; DeepSeek-V3.2, GLM-5): every layer has an indexer unless
    /// `indexer_types` marks it `shared`.
    fn sparse_attention(&self, layers: u32) -> Option<SparseAttention> {
        if let Some(msa) = self
            .sparse_attention_config
            .as_ref()
            .filter(|c| c.use_sparse_attention != Some(false))
        {
            return Self::block_sparse_attention(msa, layers);
        }
        let (topk, heads, dim) = (
            self.index_topk.filter(|&k| k > 0)?,
            self.index_n_heads.filter(|&n| n > 0)?,
            self.index_head_dim.filter(|&d| d > 0)?,
        );
        let indexed_layers = self
            .indexer_types
            .as_deref()
            .filter(|t| !t.is_empty())
            .map_or(layers, |types| {
                types
                    .iter()
                    .take(layers as usize)
                    .filter(|t| t.as_str() != "shared")
                    .count() as u32
            });
        Some(SparseAttention {
            index_heads: heads,
            index_head_dim: dim,
            index_topk: topk,
            indexed_layers,
            weighted_heads: true,
        })
    }

    /// MiniMax Sparse Attention: the top blocks, the first and the last ones a query attends to,
    /// in tokens; the indexer on the layers `sparse_attention_freq` flags (every layer without it).
    fn block_sparse_attention(c: &crate::hf_config::SparseAttentionConfig, layers: u32) -> Option<SparseAttention> {
        let block = c.sparse_block_size.filter(|&b| b > 0)?;
        let blocks = c.sparse_topk_blocks.filter(|&k| k > 0)?
            + c.sparse_init_block.unwrap_or(0)
            + c.sparse_local_block.unwrap_or(0);
        let indexed_layers = c.sparse_attention_freq.as_deref().map_or(layers, |flags| {
            flags.iter().take(layers as usize).filter(|&&f| f != 0).count() as u32
        });
        Some(SparseAttention {
            index_heads: c.sparse_num_index_heads.filter(|&n| n > 0)?,
            index_head_dim: c.sparse_index_dim.filter(|&d| d > 0)?,
            index_topk: blocks.saturating_mul(block),
            indexed_layers,
            weighted_heads: false,
        })
        .filter(|s| s.indexed_layers > 0)
    }

    /// The full-attention layers' own heads, where the config gives them other ones than the local
    /// layers' (Gemma 4: `global_head_dim`, `num_global_key_value_heads`, `attention_k_eq_v`).
    fn full_attention(&self, s: &TransformerStack) -> Option<crate::spec::FullAttention> {
        s.sliding_window?;
        let f = crate::spec::FullAttention {
            kv_heads: self
                .num_global_key_value_heads
                .or(self.swa_num_key_value_heads.and(self.num_key_value_heads))
                .filter(|&n| n > 0)
                .unwrap_or(s.kv_heads),
            head_dim: self.global_head_dim.filter(|&d| d > 0).unwrap_or(s.head_dim),
            keys_as_values: self.attention_k_eq_v == Some(true),
        };
        (f.kv_heads != s.kv_heads || f.head_dim != s.head_dim || f.keys_as_values).then_some(f)
    }

    /// The routed experts, if the config has more than one: count, how many a token picks, their
    /// width, the shared experts' width and the dense layers among them.
    fn experts(&self, kind: &str, layers: u32) -> Result<Option<Experts>, CoreError> {
        let count = self
            .num_local_experts
            .or(self.num_experts)
            .or(self.n_routed_experts)
            .or(self.moe_num_experts)
            .unwrap_or(1);
        if count <= 1 {
            return Ok(None);
        }
        let active = self
            .num_experts_per_tok
            .or(self.experts_per_token)
            .or(self.num_experts_per_token)
            .or(self.top_k_experts)
            .or(self.moe_k)
            .ok_or_else(|| missing("num_experts_per_tok", kind))?;
        let size = self
            .moe_intermediate_size
            .or(self.intermediate_size)
            .ok_or_else(|| missing("moe_intermediate_size", kind))?;
        let shared_size = if let Some(width) = self
            .shared_expert_intermediate_size
            .or(self.shared_intermediate_size)
            .or(self.moe_shared_expert_intermediate_size)
        {
            width
        } else if let Some(n) = self
            .n_shared_experts
            .or(self.moe_num_shared_experts)
            .or(self.num_shared_experts)
        {
            n * size
        } else if kind.starts_with("llama4") {
            // Llama 4: one shared expert as wide as a routed one in every expert layer.
            size
        } else if self.enable_moe_block == Some(true) {
            // Gemma 4 (26B-A4B): every layer keeps its dense feed-forward (`intermediate_size`)
            // and adds the routed experts beside it — an always-active shared expert.
            self.intermediate_size
                .ok_or_else(|| missing("intermediate_size", kind))?
        } else {
            0
        };
        let (dense_layers, dense_size) = self.dense_layers(kind, layers);
        Ok(Some(Experts {
            count,
            active: active.min(count),
            size,
            shared_size,
            dense_layers: dense_layers.min(layers),
            dense_size,
        }))
    }

    /// Layers of a mixture-of-experts decoder that keep a dense feed-forward, and its width.
    fn dense_layers(&self, kind: &str, layers: u32) -> (u32, u32) {
        let dense_size = self
            .intermediate_size_mlp
            .or(self.dense_intermediate_size)
            .or(self.intermediate_size)
            .unwrap_or(0);
        let count = if let Some(flags) = self.moe_layer_freq.as_deref() {
            // MiMo-V2: a flag per layer, 0 for a dense feed-forward.
            flags.iter().take(layers as usize).filter(|&&f| f == 0).count() as u32
        } else if let Some(k) = self.first_k_dense_replace {
            // DeepSeek-V2/V3, Kimi K2, GLM-4.5: the first k layers are dense.
            k
        } else if let Some(step) = self.interleave_moe_layer_step.filter(|&s| s > 1) {
            // Llama 4 Maverick: every `step`-th layer has experts.
            layers - layers / step
        } else if let Some(start) = self.moe_layer_start_index {
            // ERNIE 4.5: experts from `start` on, every `interval`-th layer.
            let interval = self.moe_layer_interval.unwrap_or(1).max(1);
            layers - (start..layers).step_by(interval as usize).count() as u32
        } else if kind.starts_with("qwen") {
            // Qwen MoE: layers listed in `mlp_only_layers`, and those off the sparse step, are dense.
            let step = self.decoder_sparse_step.unwrap_or(1).max(1);
            let only = self.mlp_only_layers.as_deref().unwrap_or(&[]);
            (0..layers).filter(|i| only.contains(i) || (i + 1) % step != 0).count() as u32
        } else {
            0
        };
        (count, if count > 0 { dense_size } else { 0 })
    }

    /// Local attention: from `layer_types` where the config lists them, else from each family's
    /// pattern (Gemma 2 alternates; Gemma 3 and Cohere 2 keep one global layer in `pattern`;
    /// Llama 4 chunks three layers in four; Mistral-style configs window every layer).
    fn local_attention(&self, kind: &str, layers: u32) -> Option<SlidingWindow> {
        let window = self.sliding_window.filter(|&w| w > 0);
        let local = if let Some(types) = self.layer_types.as_deref().filter(|t| !t.is_empty()) {
            let local = types
                .iter()
                .filter(|t| {
                    matches!(
                        t.as_str(),
                        "sliding_attention" | "chunked_attention" | "local_attention"
                    )
                })
                .count() as u32;
            let chunked = types.iter().any(|t| t == "chunked_attention");
            return Some(SlidingWindow {
                window: if chunked { self.attention_chunk_size? } else { window? },
                layers: local.min(layers),
            })
            .filter(|w| w.layers > 0);
        } else if let Some(pattern) = self.hybrid_layer_pattern.as_deref().filter(|p| !p.is_empty()) {
            // MiMo-V2: 1 marks a sliding-window layer.
            pattern.iter().take(layers as usize).filter(|&&f| f == 1).count() as u32
        } else if kind.starts_with("llama4") {
            return self
                .attention_chunk_size
                .filter(|&c| c > 0)
                .map(|window| SlidingWindow {
                    window,
                    layers: layers - layers / 4,
                });
        } else if kind == "gemma2" {
            layers - layers / 2
        } else if kind.starts_with("gemma3") || kind == "cohere2" {
            let pattern = self
                .sliding_window_pattern
                .unwrap_or(if kind == "cohere2" { 4 } else { 6 })
                .max(1);
            layers - layers / pattern
        } else if matches!(kind, "mistral" | "mixtral" | "starcoder2") || self.use_sliding_window == Some(true) {
            layers
        } else {
            0
        };
        let window = window?;
        (local > 0).then_some(SlidingWindow { window, layers: local })
    }

    /// Layers whose `layer_types` entry names a fixed-state mixer (Qwen3-Next's linear attention,
    /// Granite 4's Mamba layers, LFM2's convolutions); without a list, Qwen3-Next's
    /// `full_attention_interval` (one full-attention layer in that many), Bamba's
    /// `attn_layer_indices` or LFM2's `full_attn_idxs` (the attention layers; the others are
    /// recurrent).
    fn recurrent_layers(&self, layers: u32) -> u32 {
        if let Some(kda) = self.linear_attn_config.as_ref() {
            // Kimi Linear: 1-based layer ids.
            let within = |ids: &[u32]| ids.iter().filter(|&&i| (1..=layers).contains(&i)).count() as u32;
            return match (kda.kda_layers.as_deref(), kda.full_attn_layers.as_deref()) {
                (Some(kda), _) => within(kda),
                (None, Some(full)) => layers - within(full),
                (None, None) => 0,
            };
        }
        if self.layer_types.as_deref().is_none_or(<[String]>::is_empty) {
            if let Some(interval) = self.full_attention_interval.filter(|&i| i > 1) {
                return layers - layers / interval;
            }
            if let Some(attention) = self.attn_layer_indices.as_deref().or(self.full_attn_idxs.as_deref()) {
                return layers.saturating_sub(attention.len() as u32);
            }
        }
        let count = self.layer_types.as_deref().unwrap_or(&[]).iter().filter(|t| {
            matches!(
                t.as_str(),
                "linear_attention" | "mamba" | "mamba2" | "conv" | "recurrent" | "ssm" | "short_conv"
            )
        });
        (count.count() as u32).min(layers)
    }

    /// The width of a dense feed-forward: `intermediate_size`, except where a family states it
    /// otherwise — Granite 4's `shared_intermediate_size` (its `shared_mlp` is the only
    /// feed-forward of a model without experts) and LFM2's `block_ff_dim` adjusted as its modelling
    /// code adjusts it (two thirds, times `block_ffn_dim_multiplier`, rounded up to a multiple of
    /// `block_multiple_of`).
    fn dense_ffn_width(&self, kind: &str) -> Result<u32, CoreError> {
        if SHARED_MLP_ONLY.contains(&kind) {
            return need(
                self.shared_intermediate_size.or(self.intermediate_size),
                "shared_intermediate_size",
                kind,
            );
        }
        let stated = need(
            self.intermediate_size
                .or(self.block_ff_dim)
                .or(self.ff_intermediate_size),
            "intermediate_size",
            kind,
        )?;
        if self.block_auto_adjust_ff_dim != Some(true) {
            return Ok(stated);
        }
        let mut width = 2 * u64::from(stated) / 3;
        if let Some(m) = self.block_ffn_dim_multiplier.filter(|m| m.is_finite() && *m > 0.0) {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss,
                reason = "a positive width, truncated as Python's int() truncates"
            )]
            let scaled = (m * width as f64) as u64;
            width = scaled;
        }
        let multiple = u64::from(self.block_multiple_of.unwrap_or(1).max(1));
        u32::try_from(width.div_ceil(multiple) * multiple).map_err(|_| {
            CoreError::InvalidConfig(alloc::format!(
                "the feed-forward width of model_type '{kind}' is out of range"
            ))
        })
    }

    /// Nemotron-H's blocks (Nemotron 3), each one Mamba-2 mixer (`M`), attention (`*`),
    /// feed-forward (`-`) or mixture of experts (`E`), from `hybrid_override_pattern`, Nemotron 3's
    /// `layers_block_type` or the `layer_types` transformers
    /// writes for it. None for models whose every layer has a mixer and a feed-forward.
    fn blocks(&self, kind: &str, stated_layers: u32) -> Result<Option<Blocks>, CoreError> {
        let symbols: Vec<char> = if let Some(pattern) = self.hybrid_override_pattern.as_deref() {
            pattern.chars().collect()
        } else if kind == "nemotron_h" {
            let types = self
                .layer_types
                .as_deref()
                .or(self.layers_block_type.as_deref())
                .ok_or_else(|| missing("hybrid_override_pattern", kind))?;
            types
                .iter()
                .map(|t| match t.as_str() {
                    "mamba" | "linear_attention" => 'M',
                    "attention" | "full_attention" => '*',
                    "mlp" => '-',
                    "moe" => 'E',
                    _ => '?',
                })
                .collect()
        } else {
            return Ok(None);
        };
        let invalid = |what: String| CoreError::InvalidConfig(alloc::format!("model_type '{kind}': {what}"));
        if let Some(other) = symbols.iter().find(|c| !matches!(c, 'M' | '*' | '-' | 'E')) {
            return Err(invalid(alloc::format!(
                "block '{other}' is none of Mamba (M), attention (*), feed-forward (-) or experts (E)"
            )));
        }
        let count = |c: char| symbols.iter().filter(|&&s| s == c).count() as u32;
        if symbols.len() != stated_layers as usize {
            return Err(invalid(alloc::format!(
                "the block pattern has {} blocks but num_hidden_layers is {stated_layers}",
                symbols.len()
            )));
        }
        let b = Blocks {
            mamba: count('M'),
            attention: count('*'),
            feed_forward: count('-'),
            experts: count('E'),
        };
        if b.feed_forward + b.experts > b.mamba + b.attention {
            return Err(invalid(alloc::format!(
                "{} feed-forward and expert blocks for {} mixer blocks (hwfit pairs each with a mixer)",
                b.feed_forward + b.experts,
                b.mamba + b.attention
            )));
        }
        Ok(Some(b))
    }

    /// The token mixer of a hybrid decoder's recurrent layers, by the fields its family names them
    /// with: Mamba-2 (`mamba_*`: Granite 4, Bamba; Nemotron-H's `mamba_num_heads`,
    /// `ssm_state_size`…), Gated DeltaNet (`linear_*`: Qwen3-Next) or LFM2's short convolution
    /// (`conv_L_cache`). None where the config describes none (the layers then count as attention
    /// layers that cache nothing).
    fn state_mixer(&self, kind: &str, hidden: u32) -> Result<Option<StateMixer>, CoreError> {
        if let Some(heads) = self.linear_num_value_heads {
            return Ok(Some(StateMixer {
                kind: MixerKind::GatedDeltaNet,
                heads,
                head_dim: need(self.linear_value_head_dim, "linear_value_head_dim", kind)?,
                key_groups: need(self.linear_num_key_heads, "linear_num_key_heads", kind)?,
                key_dim: need(self.linear_key_head_dim, "linear_key_head_dim", kind)?,
                conv_kernel: self.linear_conv_kernel_dim.unwrap_or(4),
                fp32_state: false,
                gate_rank: 0,
            }));
        }
        if let Some(kda) = self.linear_attn_config.as_ref() {
            let heads = need(kda.num_heads, "linear_attn_config.num_heads", kind)?;
            let head_dim = need(kda.head_dim, "linear_attn_config.head_dim", kind)?;
            return Ok(Some(StateMixer {
                kind: MixerKind::KimiDeltaAttention,
                heads,
                head_dim,
                key_groups: heads,
                key_dim: head_dim,
                conv_kernel: kda.short_conv_kernel_size.unwrap_or(4),
                fp32_state: false,
                // Kimi Linear's gate goes through `head_dim` (`g_a_proj`, `g_b_proj`).
                gate_rank: if kda.use_full_rank_gate == Some(true) {
                    0
                } else {
                    head_dim
                },
            }));
        }
        if kind == "lfm2" {
            return Ok(Some(StateMixer {
                kind: MixerKind::ShortConv,
                heads: 1,
                head_dim: self.conv_dim.unwrap_or(hidden),
                key_groups: 0,
                key_dim: 0,
                conv_kernel: need(self.conv_l_cache, "conv_L_cache", kind)?,
                fp32_state: false,
                gate_rank: 0,
            }));
        }
        let Some(heads) = self.mamba_n_heads.or(self.mamba_num_heads) else {
            return Ok(None);
        };
        let head_dim = match self.mamba_d_head.or(self.mamba_head_dim) {
            Some(d) => d,
            // Mamba-2's inner width is `expand × hidden`, split over the heads.
            None => need(self.mamba_expand, "mamba_d_head", kind)? * hidden / heads.max(1),
        };
        Ok(Some(StateMixer {
            kind: MixerKind::Mamba2,
            heads,
            head_dim,
            key_groups: self.mamba_n_groups.or(self.n_groups).unwrap_or(1),
            key_dim: need(self.mamba_d_state.or(self.ssm_state_size), "mamba_d_state", kind)?,
            conv_kernel: self.mamba_d_conv.or(self.conv_kernel).unwrap_or(4),
            fp32_state: self.mamba_ssm_cache_dtype.as_deref() == Some("float32"),
            gate_rank: 0,
        }))
    }

    /// Gemma 3n's per-layer embeddings: a table of `vocab_size_per_layer_input` rows of
    /// `hidden_size_per_layer_input` per layer, looked up rather than multiplied.
    pub(super) fn per_layer_embedding_parameters(&self) -> u64 {
        match (
            self.vocab_size_per_layer_input,
            self.hidden_size_per_layer_input,
            self.num_hidden_layers,
        ) {
            (Some(v), Some(h), Some(l)) => u64::from(v) * u64::from(h) * u64::from(l),
            _ => 0,
        }
    }
}

pub(super) fn missing(field: &str, kind: &str) -> CoreError {
    CoreError::InvalidConfig(alloc::format!("'{field}' is missing (needed for model_type '{kind}')"))
}

/// Model types read as decoder-only language models.
pub(super) const DECODERS: &[&str] = &[
    "llama",
    "mistral",
    "mixtral",
    "ministral",
    "qwen2",
    "qwen2_moe",
    "qwen3",
    "qwen3_moe",
    "qwen3_next",
    "gemma",
    "gemma2",
    "gemma3_text",
    "gemma3n_text",
    "phi",
    "phi3",
    "phi3small",
    "phimoe",
    "olmo",
    "olmo2",
    "olmo3",
    "olmoe",
    "granite",
    "granitemoe",
    "granitemoeshared",
    "granitemoehybrid",
    "bamba",
    "nemotron_h",
    "lfm2",
    "starcoder2",
    "stablelm",
    "smollm3",
    "gpt_oss",
    "deepseek_v2",
    "deepseek_v3",
    "deepseek_v4",
    "kimi_k2",
    "kimi_linear",
    "minimax_m2",
    "minimax_m3",
    "glm",
    "glm4",
    "glm4_moe",
    "cohere",
    "cohere2",
    "exaone",
    "exaone4",
    "internlm2",
    "internlm3",
    "ernie4_5",
    "ernie4_5_moe",
    "hunyuan_v1_dense",
    "hunyuan_v1_moe",
    "falcon",
    "gpt_neox",
    "nemotron",
    "dots1",
    "mimo_v2_flash",
    "arcee",
    "seed_oss",
    "apertus",
    "llama4_text",
];

/// Names of the standard decoder fields, for messages.
pub(super) fn standard_fields() -> String {
    let fields: Vec<&str> = Vec::from([
        "num_hidden_layers",
        "hidden_size",
        "num_attention_heads",
        "num_key_value_heads",
        "intermediate_size",
        "vocab_size",
    ]);
    fields.join(", ")
}

//! Catalog models read from their published `config.json` (`data/models/`): the same reader a
//! user's config goes through computes their parameters, active parameters, cache and FLOPs.

use alloc::format;
use alloc::vec::Vec;

use super::CatalogEntry;
use crate::{CoreError, HfConfig, Subfamily};

/// One model of `data/models/models.csv` with its config compiled in.
pub(super) struct ConfigModel {
    /// Hugging Face id.
    pub id: &'static str,
    /// Subfamily (the catalog states it; the config's class does not always decide it).
    pub subfamily: &'static str,
    /// Other names it resolves from.
    pub aliases: &'static [&'static str],
    /// Where the copy of the config was read.
    pub source: &'static str,
    /// Whether the config is this release's own rather than another release's of the same
    /// architecture (a quantized upload's, whose `quantization_config` is not this model's).
    pub own_config: bool,
    /// The `config.json` text.
    pub json: &'static str,
}

/// Every model of `data/models/models.csv`.
pub(super) const CONFIG_MODELS: &[ConfigModel] = include!(concat!(env!("OUT_DIR"), "/model_configs.rs"));

impl ConfigModel {
    /// The catalog entry built from the config.
    pub(super) fn entry(&self) -> Result<CatalogEntry, CoreError> {
        let value = crate::hf_config::parse_config_text(self.json)
            .map_err(|e| CoreError::InvalidConfig(format!("{}: {e}", self.id)))?;
        let config = HfConfig::deserialize_value(&value)?;
        let (components, max_positions) = config.spec_parts()?;
        let subfamily: Subfamily = self.subfamily.parse()?;
        let reference: &'static str = self.source;
        Ok(
            CatalogEntry::new(self.id, subfamily, max_positions, components, reference)
                .aliases(self.aliases)
                .checkpoint(crate::checkpoint::of_release(
                    self.id,
                    config.checkpoint_format().filter(|_| self.own_config),
                )),
        )
    }
}

/// Catalog entries of every config model whose id the hand-written catalog does not have.
pub(super) fn entries(existing: &[CatalogEntry]) -> Vec<CatalogEntry> {
    CONFIG_MODELS
        .iter()
        .filter(|m| !existing.iter().any(|e| e.spec().name.eq_ignore_ascii_case(m.id)))
        .filter_map(|m| m.entry().ok())
        .collect()
}

/// The config text of a catalog model, if it was read from one.
#[must_use]
pub fn config_of(id: &str) -> Option<&'static str> {
    CONFIG_MODELS
        .iter()
        .find(|m| m.id.eq_ignore_ascii_case(id))
        .map(|m| m.json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csv::Table;
    use crate::{Catalog, Precision, Workload};

    const MANIFEST: &str = include_str!("../../data/models/models.csv");

    /// "21B", "3.6B", "809M", "999885952" → the count and half a unit of its last stated digit
    /// ("14B" is 13.5–14.5 B; "14.7B" is 14.65–14.75 B).
    fn count(text: &str) -> Option<(f64, f64)> {
        let t = text.trim();
        let (number, scale) = match t.chars().last()? {
            'B' | 'b' => (&t[..t.len() - 1], 1e9),
            'M' | 'm' => (&t[..t.len() - 1], 1e6),
            'T' | 't' => (&t[..t.len() - 1], 1e12),
            _ => (t, 1.0),
        };
        let number = number.trim();
        let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
        let half_unit = 0.5 * libm::pow(10.0, -(decimals as f64)) * scale;
        number.parse::<f64>().ok().map(|n| (n * scale, half_unit))
    }

    fn spec(id: &str) -> crate::ModelSpec {
        Catalog::builtin().resolve(id).unwrap().spec
    }

    #[test]
    fn every_config_builds_a_catalog_entry() {
        for m in CONFIG_MODELS {
            let entry = m.entry().unwrap_or_else(|e| panic!("{}: {e}", m.id));
            assert!(entry.spec().parameters() > 0, "{}", m.id);
        }
    }

    /// Published totals (model cards, READMEs; quoted in models.csv) against the counts computed
    /// from the configs: within 2 % beyond the rounding of the published figure ("14B" stands for
    /// 13.5–14.5 B). Norms and biases are left out, so computed counts run at most ~1 % low. Active
    /// counts differ in convention (with or without the embedding tables), so they are held to 10 %.
    #[test]
    fn computed_counts_match_the_published_ones() {
        let table = Table::parse(MANIFEST).unwrap();
        let mut checked = 0;
        for row in &table.rows {
            let id = table.get(row, "id").unwrap();
            let spec = spec(id);
            if let Some((published, rounding)) = count(table.get(row, "params_total").unwrap()) {
                let computed = spec.parameters() as f64;
                let off = (computed - published).abs() - rounding;
                assert!(
                    off <= 0.02 * published,
                    "{id}: {computed:e} vs {published:e} ± {rounding:e}"
                );
                checked += 1;
            }
            if let Some((published, rounding)) = count(table.get(row, "params_active").unwrap()) {
                let computed = spec.active_parameters() as f64;
                let off = (computed - published).abs() - rounding;
                assert!(off <= 0.1 * published, "{id}: active {computed:e} vs {published:e}");
            }
        }
        assert!(checked >= 40, "{checked}");
    }

    #[test]
    fn mixture_of_experts_configs_read_their_experts() {
        let qwen = spec("Qwen3-30B-A3B");
        assert!((qwen.parameters() as f64 / 30.5e9 - 1.0).abs() < 0.02);
        let stack = qwen.generating_stack().unwrap();
        assert_eq!(
            (stack.experts, stack.active_experts, stack.intermediate_size),
            (128, 8, 768)
        );
        // DeepSeek-V3: three dense layers, one shared expert, 256 routed (8 picked), latent attention.
        let v3 = spec("deepseek-ai/DeepSeek-V3");
        let s = v3.generating_stack().unwrap();
        assert_eq!(
            (s.dense_layers, s.dense_intermediate_size, s.shared_expert_size),
            (3, 18432, 2048)
        );
        assert_eq!((s.experts, s.active_experts), (256, 8));
        // The compressed cache: 61 layers × (512 latent + 64 rotary) × 2 bytes.
        assert_eq!(v3.kv_cache_bytes_per_token(2), 61 * 576 * 2);
        // Gemma 4 26B-A4B: each layer's dense feed-forward runs beside 128 routed experts (8 picked).
        let gemma = spec("google/gemma-4-26B-A4B");
        let s = gemma.generating_stack().unwrap();
        assert_eq!(
            (s.experts, s.active_experts, s.intermediate_size, s.shared_expert_size),
            (128, 8, 704, 2112)
        );
    }

    /// Gemma 4's full-attention layers have heads of their own: 31B's ten full layers have 32
    /// query heads and 4 key/value heads of 512 (one projection makes keys and values), its fifty
    /// sliding layers 16 key/value heads of 256. transformers 5.24 builds 31,273,086,512 parameters
    /// (31B) and 25,805,933,872 (26B-A4B) from these configs on the meta device; hwfit leaves out
    /// norms and per-layer scalars.
    #[test]
    fn gemma_4_full_attention_layers_have_their_own_heads() {
        let dense = spec("google/gemma-4-31B");
        let s = dense.generating_stack().unwrap();
        assert_eq!(
            s.full_attention,
            Some(crate::spec::FullAttention {
                kv_heads: 4,
                head_dim: 512,
                keys_as_values: true
            })
        );
        let near = |computed: u64, torch: u64| (computed as f64 / torch as f64 - 1.0).abs() < 0.01;
        assert!(near(dense.parameters(), 31_273_086_512), "{}", dense.parameters());
        assert_eq!(
            dense.kv_cache_bytes_per_token(2),
            (50 * 2 * 16 * 256 + 10 * 2 * 4 * 512) * 2
        );
        // At 4,096 tokens the sliding layers keep their 1,024-token window.
        assert_eq!(
            dense.kv_cache_bytes(4096, 2),
            (50 * 1024 * 2 * 16 * 256 + 10 * 4096 * 2 * 4 * 512) * 2
        );
        let moe = spec("google/gemma-4-26B-A4B");
        assert!(near(moe.parameters(), 25_805_933_872), "{}", moe.parameters());
    }

    /// Nemotron 3 Ultra states its blocks only as `layers_block_type`: transformers 5.24 builds
    /// 549,309 M parameters from the config; its FP8 upload resolves to it at FP8.
    #[test]
    fn nemotron_3_ultra_reads_its_block_list() {
        let ultra = spec("nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B");
        assert!(
            (ultra.parameters() as f64 / 549.309e9 - 1.0).abs() < 0.001,
            "{}",
            ultra.parameters()
        );
        let fp8 = Catalog::builtin()
            .resolve("nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-FP8")
            .unwrap();
        assert_eq!(fp8.spec.name, "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B");
        assert_eq!(fp8.checkpoint.and_then(|c| c.precision), Some(Precision::Fp8));
    }

    #[test]
    fn local_attention_caps_the_cache_of_windowed_layers() {
        // gpt-oss-20b: 24 layers alternating a 128-token window and full attention; 8 KV heads of 64.
        let oss = spec("gpt-oss-20b");
        let per_layer_token = 2 * 8 * 64 * 2;
        assert_eq!(oss.kv_cache_bytes(4096, 2), (12 * 4096 + 12 * 128) * per_layer_token);
        // Gemma 3 1B: five local layers (512 tokens) for every global one.
        let gemma = spec("gemma-3-1b-it");
        let s = gemma.generating_stack().unwrap();
        assert_eq!(s.sliding_window.map(|w| (w.window, w.layers)), Some((512, 26 - 26 / 6)));
    }

    #[test]
    fn linear_attention_layers_count_their_mixer_and_keep_a_fixed_state() {
        // Qwen3-Next-80B-A3B: 36 Gated DeltaNet layers and 12 gated full-attention layers.
        // transformers 5.24 builds 79,674,391,296 parameters from this config (on the meta device);
        // the difference is the norms and per-head constants hwfit leaves out.
        let next = spec("Qwen/Qwen3-Next-80B-A3B-Instruct");
        let off = next.parameters().abs_diff(79_674_391_296);
        assert!(off < 400_000, "{}", next.parameters());
        let s = next.generating_stack().unwrap();
        assert_eq!(s.recurrent_layers, 36);
        // Only the 12 attention layers cache keys and values: 2 heads of 256, keys and values.
        assert_eq!(next.kv_cache_bytes_per_token(2), 12 * 2 * 2 * 256 * 2);
        // Each DeltaNet layer keeps 32 value heads × 128 × 128 and the convolution's last 3 inputs
        // of 2 × 2048 + 4096 channels, however long the sequence.
        let state = 36 * (32 * 128 * 128 + 3 * 8192) * 2;
        assert_eq!(next.recurrent_state_bytes(2), state);
        assert_eq!(next.kv_cache_bytes(1000, 2), 1000 * 12 * 2 * 2 * 256 * 2 + state);
    }

    #[test]
    fn decode_reads_the_experts_a_batch_reaches() {
        let qwen = spec("Qwen3-30B-A3B");
        let at = |batch| {
            crate::perf::step_cost(&qwen, Precision::Bf16, Workload::Decode, batch, 1)
                .unwrap()
                .weight_bytes
        };
        let total = Precision::Bf16.weight_bytes(qwen.parameters());
        // One token reads about its 3.3 B active parameters, not the 30.5 B.
        assert!(at(1) < 0.13 * total, "{} of {total}", at(1));
        // 16 tokens × 8 picks of 128 experts reach 128 × (1 − (120/128)^16) = 82 of them on average;
        // 128 tokens reach nearly all.
        let experts_share = |b: u32| {
            let s = qwen.generating_stack().unwrap();
            let routed = Precision::Bf16.weight_bytes(s.routed_expert_parameters());
            (at(b) - at(0)) / routed
        };
        assert!((experts_share(16) - 82.0 / 128.0).abs() < 0.01, "{}", experts_share(16));
        assert!(at(128) > 0.95 * total);
        assert!(at(1) < at(2) && at(2) < at(4));
    }
}

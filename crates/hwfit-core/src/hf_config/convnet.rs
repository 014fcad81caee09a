//! Convolutional networks read from their `config.json` (`transformers`' ResNet: `depths`,
//! `hidden_sizes`, `embedding_size`, `layer_type`): parameters, multiply-accumulates, feature maps
//! and kernel count are computed layer by layer, as `modeling_resnet.py` builds the network.

use alloc::format;
use alloc::vec::Vec;

use super::HfConfig;
use crate::catalog::build::{conv, ConvTally as Tally};
use crate::spec::Component;
use crate::CoreError;

impl HfConfig {
    /// `transformers`' ResNet (`ResNetConfig` defaults are microsoft/resnet-50's): a 7×7 stem and
    /// 3×3 max-pool, stages of bottleneck (1×1, 3×3, 1×1; a quarter of the width inside) or basic
    /// (3×3, 3×3) blocks with a 1×1 projection where the shape changes, global pooling and the
    /// classifier over `id2label`'s count (or `num_labels`; `transformers`' default is 2).
    pub(super) fn resnet(&self) -> Result<Vec<Component>, CoreError> {
        let kind = "resnet";
        let depths = self.depths.clone().unwrap_or_else(|| alloc::vec![3, 4, 6, 3]);
        let widths = self
            .hidden_sizes
            .clone()
            .unwrap_or_else(|| alloc::vec![256, 512, 1024, 2048]);
        if depths.len() != widths.len() || depths.is_empty() {
            return Err(CoreError::InvalidConfig(format!(
                "'depths' ({} stages) and 'hidden_sizes' ({} stages) must name the same stages, at least one (model_type '{kind}')",
                depths.len(),
                widths.len()
            )));
        }
        if let Some(zero) = ["depths", "hidden_sizes"]
            .iter()
            .zip([&depths, &widths])
            .find(|(_, list)| list.contains(&0))
        {
            return Err(CoreError::InvalidConfig(format!(
                "'{}' has a 0 (model_type '{kind}')",
                zero.0
            )));
        }
        let bottleneck = match self.layer_type.as_deref().unwrap_or("bottleneck") {
            "bottleneck" => true,
            "basic" => false,
            other => {
                return Err(CoreError::InvalidConfig(format!(
                    "'layer_type' is '{other}'; ResNet's are 'basic' and 'bottleneck'"
                )))
            }
        };
        let image = self.image_size.unwrap_or(224);
        let channels = u64::from(self.num_channels.unwrap_or(3));
        let embedding = u64::from(self.embedding_size.unwrap_or(64));
        let labels = u64::from(self.id2label.or(self.num_labels).unwrap_or(2));
        let first_stride = if self.downsample_in_first_stage.unwrap_or(false) {
            2
        } else {
            1
        };
        let in_bottleneck = self.downsample_in_bottleneck.unwrap_or(false);

        let mut t = Tally::default();
        let mut side = t.conv_bn(channels, embedding, 7, 2, u64::from(image));
        side = side.div_ceil(2);
        t.feature_map(embedding * side * side);
        let mut c_in = embedding;
        for (stage, (&depth, &width)) in depths.iter().zip(&widths).enumerate() {
            let c_out = u64::from(width);
            for block in 0..depth {
                let stride = match (stage, block) {
                    (0, 0) => first_stride,
                    (_, 0) => 2,
                    _ => 1,
                };
                if c_in != c_out || stride != 1 {
                    t.conv_bn(c_in, c_out, 1, stride, side);
                }
                side = if bottleneck {
                    let inner = c_out / 4;
                    let (s1, s3) = if in_bottleneck { (stride, 1) } else { (1, stride) };
                    let a = t.conv_bn(c_in, inner, 1, s1, side);
                    let b = t.conv_bn(inner, inner, 3, s3, a);
                    t.conv_bn(inner, c_out, 1, 1, b)
                } else {
                    let a = t.conv_bn(c_in, c_out, 3, stride, side);
                    t.conv_bn(c_out, c_out, 3, 1, a)
                };
                c_in = c_out;
            }
        }
        if labels > 0 {
            t.parameters += c_in * labels + labels;
            t.macs += c_in * labels;
            t.kernels += 1;
        }
        Ok(alloc::vec![conv(
            t.parameters,
            t.macs,
            t.peak_activations,
            t.total_activations,
            image,
            t.kernels,
        )])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::ConvNet;
    use alloc::string::ToString;

    fn read(json: &str) -> ConvNet {
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        let parts = HfConfig::deserialize_value(&value).unwrap().resnet().unwrap();
        match parts.as_slice() {
            [Component::Conv(c)] => c.clone(),
            other => panic!("{other:?}"),
        }
    }

    /// torchvision's counts (the same network): ResNet-50 25,557,032 parameters and 4.09 GMACs
    /// (He et al. 2016, Table 1: 3.8 × 10⁹ FLOPs counted as multiply-adds of the convolutions),
    /// ResNet-18 11,689,512, ResNet-101 44,549,160.
    #[test]
    fn resnets_have_their_published_parameter_counts() {
        let r50 = read(r#"{"model_type": "resnet", "num_labels": 1000}"#);
        assert_eq!(r50.parameters, 25_557_032);
        assert_eq!(r50.flops_per_item, 2 * 4_089_184_256);
        assert_eq!(
            (r50.peak_activation_elements, r50.total_activation_elements),
            (802_816, 11_314_688)
        );
        assert_eq!(r50.layers, 54);
        let r18 = read(
            r#"{"model_type": "resnet", "depths": [2, 2, 2, 2], "hidden_sizes": [64, 128, 256, 512],
                "layer_type": "basic", "num_labels": 1000}"#,
        );
        assert_eq!(r18.parameters, 11_689_512);
        let r101 = read(r#"{"model_type": "resnet", "depths": [3, 4, 23, 3], "num_labels": 1000}"#);
        assert_eq!(r101.parameters, 44_549_160);
    }

    #[test]
    fn a_head_sized_by_its_labels() {
        let two = read(r#"{"model_type": "resnet", "id2label": {"0": "cat", "1": "dog"}}"#);
        let thousand = read(r#"{"model_type": "resnet", "num_labels": 1000}"#);
        assert_eq!(thousand.parameters - two.parameters, 998 * 2049);
    }

    #[test]
    fn bad_stage_lists_are_errors_naming_the_fields() {
        for (json, field) in [
            (r#"{"model_type": "resnet", "depths": [3, 4]}"#, "'depths'"),
            (
                r#"{"model_type": "resnet", "hidden_sizes": [0, 1, 2, 3]}"#,
                "'hidden_sizes'",
            ),
            (r#"{"model_type": "resnet", "layer_type": "wide"}"#, "'layer_type'"),
        ] {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            let e = HfConfig::deserialize_value(&value).unwrap().resnet().unwrap_err();
            assert!(e.to_string().contains(field), "{e}");
        }
    }
}

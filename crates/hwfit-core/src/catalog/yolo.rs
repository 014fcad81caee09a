//! Ultralytics YOLO11 detection models, built layer by layer as ultralytics' `parse_model` builds
//! `ultralytics/cfg/models/11/yolo11.yaml` (github.com/ultralytics/ultralytics @
//! 0a2ae50b3d43736e6688987d5f9b46c60a33ea5f) at each scale: channels `make_divisible(min(c,
//! max_channels) × width, 8)`, repeats `max(round(n × depth), 1)`, C3k2 with C3k blocks at scales
//! m/l/x, and the modules of `ultralytics/nn/modules` — `Conv` (bias-free convolution + batch
//! norm), `C3k2`/`C3k`/`Bottleneck`, `SPPF`, `C2PSA` (position-sensitive attention), the anchor-free
//! `Detect` head (depthwise class branch, 16-bin DFL). The yaml states each scale's parameter count
//! (`n: … 2624080 parameters`); the test holds the built networks to them exactly.

use super::build::{conv, ConvTally};
use crate::spec::Component;

/// A YOLO11 scale: the yaml's `[depth, width, max_channels]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scale {
    /// The scale's letter (`n`, `s`, `m`, `l`, `x`).
    pub letter: char,
    depth: f64,
    width: f64,
    max_channels: u64,
}

/// The yaml's scales.
pub(crate) const SCALES: [Scale; 5] = [
    Scale {
        letter: 'n',
        depth: 0.50,
        width: 0.25,
        max_channels: 1024,
    },
    Scale {
        letter: 's',
        depth: 0.50,
        width: 0.50,
        max_channels: 1024,
    },
    Scale {
        letter: 'm',
        depth: 0.50,
        width: 1.00,
        max_channels: 512,
    },
    Scale {
        letter: 'l',
        depth: 1.00,
        width: 1.00,
        max_channels: 512,
    },
    Scale {
        letter: 'x',
        depth: 1.00,
        width: 1.50,
        max_channels: 512,
    },
];

/// COCO's 80 classes (`nc: 80`).
const CLASSES: u64 = 80;
/// The DFL's bins per box side (`Detect.reg_max`).
const REG_MAX: u64 = 16;
/// The input side the published figures refer to.
pub(crate) const IMAGE: u32 = 640;

impl Scale {
    fn channels(&self, c: u64) -> u64 {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let scaled = libm::ceil((c.min(self.max_channels) as f64 * self.width) / 8.0) as u64;
        scaled * 8
    }

    fn repeats(&self, n: u64) -> u64 {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        if n > 1 {
            (libm::round(n as f64 * self.depth) as u64).max(1)
        } else {
            n
        }
    }

    /// Whether C3k2 runs C3k blocks: as the yaml says, or always at scales m, l and x.
    fn c3k(&self, stated: bool) -> bool {
        stated || matches!(self.letter, 'm' | 'l' | 'x')
    }
}

/// `Conv(c1, c2, k, s)`: convolution without bias and batch norm.
fn conv_bn(t: &mut ConvTally, c1: u64, c2: u64, k: u64, stride: u64, side: u64) -> u64 {
    t.conv_bn(c1, c2, k, stride, side)
}

/// `Bottleneck(c1, c2, k=(k, k), e)`.
fn bottleneck(t: &mut ConvTally, c1: u64, c2: u64, k: u64, e: f64, side: u64) {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let hidden = (c2 as f64 * e) as u64;
    conv_bn(t, c1, hidden, k, 1, side);
    conv_bn(t, hidden, c2, k, 1, side);
}

/// `C3k(c1, c2, n=2)`: C3 with 3×3 bottlenecks.
fn c3k(t: &mut ConvTally, c1: u64, c2: u64, side: u64) {
    let hidden = c2 / 2;
    conv_bn(t, c1, hidden, 1, 1, side);
    conv_bn(t, c1, hidden, 1, 1, side);
    conv_bn(t, 2 * hidden, c2, 1, 1, side);
    for _ in 0..2 {
        bottleneck(t, hidden, hidden, 3, 1.0, side);
    }
}

/// `C3k2(c1, c2, n, c3k, e)`: C2f's split, `n` bottlenecks (or C3k blocks), concatenation.
fn c3k2(t: &mut ConvTally, c1: u64, c2: u64, n: u64, c3k_blocks: bool, e: f64, side: u64) {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let c = (c2 as f64 * e) as u64;
    conv_bn(t, c1, 2 * c, 1, 1, side);
    conv_bn(t, (2 + n) * c, c2, 1, 1, side);
    for _ in 0..n {
        if c3k_blocks {
            c3k(t, c, c, side);
        } else {
            bottleneck(t, c, c, 3, 0.5, side);
        }
    }
}

/// `SPPF(c1, c2, 5)`: a 1×1 reduction, three chained max-pools, a 1×1 over the four.
fn sppf(t: &mut ConvTally, c1: u64, c2: u64, side: u64) {
    conv_bn(t, c1, c1 / 2, 1, 1, side);
    conv_bn(t, c1 / 2 * 4, c2, 1, 1, side);
}

/// `C2PSA(c1, c1, n)`: `n` position-sensitive attention blocks (heads of 64 channels, keys at half
/// a head) on half the channels; attention's two products count as multiply-accumulates.
fn c2psa(t: &mut ConvTally, c1: u64, n: u64, side: u64) {
    let c = c1 / 2;
    conv_bn(t, c1, 2 * c, 1, 1, side);
    conv_bn(t, 2 * c, c1, 1, 1, side);
    let heads = c / 64;
    let head_dim = c / heads;
    let key_dim = head_dim / 2;
    let tokens = side * side;
    for _ in 0..n {
        conv_bn(t, c, c + 2 * key_dim * heads, 1, 1, side);
        conv_bn(t, c, c, 1, 1, side);
        t.conv(c, c, 3, 1, c, true, side);
        conv_bn(t, c, 2 * c, 1, 1, side);
        conv_bn(t, 2 * c, c, 1, 1, side);
        t.macs += heads * tokens * tokens * (key_dim + head_dim);
    }
}

/// `Detect(nc, ch)` (not legacy): per level a box branch (two 3×3, a 1×1 to 4 × 16 bins) and a
/// class branch (depthwise 3×3 + 1×1, twice, a 1×1 to the classes), and the DFL's fixed 1×1.
fn detect(t: &mut ConvTally, levels: &[(u64, u64)]) {
    let c2 = 16.max(levels[0].0 / 4).max(4 * REG_MAX);
    let c3 = levels[0].0.max(CLASSES.min(100));
    for &(x, side) in levels {
        conv_bn(t, x, c2, 3, 1, side);
        conv_bn(t, c2, c2, 3, 1, side);
        t.conv(c2, 4 * REG_MAX, 1, 1, 1, false, side);
        t.conv(x, x, 3, 1, x, true, side);
        conv_bn(t, x, c3, 1, 1, side);
        t.conv(c3, c3, 3, 1, c3, true, side);
        conv_bn(t, c3, c3, 1, 1, side);
        t.conv(c3, CLASSES, 1, 1, 1, false, side);
    }
    t.parameters += REG_MAX;
}

/// YOLO11 at `scale`, as a convolutional network at 640×640.
pub(crate) fn yolo11(scale: &Scale) -> Component {
    let ch = |c: u64| scale.channels(c);
    let n = scale.repeats(2);
    let mut t = ConvTally::default();
    // Backbone.
    let mut side = u64::from(IMAGE);
    side = conv_bn(&mut t, 3, ch(64), 3, 2, side);
    side = conv_bn(&mut t, ch(64), ch(128), 3, 2, side);
    c3k2(&mut t, ch(128), ch(256), n, scale.c3k(false), 0.25, side);
    side = conv_bn(&mut t, ch(256), ch(256), 3, 2, side);
    c3k2(&mut t, ch(256), ch(512), n, scale.c3k(false), 0.25, side);
    let p3 = (ch(512), side);
    side = conv_bn(&mut t, ch(512), ch(512), 3, 2, side);
    c3k2(&mut t, ch(512), ch(512), n, scale.c3k(true), 0.5, side);
    let p4 = (ch(512), side);
    side = conv_bn(&mut t, ch(512), ch(1024), 3, 2, side);
    c3k2(&mut t, ch(1024), ch(1024), n, scale.c3k(true), 0.5, side);
    sppf(&mut t, ch(1024), ch(1024), side);
    c2psa(&mut t, ch(1024), n, side);
    let p5 = (ch(1024), side);
    // Head: upsample, concatenate, C3k2 — down to P3, then back up.
    c3k2(&mut t, p5.0 + p4.0, ch(512), n, scale.c3k(false), 0.5, p4.1);
    let h4 = (ch(512), p4.1);
    c3k2(&mut t, h4.0 + p3.0, ch(256), n, scale.c3k(false), 0.5, p3.1);
    let small = (ch(256), p3.1);
    let down = conv_bn(&mut t, ch(256), ch(256), 3, 2, small.1);
    c3k2(&mut t, ch(256) + h4.0, ch(512), n, scale.c3k(false), 0.5, down);
    let medium = (ch(512), down);
    let down = conv_bn(&mut t, ch(512), ch(512), 3, 2, medium.1);
    c3k2(&mut t, ch(512) + p5.0, ch(1024), n, scale.c3k(true), 0.5, down);
    let large = (ch(1024), down);
    detect(&mut t, &[small, medium, large]);
    conv(
        t.parameters,
        t.macs,
        t.peak_activations,
        t.total_activations,
        IMAGE,
        t.kernels,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The yaml's own summaries (`yolo11.yaml`, each scale's comment) and the documentation's FLOPs
    /// (`docs/en/models/yolo11.md` @ 040502be, 640 px): parameters exactly, FLOPs within 1 %.
    #[test]
    fn every_scale_has_the_parameters_its_yaml_states() {
        let published = [
            (2_624_080, 6.5),
            (9_458_752, 21.5),
            (20_114_688, 68.0),
            (25_372_160, 86.9),
            (56_966_176, 194.9),
        ];
        for (scale, (parameters, gflops)) in SCALES.iter().zip(published) {
            let Component::Conv(net) = yolo11(scale) else {
                panic!("a convolutional network");
            };
            assert_eq!(net.parameters, parameters, "yolo11{}", scale.letter);
            #[allow(clippy::cast_precision_loss)]
            let ratio = net.flops_per_item as f64 / 1e9 / gflops;
            assert!((ratio - 1.0).abs() < 0.01, "yolo11{}: {ratio}", scale.letter);
        }
    }
}

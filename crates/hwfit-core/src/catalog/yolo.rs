//! Ultralytics YOLO11 and YOLOv8 detection models, built layer by layer as ultralytics'
//! `parse_model` builds `ultralytics/cfg/models/11/yolo11.yaml` (github.com/ultralytics/ultralytics
//! @ 0a2ae50b3d43736e6688987d5f9b46c60a33ea5f) and `ultralytics/cfg/models/v8/yolov8.yaml`
//! (@ 023641f5f0a4249fd5e6e069758c1d5ebe80ce4f) at each scale: channels `make_divisible(min(c,
//! max_channels) × width, 8)`, repeats `max(round(n × depth), 1)`, and the modules of
//! `ultralytics/nn/modules` — `Conv` (bias-free convolution + batch norm), `C2f`, `C3k2`/`C3k`
//! (C3k blocks at YOLO11's scales m/l/x), `Bottleneck`, `SPPF`, `C2PSA` (position-sensitive
//! attention), the anchor-free `Detect` head (YOLO11's depthwise class branch, YOLOv8's legacy one;
//! 16-bin DFL). Each yaml states each scale's parameter count (`n: … 2624080 parameters`); the tests
//! hold the built networks to them exactly.

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

/// A scale from the yaml's `[depth, width, max_channels]`.
const fn scale(letter: char, depth: f64, width: f64, max_channels: u64) -> Scale {
    Scale {
        letter,
        depth,
        width,
        max_channels,
    }
}

/// YOLOv8's scales (`yolov8.yaml`).
pub(crate) const V8_SCALES: [Scale; 5] = [
    scale('n', 0.33, 0.25, 1024),
    scale('s', 0.33, 0.50, 1024),
    scale('m', 0.67, 0.75, 768),
    scale('l', 1.00, 1.00, 512),
    scale('x', 1.00, 1.25, 512),
];

/// YOLO11's scales (`yolo11.yaml`).
pub(crate) const SCALES: [Scale; 5] = [
    scale('n', 0.50, 0.25, 1024),
    scale('s', 0.50, 0.50, 1024),
    scale('m', 0.50, 1.00, 512),
    scale('l', 1.00, 1.00, 512),
    scale('x', 1.00, 1.50, 512),
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

/// `C2f(c1, c2, n, shortcut)`: a split, `n` 3×3 bottlenecks at full width, concatenation.
fn c2f(t: &mut ConvTally, c1: u64, c2: u64, n: u64, side: u64) {
    let c = c2 / 2;
    conv_bn(t, c1, 2 * c, 1, 1, side);
    conv_bn(t, (2 + n) * c, c2, 1, 1, side);
    for _ in 0..n {
        bottleneck(t, c, c, 3, 1.0, side);
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

/// `Detect(nc, ch)`: per level a box branch (two 3×3, a 1×1 to 4 × 16 bins) and a class branch
/// — YOLO11's depthwise one (depthwise 3×3 + 1×1, twice) or YOLOv8's legacy one (two 3×3) — ending
/// in a 1×1 to the classes; and the DFL's fixed 1×1.
fn detect(t: &mut ConvTally, levels: &[(u64, u64)], legacy: bool) {
    let c2 = 16.max(levels[0].0 / 4).max(4 * REG_MAX);
    let c3 = levels[0].0.max(CLASSES.min(100));
    for &(x, side) in levels {
        conv_bn(t, x, c2, 3, 1, side);
        conv_bn(t, c2, c2, 3, 1, side);
        t.conv(c2, 4 * REG_MAX, 1, 1, 1, false, side);
        if legacy {
            conv_bn(t, x, c3, 3, 1, side);
            conv_bn(t, c3, c3, 3, 1, side);
        } else {
            t.conv(x, x, 3, 1, x, true, side);
            conv_bn(t, x, c3, 1, 1, side);
            t.conv(c3, c3, 3, 1, c3, true, side);
            conv_bn(t, c3, c3, 1, 1, side);
        }
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
    detect(&mut t, &[small, medium, large], false);
    network(&t)
}

/// The tally as a convolutional network at 640×640.
fn network(t: &ConvTally) -> Component {
    conv(
        t.parameters,
        t.macs,
        t.peak_activations,
        t.total_activations,
        IMAGE,
        t.kernels,
    )
}

/// YOLOv8 at `scale`, as a convolutional network at 640×640.
pub(crate) fn yolov8(scale: &Scale) -> Component {
    let ch = |c: u64| scale.channels(c);
    let (three, six) = (scale.repeats(3), scale.repeats(6));
    let mut t = ConvTally::default();
    let mut side = u64::from(IMAGE);
    side = conv_bn(&mut t, 3, ch(64), 3, 2, side);
    side = conv_bn(&mut t, ch(64), ch(128), 3, 2, side);
    c2f(&mut t, ch(128), ch(128), three, side);
    side = conv_bn(&mut t, ch(128), ch(256), 3, 2, side);
    c2f(&mut t, ch(256), ch(256), six, side);
    let p3 = (ch(256), side);
    side = conv_bn(&mut t, ch(256), ch(512), 3, 2, side);
    c2f(&mut t, ch(512), ch(512), six, side);
    let p4 = (ch(512), side);
    side = conv_bn(&mut t, ch(512), ch(1024), 3, 2, side);
    c2f(&mut t, ch(1024), ch(1024), three, side);
    sppf(&mut t, ch(1024), ch(1024), side);
    let p5 = (ch(1024), side);
    c2f(&mut t, p5.0 + p4.0, ch(512), three, p4.1);
    let h4 = (ch(512), p4.1);
    c2f(&mut t, h4.0 + p3.0, ch(256), three, p3.1);
    let small = (ch(256), p3.1);
    let down = conv_bn(&mut t, ch(256), ch(256), 3, 2, small.1);
    c2f(&mut t, ch(256) + h4.0, ch(512), three, down);
    let medium = (ch(512), down);
    let down = conv_bn(&mut t, ch(512), ch(512), 3, 2, medium.1);
    c2f(&mut t, ch(512) + p5.0, ch(1024), three, down);
    let large = (ch(1024), down);
    detect(&mut t, &[small, medium, large], true);
    network(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each scale built by `build` has the published parameters exactly and FLOPs within `tolerance`.
    fn check(name: &str, build: fn(&Scale) -> Component, scales: &[Scale], published: [(u64, f64); 5], tolerance: f64) {
        for (scale, (parameters, gflops)) in scales.iter().zip(published) {
            let Component::Conv(net) = build(scale) else {
                panic!("a convolutional network");
            };
            assert_eq!(net.parameters, parameters, "{name}{}", scale.letter);
            #[allow(clippy::cast_precision_loss)]
            let ratio = net.flops_per_item as f64 / 1e9 / gflops;
            assert!((ratio - 1.0).abs() < tolerance, "{name}{}: {ratio}", scale.letter);
        }
    }

    /// `yolo11.yaml`'s own summaries (each scale's comment) and the documentation's FLOPs
    /// (`docs/en/models/yolo11.md` @ 040502be, 640 px): parameters exactly, FLOPs within 1 %;
    /// `yolov8.yaml`'s summaries: parameters exactly, FLOPs within 2 % of its GFLOPs.
    #[test]
    fn every_scale_has_the_parameters_its_yaml_states() {
        let v11 = [
            (2_624_080, 6.5),
            (9_458_752, 21.5),
            (20_114_688, 68.0),
            (25_372_160, 86.9),
            (56_966_176, 194.9),
        ];
        check("yolo11", yolo11, &SCALES, v11, 0.01);
        let v8 = [
            (3_157_200, 8.9),
            (11_166_560, 28.8),
            (25_902_640, 79.3),
            (43_691_520, 165.7),
            (68_229_648, 258.5),
        ];
        check("yolov8", yolov8, &V8_SCALES, v8, 0.02);
    }
}

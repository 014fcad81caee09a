//! A small multilayer perceptron (ReLU hidden layers, linear output) trained full-batch with Adam
//! on standardized inputs, deterministic from a seed, and written as an ONNX graph of Gemm and
//! Relu nodes with the standardization folded into the first layer.

use ndarray::{Array1, Array2, Axis};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::onnx::{dim, Attr, GraphBuilder};

/// Training settings.
#[derive(Debug, Clone, PartialEq)]
pub struct MlpConfig {
    /// Hidden layer widths.
    pub hidden: Vec<usize>,
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam step size.
    pub learning_rate: f32,
    /// L2 penalty on the weights.
    pub weight_decay: f32,
    /// Seed of the initial weights.
    pub seed: u64,
}

impl Default for MlpConfig {
    fn default() -> Self {
        Self {
            hidden: vec![24, 12],
            epochs: 1500,
            learning_rate: 3e-3,
            weight_decay: 3e-3,
            seed: 20_261_123,
        }
    }
}

/// A trained network: layers of (weights `[out, in]`, bias), and the input standardization.
#[derive(Debug, Clone, PartialEq)]
pub struct Mlp {
    layers: Vec<(Array2<f32>, Array1<f32>)>,
    mean: Array1<f32>,
    scale: Array1<f32>,
}

struct Adam {
    m: Vec<(Array2<f32>, Array1<f32>)>,
    v: Vec<(Array2<f32>, Array1<f32>)>,
    t: i32,
}

impl Mlp {
    /// Fits `x` (rows × features) to `y`.
    #[must_use]
    pub fn fit(x: &Array2<f32>, y: &Array1<f32>, config: &MlpConfig) -> Self {
        let n = x.nrows().max(1) as f32;
        let mean = x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(x.ncols()));
        let scale = x.std_axis(Axis(0), 0.0).mapv(|s| if s > 1e-6 { 1.0 / s } else { 1.0 });
        let xs = (x - &mean) * &scale;
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        let mut widths = vec![x.ncols()];
        widths.extend(&config.hidden);
        widths.push(1);
        let mut layers: Vec<(Array2<f32>, Array1<f32>)> = widths
            .windows(2)
            .map(|w| {
                let bound = (6.0 / w[0] as f32).sqrt();
                let weights = Array2::from_shape_fn((w[1], w[0]), |_| rng.random_range(-bound..bound));
                (weights, Array1::zeros(w[1]))
            })
            .collect();
        let zeros = |l: &[(Array2<f32>, Array1<f32>)]| {
            l.iter()
                .map(|(w, b)| (Array2::zeros(w.raw_dim()), Array1::zeros(b.raw_dim())))
                .collect::<Vec<_>>()
        };
        let mut adam = Adam {
            m: zeros(&layers),
            v: zeros(&layers),
            t: 0,
        };
        for _ in 0..config.epochs {
            // Forward, keeping every layer's activations.
            let mut acts = vec![xs.clone()];
            for (i, (w, b)) in layers.iter().enumerate() {
                let z = acts[i].dot(&w.t()) + b;
                acts.push(if i + 1 < layers.len() {
                    z.mapv(|v| v.max(0.0))
                } else {
                    z
                });
            }
            let out = acts.last().map(|a| a.column(0).to_owned()).unwrap_or_default();
            // d(mean squared error)/d(output).
            let mut delta = ((out - y) * (2.0 / n)).insert_axis(Axis(1));
            let mut grads = Vec::with_capacity(layers.len());
            for i in (0..layers.len()).rev() {
                let gw = delta.t().dot(&acts[i]) + &layers[i].0 * config.weight_decay;
                let gb = delta.sum_axis(Axis(0));
                if i > 0 {
                    let back = delta.dot(&layers[i].0);
                    delta = back * acts[i].mapv(|a| if a > 0.0 { 1.0 } else { 0.0 });
                }
                grads.push((gw, gb));
            }
            grads.reverse();
            adam.step(&mut layers, &grads, config.learning_rate);
        }
        Self { layers, mean, scale }
    }

    /// The prediction for one feature vector (the Rust-side reference the ONNX graph must match).
    #[must_use]
    pub fn predict(&self, features: &[f32]) -> f32 {
        let x = Array1::from_vec(features.to_vec());
        let mut a = (x - &self.mean) * &self.scale;
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let z = w.dot(&a) + b;
            a = if i + 1 < self.layers.len() {
                z.mapv(|v| v.max(0.0))
            } else {
                z
            };
        }
        a[0]
    }

    /// Parameters (weights and biases).
    #[must_use]
    pub fn parameter_count(&self) -> usize {
        self.layers.iter().map(|(w, b)| w.len() + b.len()).sum()
    }

    /// The network as an ONNX graph `features [1, n] → correction [1, 1]`: Gemm (transB) and Relu
    /// nodes, the standardization folded into the first Gemm.
    #[must_use]
    #[allow(clippy::many_single_char_names)] // x, w, b, z: the layer equation's names
    pub fn to_graph(&self) -> GraphBuilder {
        let mut g = GraphBuilder::new("hwfit_residual");
        let n_in = self.mean.len();
        let mut x = g.input("features", &[1, dim(n_in)]);
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let (w, b) = if i == 0 {
                // w·((x − mean)·scale) + b = (w·diag(scale))·x + (b − w·(mean·scale))
                let folded = w * &self.scale;
                let shift = folded.dot(&self.mean);
                (folded, b - &shift)
            } else {
                (w.clone(), b.clone())
            };
            let dims = [dim(w.nrows()), dim(w.ncols())];
            let wn = g.weight("w", &dims, w.iter().copied().collect());
            let bn = g.weight("b", &[dim(b.len())], b.to_vec());
            let last = i + 1 == self.layers.len();
            let z = if last {
                g.node_named("Gemm", &[&x, &wn, &bn], &[("transB", Attr::Int(1))], "correction");
                String::from("correction")
            } else {
                g.node("Gemm", &[&x, &wn, &bn], &[("transB", Attr::Int(1))])
            };
            x = if last { z } else { g.node("Relu", &[&z], &[]) };
        }
        g.output("correction", &[1, 1]);
        g
    }
}

impl Adam {
    fn step(&mut self, layers: &mut [(Array2<f32>, Array1<f32>)], grads: &[(Array2<f32>, Array1<f32>)], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (((w, b), (gw, gb)), ((mw, mb), (vw, vb))) in layers
            .iter_mut()
            .zip(grads)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
        {
            mw.zip_mut_with(gw, |m, g| *m = B1 * *m + (1.0 - B1) * g);
            vw.zip_mut_with(gw, |v, g| *v = B2 * *v + (1.0 - B2) * g * g);
            mb.zip_mut_with(gb, |m, g| *m = B1 * *m + (1.0 - B1) * g);
            vb.zip_mut_with(gb, |v, g| *v = B2 * *v + (1.0 - B2) * g * g);
            ndarray::Zip::from(w)
                .and(&*mw)
                .and(&*vw)
                .for_each(|p, m, v| *p -= lr * (m / c1) / ((v / c2).sqrt() + 1e-8));
            ndarray::Zip::from(b)
                .and(&*mb)
                .and(&*vb)
                .for_each(|p, m, v| *p -= lr * (m / c1) / ((v / c2).sqrt() + 1e-8));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_a_nonlinear_function_and_is_deterministic() {
        let x = Array2::from_shape_fn((200, 2), |(i, j)| ((i * 7 + j * 13) % 50) as f32 / 10.0);
        let y = x.map_axis(Axis(1), |r| (r[0] - 2.5).abs() - 0.5 * r[1]);
        let config = MlpConfig {
            epochs: 800,
            ..MlpConfig::default()
        };
        let a = Mlp::fit(&x, &y, &config);
        let b = Mlp::fit(&x, &y, &config);
        assert_eq!(a, b, "same seed, same network");
        let mse: f32 = (0..200)
            .map(|i| (a.predict(&[x[[i, 0]], x[[i, 1]]]) - y[i]).powi(2))
            .sum::<f32>()
            / 200.0;
        let var = y.var(0.0);
        assert!(mse < 0.1 * var, "mse {mse} vs variance {var}");
    }
}

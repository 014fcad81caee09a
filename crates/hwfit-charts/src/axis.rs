//! Value axes: linear from zero or logarithmic, with ticks at round values.

use alloc::vec::Vec;

/// A value axis mapping data to the unit interval.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    /// An axis covering `values` (positive ones only on a log axis): log axes span whole decades,
    /// linear ones start at zero and end at a round value.
    pub(crate) fn covering(values: impl Iterator<Item = f64>, log: bool) -> Self {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = (1.0, 10.0);
        }
        if log {
            let lo = libm::pow(10.0, libm::floor(libm::log10(lo)));
            let mut hi = libm::pow(10.0, libm::ceil(libm::log10(hi)));
            if hi <= lo {
                hi = lo * 10.0;
            }
            Self { lo, hi, log }
        } else {
            let hi = if hi <= 0.0 { 1.0 } else { hi };
            let step = nice_step(hi / 5.0);
            Self {
                lo: 0.0,
                hi: libm::ceil(hi / step) * step,
                log,
            }
        }
    }

    /// Where `v` falls, 0 at the bottom and 1 at the top (clamped).
    pub(crate) fn fraction(&self, v: f64) -> f64 {
        let f = if self.log {
            let v = v.max(self.lo);
            (libm::log10(v) - libm::log10(self.lo)) / (libm::log10(self.hi) - libm::log10(self.lo))
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        f.clamp(0.0, 1.0)
    }

    /// The bottom of the axis (where bars start).
    pub(crate) fn base(&self) -> f64 {
        self.lo
    }

    /// Tick values: every decade on a log axis (every other one beyond 6), five or so round steps
    /// on a linear one.
    pub(crate) fn ticks(&self) -> Vec<f64> {
        if self.log {
            let decades = libm::round(libm::log10(self.hi / self.lo)) as i32;
            let every = if decades > 6 { 2 } else { 1 };
            (0..=decades)
                .step_by(every)
                .map(|d| self.lo * libm::pow(10.0, f64::from(d)))
                .collect()
        } else {
            let step = nice_step(self.hi / 5.0);
            let n = libm::round(self.hi / step) as i32;
            (0..=n).map(|i| f64::from(i) * step).collect()
        }
    }
}

/// The round step (1, 2 or 5 × 10ⁿ) nearest above `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let magnitude = libm::pow(10.0, libm::floor(libm::log10(raw)));
    let r = raw / magnitude;
    let f = if r <= 1.0 {
        1.0
    } else if r <= 2.0 {
        2.0
    } else if r <= 5.0 {
        5.0
    } else {
        10.0
    };
    f * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_span_decades_and_linear_ones_start_at_zero() {
        let a = Axis::covering([3.0, 420.0].into_iter(), true);
        assert_eq!(a.ticks(), [1.0, 10.0, 100.0, 1000.0]);
        assert!((a.fraction(100.0) - 2.0 / 3.0).abs() < 1e-9);
        let l = Axis::covering([0.4, 7.3].into_iter(), false);
        assert_eq!(l.ticks(), [0.0, 2.0, 4.0, 6.0, 8.0]);
        assert!((l.fraction(4.0) - 0.5).abs() < 1e-9);
        let empty = Axis::covering(core::iter::empty(), true);
        assert_eq!(empty.ticks(), [1.0, 10.0]);
    }
}

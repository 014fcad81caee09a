//! A small SVG writer: escaped text, the document frame, the palette.

use alloc::format;
use alloc::string::String;
use core::fmt::Write as _;

/// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), darkest first.
pub(crate) const PALETTE: [&str; 8] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#7F7F7F", "#B8A000",
];

/// The colour of series `i`.
pub(crate) fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped for element text and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// A number as a chart prints it: 3 significant figures, thousands as `k`, millions as `M`.
pub(crate) fn number(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e4 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

/// `v` with 3 significant figures and no trailing zeros.
fn trim(v: f64) -> String {
    let a = v.abs();
    let decimals = if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        // 0.0123 → 4 decimals: enough for 3 significant figures.
        (2 - libm::floor(libm::log10(a)) as i32).clamp(0, 12) as usize
    };
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').into()
    } else {
        s
    }
}

/// The document: `<svg>` with a title (its accessible name), a description and a source note.
pub(crate) struct Frame {
    pub width: f64,
    pub height: f64,
    pub title: String,
    pub description: String,
    pub note: String,
}

impl Frame {
    /// Opens the document; `body` adds the marks; the note goes at the bottom left.
    pub(crate) fn render(&self, body: impl FnOnce(&mut String)) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-labelledby="chart-title chart-desc" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12" fill="currentColor">"#,
            w = self.width,
            h = self.height
        );
        let _ = write!(
            s,
            r#"<title id="chart-title">{}</title><desc id="chart-desc">{}</desc>"#,
            escape(&self.title),
            escape(&self.description)
        );
        let _ = write!(
            s,
            r#"<text class="chart-title" x="16" y="24" font-size="15" font-weight="600">{}</text>"#,
            escape(&self.title)
        );
        body(&mut s);
        let _ = write!(
            s,
            r#"<text class="chart-note" x="16" y="{}" font-size="10" opacity="0.75">{}</text>"#,
            self.height - 8.0,
            escape(&self.note)
        );
        s.push_str("</svg>");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(0.01234), "0.0123");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(12.34), "12.3");
        assert_eq!(number(850.2), "850");
        assert_eq!(number(12_500.0), "12.5k");
        assert_eq!(number(3_000_000.0), "3M");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}

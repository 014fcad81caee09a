//! The name tables of a device list: every normalized name (exact lookup) and every identifying
//! token of every name with the devices that hold it (word lookup), as flat sorted arrays.
//!
//! Pure text, `alloc` only: the build script includes this file and writes the bundled device
//! database's table as static arrays (`Cow::Borrowed`), so a question that reaches the database reads
//! it without parsing or tokenizing; the curated devices' tables, and those of a database loaded at
//! run time (the npm package), are built when the catalog is made (names) and when a name is first
//! not found exactly (tokens).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::names::{device_names, read};
use crate::text::normalize_key;

/// One device's names, as the table reads them.
pub(crate) struct NamesOf<'a> {
    /// The device's id.
    pub id: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Its aliases.
    pub aliases: Vec<&'a str>,
}

/// Every name of a device list, normalized, for exact lookup; positions are the devices' places in
/// the list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ExactNames {
    /// Every normalized name, sorted (equal names by position), end to end.
    pub keys: Cow<'static, str>,
    /// Where each name ends in `keys`.
    pub key_ends: Cow<'static, [u32]>,
    /// The position of the device each name belongs to.
    pub key_devices: Cow<'static, [u32]>,
}

/// Every identifying token of every name of a device list, with the devices holding it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TokenTable {
    /// Every token, sorted and deduplicated, end to end.
    pub tokens: Cow<'static, str>,
    /// Where each token ends in `tokens`.
    pub token_ends: Cow<'static, [u32]>,
    /// Where each token's devices start in `holders` (one more entry than there are tokens).
    pub holder_starts: Cow<'static, [u32]>,
    /// The positions (ascending) of the devices holding each token, token after token.
    pub holders: Cow<'static, [u32]>,
}

fn position(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// `(texts end to end, where each ends)`.
fn joined<'a>(texts: impl Iterator<Item = &'a str>) -> (String, Vec<u32>) {
    let (mut all, mut ends) = (String::new(), Vec::new());
    for t in texts {
        all.push_str(t);
        ends.push(position(all.len()));
    }
    (all, ends)
}

/// The `i`th of the texts `ends` cuts `all` into.
fn nth<'t>(all: &'t str, ends: &[u32], i: usize) -> &'t str {
    let start = i.checked_sub(1).map_or(0, |p| ends[p] as usize);
    all.get(start..ends[i] as usize).unwrap_or("")
}

impl ExactNames {
    /// Normalizes every device's names (its id, name and aliases).
    pub(crate) fn build<'a>(devices: impl Iterator<Item = NamesOf<'a>>) -> Self {
        let mut exact: Vec<(String, u32)> = devices
            .enumerate()
            .flat_map(|(i, d)| {
                device_names(d.id, d.name, d.aliases.into_iter()).map(move |n| (normalize_key(n), position(i)))
            })
            .collect();
        exact.sort_unstable();
        exact.dedup();
        let (keys, key_ends) = joined(exact.iter().map(|(k, _)| k.as_str()));
        Self {
            keys: Cow::Owned(keys),
            key_ends: Cow::Owned(key_ends),
            key_devices: Cow::Owned(exact.iter().map(|(_, d)| *d).collect()),
        }
    }

    /// The `i`th normalized name.
    fn key(&self, i: usize) -> &str {
        nth(&self.keys, &self.key_ends, i)
    }

    /// Every (normalized name, position).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&str, usize)> {
        (0..self.key_ends.len()).map(|i| (self.key(i), self.key_devices[i] as usize))
    }

    /// The positions (ascending) of the devices one of whose names normalizes to `key`.
    pub(crate) fn exact<'t>(&'t self, key: &'t str) -> impl Iterator<Item = usize> + 't {
        let first = partition_point(self.key_ends.len(), |i| self.key(i) < key);
        (first..self.key_ends.len())
            .take_while(move |&i| self.key(i) == key)
            .map(|i| self.key_devices[i] as usize)
    }
}

impl TokenTable {
    /// Reads every device's names into tokens (an id that is its name's slug is not read again).
    pub(crate) fn build<'a>(devices: impl Iterator<Item = NamesOf<'a>>) -> Self {
        let mut postings: Vec<(String, u32)> = Vec::new();
        for (i, d) in devices.enumerate() {
            let id_is_slug = normalize_key(d.id) == normalize_key(d.name);
            for (k, name) in device_names(d.id, d.name, d.aliases.into_iter()).enumerate() {
                if k == 0 && id_is_slug {
                    continue;
                }
                postings.extend(read(name).tokens.into_iter().map(|t| (t, position(i))));
            }
        }
        postings.sort_unstable();
        postings.dedup();
        let mut unique: Vec<&str> = Vec::new();
        let mut holder_starts = Vec::new();
        for (at, (token, _)) in postings.iter().enumerate() {
            if unique.last() != Some(&token.as_str()) {
                unique.push(token);
                holder_starts.push(position(at));
            }
        }
        holder_starts.push(position(postings.len()));
        let (tokens, token_ends) = joined(unique.into_iter());
        Self {
            tokens: Cow::Owned(tokens),
            token_ends: Cow::Owned(token_ends),
            holder_starts: Cow::Owned(holder_starts),
            holders: Cow::Owned(postings.iter().map(|(_, d)| *d).collect()),
        }
    }

    /// The positions (ascending) of the devices whose names hold `token`.
    fn holding(&self, token: &str) -> &[u32] {
        let count = self.token_ends.len();
        let at = partition_point(count, |i| nth(&self.tokens, &self.token_ends, i) < token);
        if at == count || nth(&self.tokens, &self.token_ends, at) != token {
            return &[];
        }
        &self.holders[self.holder_starts[at] as usize..self.holder_starts[at + 1] as usize]
    }

    /// The positions (ascending) of the devices whose names, together, hold every token.
    pub(crate) fn holding_all(&self, tokens: &[String]) -> Vec<usize> {
        let Some((first, rest)) = tokens.split_first() else {
            return Vec::new();
        };
        let mut found: Vec<usize> = self.holding(first).iter().map(|&d| d as usize).collect();
        for t in rest {
            let with = self.holding(t);
            found.retain(|&i| with.binary_search(&position(i)).is_ok());
        }
        found
    }
}

/// The first of `0..len` for which `before` is false (`before` true, then false).
fn partition_point(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn devices() -> impl Iterator<Item = NamesOf<'static>> {
        [
            NamesOf {
                id: "nvidia-geforce-rtx-3080-ti",
                name: "NVIDIA GeForce RTX 3080 Ti",
                aliases: alloc::vec!["3080ti"],
            },
            NamesOf {
                id: "nvidia-geforce-rtx-3080",
                name: "NVIDIA GeForce RTX 3080",
                aliases: Vec::new(),
            },
        ]
        .into_iter()
    }

    #[test]
    fn names_are_found_exactly_and_by_tokens() {
        let t = ExactNames::build(devices());
        assert_eq!(t.exact("nvidiageforcertx3080").collect::<Vec<_>>(), [1]);
        assert_eq!(t.exact("3080ti").collect::<Vec<_>>(), [0]);
        assert_eq!(t.exact("3080").count(), 0);
        assert_eq!(t.entries().count(), 3, "an id that is its name's slug adds no entry");
        let t = TokenTable::build(devices());
        let tokens = |s: &[&str]| s.iter().map(|t| String::from(*t)).collect::<Vec<_>>();
        assert_eq!(t.holding_all(&tokens(&["rtx", "3080"])), [0, 1]);
        assert_eq!(t.holding_all(&tokens(&["3080", "ti"])), [0]);
        assert!(t.holding_all(&tokens(&["4090"])).is_empty());
    }
}

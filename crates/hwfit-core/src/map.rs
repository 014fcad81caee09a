//! [`SortedMap`]: the core's ordered map, a vector of entries kept sorted by key.
//!
//! The answers' maps are small (a few hardware types, families or precisions) and must serialize in
//! key order so every face prints the same JSON. `BTreeMap` gives that order, but its node code is
//! monomorphized for every key/value pair: with about forty of them it was 136 KB of the npm
//! package's 978 KB core wasm, and collecting into it adds a stable sort per pair. Here lookups are a
//! binary search, iteration is a slice's, and building one inserts in place (appending when keys
//! arrive in order). `litemap` (ICU4X) has the same layout, but it sorts per type when collecting and
//! has no JSON Schema. The API is `BTreeMap`'s, for the parts the code uses.

use alloc::vec::Vec;
use core::borrow::Borrow;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};

/// A map ordered by key, stored as a sorted vector of `(key, value)`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> SortedMap<K, V> {
    /// An empty map.
    #[must_use]
    pub const fn new() -> Self {
        Self { entries: Vec::new() }
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    #[must_use]
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.entries.iter())
    }

    /// The entries in key order, values mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    #[must_use]
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    #[must_use]
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in key order, mutable.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// The keys in order, consuming the map.
    #[must_use]
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.entries.into_iter().map(|(k, _)| k)
    }

    /// The values in key order, consuming the map.
    #[must_use]
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.entries.into_iter().map(|(_, v)| v)
    }

    /// The entry with the smallest key.
    #[must_use]
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The entry with the largest key.
    #[must_use]
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Keeps the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    fn position<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value under `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value under `key`, mutable.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// The stored key and value under `key`.
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).ok().map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    /// Whether the map has `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        // Keys often arrive in order: appending skips the search.
        if self.entries.last().is_none_or(|(last, _)| *last < key) {
            self.entries.push((key, value));
            return None;
        }
        match self.position(&key) {
            Ok(i) => Some(core::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.position(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// The place of `key`, to read or fill in.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.position(&key);
        Entry { map: self, key, at }
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A key's place in a [`SortedMap`]: occupied (`at` is `Ok`) or where it would go.
pub struct Entry<'a, K, V> {
    map: &'a mut SortedMap<K, V>,
    key: K,
    at: Result<usize, usize>,
}

impl<'a, K, V> Entry<'a, K, V> {
    /// The entry's key.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// The value, inserting `make()` first if the key is absent.
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let i = match self.at {
            Ok(i) => i,
            Err(i) => {
                self.map.entries.insert(i, (self.key, make()));
                i
            }
        };
        &mut self.map.entries[i].1
    }

    /// The value, inserting `value` first if the key is absent.
    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    /// The value, inserting `V::default()` first if the key is absent.
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    /// Applies `change` to the value if the key is present.
    #[must_use]
    pub fn and_modify(self, change: impl FnOnce(&mut V)) -> Self {
        if let Ok(i) = self.at {
            change(&mut self.map.entries[i].1);
        }
        self
    }
}

/// The entries of a [`SortedMap`] in key order.
#[derive(Clone)]
pub struct Iter<'a, K, V>(core::slice::Iter<'a, (K, V)>);

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

/// The entries of a [`SortedMap`] in key order, values mutable.
pub struct IterMut<'a, K, V>(core::slice::IterMut<'a, (K, V)>);

impl<'a, K, V> Iterator for IterMut<'a, K, V> {
    type Item = (&'a K, &'a mut V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> ExactSizeIterator for IterMut<'_, K, V> {}

/// The entries of a [`SortedMap`] in key order, owned.
pub struct IntoIter<K, V>(alloc::vec::IntoIter<(K, V)>);

impl<K, V> Iterator for IntoIter<K, V> {
    type Item = (K, V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for IntoIter<K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back()
    }
}

impl<K, V> ExactSizeIterator for IntoIter<K, V> {}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = IntoIter<K, V>;
    fn into_iter(self) -> Self::IntoIter {
        IntoIter(self.entries.into_iter())
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut SortedMap<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Later entries replace earlier ones with the same key, as in `BTreeMap`.
impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut map = Self::new();
        map.extend(items);
        map
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(items: [(K, V); N]) -> Self {
        items.into_iter().collect()
    }
}

impl<K, V, Q> core::ops::Index<&Q> for SortedMap<K, V>
where
    K: Ord + Borrow<Q>,
    Q: Ord + ?Sized,
{
    type Output = V;
    /// # Panics
    /// If the key is absent, as `BTreeMap`'s index does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for SortedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = SortedMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut map = SortedMap::new();
                while let Some((k, v)) = access.next_entry()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// The same schema as `BTreeMap`'s: an object (or whatever the key type makes it).
#[cfg(feature = "schema")]
impl<K: schemars::JsonSchema, V: schemars::JsonSchema> schemars::JsonSchema for SortedMap<K, V> {
    fn inline_schema() -> bool {
        <alloc::collections::BTreeMap<K, V> as schemars::JsonSchema>::inline_schema()
    }
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        <alloc::collections::BTreeMap<K, V> as schemars::JsonSchema>::schema_name()
    }
    fn schema_id() -> alloc::borrow::Cow<'static, str> {
        <alloc::collections::BTreeMap<K, V> as schemars::JsonSchema>::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <alloc::collections::BTreeMap<K, V> as schemars::JsonSchema>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::SortedMap;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    #[test]
    fn it_keeps_keys_sorted_and_later_values_win_as_a_btree_map_does() {
        let map: SortedMap<String, u32> = [("b", 1), ("a", 2), ("c", 3), ("a", 4)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let std: alloc::collections::BTreeMap<String, u32> = [("b", 1), ("a", 2), ("c", 3), ("a", 4)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert_eq!(map.iter().collect::<Vec<_>>(), std.iter().collect::<Vec<_>>());
        assert_eq!(map.get("a"), Some(&4));
        assert_eq!(map["c"], 3);
        assert!(!map.contains_key("d"));
        assert_eq!(map.first_key_value(), Some((&"a".to_string(), &4)));
    }

    #[test]
    fn entries_insert_once_and_removal_keeps_the_order() {
        let mut map = SortedMap::new();
        *map.entry(3).or_insert(0) += 1;
        *map.entry(1).or_default() += 10;
        *map.entry(3).and_modify(|v| *v *= 5).or_insert(0) += 1;
        map.insert(2, 7);
        assert_eq!(map.iter().collect::<Vec<_>>(), [(&1, &10), (&2, &7), (&3, &6)]);
        assert_eq!(map.remove(&2), Some(7));
        assert_eq!(map.insert(1, 11), Some(10));
        assert_eq!(map.into_iter().collect::<Vec<_>>(), [(1, 11), (3, 6)]);
    }

    #[test]
    fn json_round_trips_as_an_object_in_key_order() {
        let map: SortedMap<String, f64> = serde_json::from_str(r#"{"z": 1.5, "a": 2, "m": 0}"#).unwrap();
        assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"a":2.0,"m":0.0,"z":1.5}"#);
        assert!(serde_json::from_str::<SortedMap<String, f64>>("[1]").is_err());
    }
}

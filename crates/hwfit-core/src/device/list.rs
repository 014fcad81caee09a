//! Device lists as resolution reads them: devices by position, their name tables and — read on
//! first use, per device — each device's names read into tokens. The bundled database's rows are
//! parsed one at a time, when a question reaches them: its tables were built at compile time.

use alloc::boxed::Box;
use alloc::vec::Vec;

use once_cell::race::OnceBox;

use super::name_table::{ExactNames, NamesOf, TokenTable};
use super::resolve::DeviceKeys;
use super::Device;

/// Devices by position, with their name table.
pub(crate) struct DeviceList {
    rows: Rows,
    exact: ExactNames,
    /// The token table of a list read at once, built when first needed (most names people give are
    /// exact); the bundled database's is compiled in (`BundledRows::tokens`).
    tokens: OnceBox<TokenTable>,
    /// Each device's names, read on first use.
    keys: Vec<OnceBox<DeviceKeys>>,
}

enum Rows {
    /// Devices already read.
    Read(Vec<Device>),
    /// Rows of the compiled-in device database, each parsed when first reached.
    #[cfg(feature = "device-db")]
    Bundled(BundledRows),
}

/// The compiled-in database's rows that add devices (not those of curated hardware).
#[cfg(feature = "device-db")]
struct BundledRows {
    /// The database text.
    text: &'static str,
    /// Where its header line ends.
    header_end: usize,
    /// Where each row starts and ends in `text`.
    rows: &'static [(u32, u32)],
    /// Each row's device, parsed on first use (`None`: the row is not a device hwfit can predict on,
    /// as [`super::database::parse`] leaves it out).
    parsed: Vec<OnceBox<Option<Device>>>,
    /// The rows' token table, written by the build script.
    tokens: TokenTable,
}

fn names_of(devices: &[Device]) -> impl Iterator<Item = NamesOf<'_>> {
    devices.iter().map(|d| NamesOf {
        id: &d.id,
        name: &d.name,
        aliases: d.aliases.iter().map(alloc::string::String::as_str).collect(),
    })
}

fn empty_cells<T>(n: usize) -> Vec<OnceBox<T>> {
    core::iter::repeat_with(OnceBox::new).take(n).collect()
}

impl DeviceList {
    /// A list of devices already read; its exact names are normalized now.
    pub(crate) fn read(devices: Vec<Device>) -> Self {
        Self {
            keys: empty_cells(devices.len()),
            exact: ExactNames::build(names_of(&devices)),
            tokens: OnceBox::new(),
            rows: Rows::Read(devices),
        }
    }

    /// The compiled-in database's rows that add devices, with the name table the build script wrote.
    #[cfg(feature = "device-db")]
    pub(crate) fn bundled() -> Self {
        use alloc::borrow::Cow;
        let bundled = &super::bundled_index::BUNDLED;
        Self {
            keys: empty_cells(bundled.rows.len()),
            rows: Rows::Bundled(BundledRows {
                text: super::DATABASE_CSV,
                header_end: bundled.header_end,
                rows: bundled.rows,
                parsed: empty_cells(bundled.rows.len()),
                tokens: TokenTable {
                    tokens: Cow::Borrowed(bundled.tokens),
                    token_ends: Cow::Borrowed(bundled.token_ends),
                    holder_starts: Cow::Borrowed(bundled.holder_starts),
                    holders: Cow::Borrowed(bundled.holders),
                },
            }),
            exact: ExactNames {
                keys: Cow::Borrowed(bundled.keys),
                key_ends: Cow::Borrowed(bundled.key_ends),
                key_devices: Cow::Borrowed(bundled.key_devices),
            },
            tokens: OnceBox::new(),
        }
    }

    /// How many positions the list has (rows that turn out not to be devices included).
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The device at position `i`.
    ///
    /// # Panics
    /// If a compiled-in database row does not parse (a test reads every row).
    pub(crate) fn get(&self, i: usize) -> Option<&Device> {
        match &self.rows {
            Rows::Read(devices) => devices.get(i),
            #[cfg(feature = "device-db")]
            Rows::Bundled(bundled) => {
                let (start, end) = *bundled.rows.get(i)?;
                bundled.parsed[i]
                    .get_or_init(|| {
                        let header = &bundled.text[..bundled.header_end];
                        let text = alloc::format!("{header}{}", &bundled.text[start as usize..end as usize]);
                        let parsed = super::database::parse(&text)
                            .unwrap_or_else(|e| panic!("the bundled device database: {e}"));
                        Box::new(parsed.into_iter().next().map(|entry| entry.device))
                    })
                    .as_ref()
            }
        }
    }

    /// Every device, in list order (the bundled rows parsed together, which is faster than one by
    /// one).
    ///
    /// # Panics
    /// If the compiled-in database does not parse (a test reads every row).
    pub(crate) fn to_vec(&self) -> Vec<Device> {
        match &self.rows {
            Rows::Read(devices) => devices.clone(),
            #[cfg(feature = "device-db")]
            Rows::Bundled(bundled) => super::database::parse(bundled.text)
                .unwrap_or_else(|e| panic!("the bundled device database: {e}"))
                .into_iter()
                .filter(|entry| entry.curated_id.is_none())
                .map(|entry| entry.device)
                .collect(),
        }
    }

    /// The names of the device at position `i`, read into tokens.
    pub(crate) fn keys(&self, i: usize) -> Option<&DeviceKeys> {
        let device = self.get(i)?;
        Some(self.keys[i].get_or_init(|| Box::new(DeviceKeys::of(device))))
    }

    /// The exact-name table.
    pub(crate) fn exact(&self) -> &ExactNames {
        &self.exact
    }

    /// The token table (a read list's built now if it was not).
    pub(crate) fn tokens(&self) -> &TokenTable {
        match &self.rows {
            Rows::Read(devices) => self
                .tokens
                .get_or_init(|| Box::new(TokenTable::build(names_of(devices)))),
            #[cfg(feature = "device-db")]
            Rows::Bundled(bundled) => &bundled.tokens,
        }
    }

    /// The devices, where they were read at once (the curated list, a database loaded at run time).
    #[cfg_attr(
        not(feature = "device-db"),
        expect(
            clippy::unnecessary_wraps,
            reason = "lists read on demand exist with the compiled-in database"
        )
    )]
    pub(crate) fn as_read(&self) -> Option<&[Device]> {
        match &self.rows {
            Rows::Read(devices) => Some(devices),
            #[cfg(feature = "device-db")]
            Rows::Bundled(_) => None,
        }
    }

    /// The devices, where they were read at once.
    #[cfg_attr(
        not(feature = "device-db"),
        expect(
            clippy::unnecessary_wraps,
            reason = "lists read on demand exist with the compiled-in database"
        )
    )]
    pub(crate) fn into_read(self) -> Option<Vec<Device>> {
        match self.rows {
            Rows::Read(devices) => Some(devices),
            #[cfg(feature = "device-db")]
            Rows::Bundled(_) => None,
        }
    }
}

/// A cell already holding `value`.
fn preset<T>(value: T) -> OnceBox<T> {
    let cell = OnceBox::new();
    let _ = cell.set(Box::new(value));
    cell
}

impl Clone for DeviceList {
    /// The same devices and table; what was read on first use is read again.
    fn clone(&self) -> Self {
        let rows = match &self.rows {
            Rows::Read(devices) => Rows::Read(devices.clone()),
            #[cfg(feature = "device-db")]
            Rows::Bundled(b) => Rows::Bundled(BundledRows {
                text: b.text,
                header_end: b.header_end,
                rows: b.rows,
                parsed: empty_cells(b.rows.len()),
                tokens: b.tokens.clone(),
            }),
        };
        Self {
            rows,
            exact: self.exact.clone(),
            tokens: self.tokens.get().map_or_else(OnceBox::new, |t| preset(t.clone())),
            keys: empty_cells(self.keys.len()),
        }
    }
}

impl core::fmt::Debug for DeviceList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DeviceList")
            .field("positions", &self.len())
            .field("read", &self.as_read().is_some())
            .finish_non_exhaustive()
    }
}

/// What resolution searches: the curated devices, then a database's (positions continue after the
/// curated ones, so the curated device comes first wherever both match).
#[derive(Clone, Copy)]
pub(crate) struct Lookup<'a> {
    pub curated: &'a DeviceList,
    pub database: Option<&'a DeviceList>,
}

impl<'a> Lookup<'a> {
    fn lists(self) -> impl Iterator<Item = (usize, &'a DeviceList)> {
        let offset = self.curated.len();
        core::iter::once((0, self.curated)).chain(self.database.map(|d| (offset, d)))
    }

    /// The list and position within it of position `i`.
    fn locate(self, i: usize) -> Option<(&'a DeviceList, usize)> {
        match i.checked_sub(self.curated.len()) {
            None => Some((self.curated, i)),
            Some(j) => self.database.map(|d| (d, j)),
        }
    }

    /// The device at position `i`.
    pub(crate) fn get(self, i: usize) -> Option<&'a Device> {
        let (list, j) = self.locate(i)?;
        list.get(j)
    }

    /// The names of the device at position `i`, read.
    pub(crate) fn keys(self, i: usize) -> Option<&'a DeviceKeys> {
        let (list, j) = self.locate(i)?;
        list.keys(j)
    }

    /// The positions (ascending) one of whose names normalizes to `key`.
    pub(crate) fn entries_named(self, key: &str) -> Vec<usize> {
        self.lists()
            .flat_map(|(offset, list)| list.exact().exact(key).map(move |j| offset + j))
            .collect()
    }

    /// The first device (in list order) one of whose names normalizes to `key`.
    pub(crate) fn exact(self, key: &str) -> Option<usize> {
        self.lists().find_map(|(offset, list)| {
            list.exact()
                .exact(key)
                .find(|&j| list.get(j).is_some())
                .map(|j| offset + j)
        })
    }

    /// The devices (positions, ascending) whose names, together, hold every token.
    pub(crate) fn holding_all(self, tokens: &[alloc::string::String]) -> Vec<usize> {
        self.lists()
            .flat_map(|(offset, list)| list.tokens().holding_all(tokens).into_iter().map(move |j| offset + j))
            .collect()
    }

    /// Every (normalized name, position).
    pub(crate) fn entries(self) -> impl Iterator<Item = (&'a str, usize)> {
        self.lists()
            .flat_map(|(offset, list)| list.exact().entries().map(move |(k, j)| (k, offset + j)))
    }

    /// How many positions there are.
    pub(crate) fn len(self) -> usize {
        self.lists().map(|(_, l)| l.len()).sum()
    }
}

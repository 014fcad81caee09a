//! A small CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF) for the measurement files and
//! the device database.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// A cell: borrowed from the text, owned only where quotes or a CR had to be taken out.
pub type Cell<'a> = Cow<'a, str>;

/// A parsed table: the header and the rows, each row as long as the header.
pub struct Table<'a> {
    headers: Vec<Cell<'a>>,
    /// The rows, in file order.
    pub rows: Vec<Vec<Cell<'a>>>,
}

impl<'a> Table<'a> {
    /// Parses `text`; a row whose field count differs from the header's is an error naming its line.
    pub fn parse(text: &'a str) -> Result<Self, String> {
        let mut records = records(text).into_iter();
        let (_, headers) = records.next().ok_or_else(|| String::from("empty file"))?;
        let mut rows = Vec::new();
        for (line, row) in records {
            if row.len() != headers.len() {
                return Err(alloc::format!(
                    "line {line}: {} fields, the header has {}",
                    row.len(),
                    headers.len()
                ));
            }
            rows.push(row);
        }
        Ok(Self { headers, rows })
    }

    /// The position of column `name`.
    pub fn column(&self, name: &str) -> Result<usize, String> {
        self.headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| alloc::format!("no column '{name}'"))
    }

    /// The value of column `name` in `row`.
    pub fn get<'r>(&self, row: &'r [Cell<'_>], name: &str) -> Result<&'r str, String> {
        let i = self.column(name)?;
        Ok(row.get(i).map_or("", |c| c.as_ref()))
    }
}

/// A field being read: nothing yet, one run of the text (borrowed when done), or text assembled
/// from several runs (quotes and CRs taken out).
enum Pending {
    Empty,
    Run(usize, usize),
    Owned(String),
}

impl Pending {
    /// Appends `text[start..end]`; a run that continues the last one stays a run.
    fn append(&mut self, text: &str, start: usize, end: usize) {
        if start == end {
            return;
        }
        *self = match core::mem::replace(self, Self::Empty) {
            Self::Empty => Self::Run(start, end),
            Self::Run(s, e) if e == start => Self::Run(s, end),
            Self::Run(s, e) => {
                let mut owned = String::from(&text[s..e]);
                owned.push_str(&text[start..end]);
                Self::Owned(owned)
            }
            Self::Owned(mut owned) => {
                owned.push_str(&text[start..end]);
                Self::Owned(owned)
            }
        };
    }

    fn take<'a>(&mut self, text: &'a str) -> Cell<'a> {
        match core::mem::replace(self, Self::Empty) {
            Self::Empty => Cow::Borrowed(""),
            Self::Run(s, e) => Cow::Borrowed(&text[s..e]),
            Self::Owned(owned) => Cow::Owned(owned),
        }
    }
}

/// Every non-empty record with the line it starts on. Scans bytes (the delimiters are ASCII, so every
/// cut falls on a character boundary); a field is a slice of the text unless quotes or a CR were cut out.
fn records(text: &str) -> Vec<(usize, Vec<Cell<'_>>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut fields: Vec<Cell<'_>> = Vec::new();
    let mut field = Pending::Empty;
    let (mut quoted, mut line, mut start) = (false, 1, 1);
    // Where the pending run of plain text starts.
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        match (quoted, bytes[i]) {
            (true, b'"') => {
                field.append(text, run, i);
                if bytes.get(i + 1) == Some(&b'"') {
                    // The first of the two quotes is the character; the second is skipped.
                    field.append(text, i, i + 1);
                    i += 1;
                } else {
                    quoted = false;
                }
                run = i + 1;
            }
            (false, b'"') => {
                field.append(text, run, i);
                quoted = true;
                run = i + 1;
            }
            (false, b',') => {
                field.append(text, run, i);
                fields.push(field.take(text));
                run = i + 1;
            }
            (false, b'\r') => {
                field.append(text, run, i);
                run = i + 1;
            }
            (false, b'\n') => {
                field.append(text, run, i);
                fields.push(field.take(text));
                let width = fields.len();
                if fields.iter().any(|f| !f.is_empty()) {
                    out.push((start, core::mem::replace(&mut fields, Vec::with_capacity(width))));
                } else {
                    fields.clear();
                }
                line += 1;
                start = line;
                run = i + 1;
            }
            (true, b'\n') => line += 1,
            _ => {}
        }
        i += 1;
    }
    field.append(text, run, text.len());
    fields.push(field.take(text));
    if fields.iter().any(|f| !f.is_empty()) {
        out.push((start, fields));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_doubled_quotes_and_crlf() {
        let t = Table::parse("a,b,c\r\n1,\"x, \"\"y\"\"\",3\r\n\n4,\"multi\nline\",6\n").unwrap();
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.get(&t.rows[0], "b").unwrap(), "x, \"y\"");
        assert_eq!(t.get(&t.rows[1], "b").unwrap(), "multi\nline");
        assert_eq!(t.get(&t.rows[1], "c").unwrap(), "6");
        assert!(t.get(&t.rows[0], "d").is_err());
    }

    #[test]
    fn cells_borrow_from_the_text_unless_something_was_cut_out() {
        let t = Table::parse("a,b,c\r\nplain,\"quoted, whole\",\"say \"\"hi\"\"\"\r\n").unwrap();
        let row = &t.rows[0];
        assert!(matches!(&row[0], Cow::Borrowed("plain")));
        assert!(matches!(&row[1], Cow::Borrowed("quoted, whole")));
        assert!(matches!(&row[2], Cow::Owned(s) if s == "say \"hi\""));
    }

    #[test]
    fn a_short_row_names_its_line() {
        let e = Table::parse("a,b\n1,2\n3\n").err().unwrap();
        assert!(e.contains("line 3"), "{e}");
    }
}

//! A small CSV reader (RFC 4180: quoted fields, doubled quotes, CRLF) for the measurement files and
//! the device database.

use alloc::string::String;
use alloc::vec::Vec;

/// A parsed table: the header and the rows, each row as long as the header.
pub struct Table {
    headers: Vec<String>,
    /// The rows, in file order.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Parses `text`; a row whose field count differs from the header's is an error naming its line.
    pub fn parse(text: &str) -> Result<Self, String> {
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
    pub fn get<'a>(&self, row: &'a [String], name: &str) -> Result<&'a str, String> {
        let i = self
            .headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| alloc::format!("no column '{name}'"))?;
        Ok(row.get(i).map_or("", String::as_str))
    }
}

/// Every non-empty record with the line it starts on. Scans bytes (the delimiters are ASCII, so every
/// cut falls on a character boundary) and copies runs of plain text at once.
fn records(text: &str) -> Vec<(usize, Vec<String>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut line, mut start) = (false, 1, 1);
    // Where the pending run of plain text starts.
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        match (quoted, bytes[i]) {
            (true, b'"') => {
                field.push_str(&text[run..i]);
                if bytes.get(i + 1) == Some(&b'"') {
                    field.push('"');
                    i += 1;
                } else {
                    quoted = false;
                }
                run = i + 1;
            }
            (false, b'"') => {
                field.push_str(&text[run..i]);
                quoted = true;
                run = i + 1;
            }
            (false, b',') => {
                field.push_str(&text[run..i]);
                fields.push(core::mem::take(&mut field));
                run = i + 1;
            }
            (false, b'\r') => {
                field.push_str(&text[run..i]);
                run = i + 1;
            }
            (false, b'\n') => {
                field.push_str(&text[run..i]);
                fields.push(core::mem::take(&mut field));
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
    field.push_str(&text[run..]);
    fields.push(field);
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
    fn a_short_row_names_its_line() {
        let e = Table::parse("a,b\n1,2\n3\n").err().unwrap();
        assert!(e.contains("line 3"), "{e}");
    }
}

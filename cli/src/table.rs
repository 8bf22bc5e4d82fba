//! Plain-text tables for the `validate` and `bench` reports.

/// A table with a title, a header row and rows of cells, printed with aligned columns.
pub struct Table {
    title: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table.
    pub fn new(title: impl Into<String>, header: &[&str]) -> Self {
        Table {
            title: title.into(),
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells print empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as Markdown-compatible text.
    pub fn render(&self) -> String {
        let cols = self.header.len();
        let mut width: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(cols) {
                width[i] = width[i].max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::from("|");
            for (i, w) in width.iter().enumerate() {
                let c = cells.get(i).map(String::as_str).unwrap_or("");
                s += &format!(" {c:<w$} |");
            }
            s + "\n"
        };
        let mut out = format!("\n{}\n\n", self.title);
        out += &line(&self.header);
        out += &line(&width.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>());
        for r in &self.rows {
            out += &line(r);
        }
        out
    }
}

/// A number in short scientific notation (`1.23e-14`), or `0` for zero.
pub fn sci(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_aligned() {
        let mut t = Table::new("T", &["a", "bbb"]);
        t.row(vec!["long cell".into(), "x".into()]);
        let text = t.render();
        assert!(text.contains("| a         | bbb |"), "{text}");
        assert!(text.contains("| long cell | x   |"), "{text}");
        assert_eq!(sci(0.0), "0");
        assert_eq!(sci(1.5e-14), "1.50e-14");
    }
}

//! A small text table, printed aligned on a terminal and as Markdown in the report file.

/// Rows of cells under a header; the first column is left-aligned, the others right-aligned.
#[derive(Debug, Clone, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Self {
        Self {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; missing cells are left empty.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut cells: Vec<String> = cells.into_iter().map(Into::into).collect();
        cells.resize(self.header.len(), String::new());
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        (0..self.header.len())
            .map(|i| {
                std::iter::once(&self.header)
                    .chain(&self.rows)
                    .map(|r| r[i].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    fn line(cells: &[String], widths: &[usize], sep: &str) -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if i == 0 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        padded.join(sep)
    }

    /// The table as aligned plain text.
    pub fn plain(&self) -> String {
        let widths = self.widths();
        let mut out = Self::line(&self.header, &widths, "  ");
        out.push('\n');
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        out.push_str(&rule.join("  "));
        out.push('\n');
        for row in &self.rows {
            out.push_str(Self::line(row, &widths, "  ").trim_end());
            out.push('\n');
        }
        out
    }

    /// The table as Markdown.
    pub fn markdown(&self) -> String {
        let widths = self.widths();
        let mut out = format!("| {} |\n", Self::line(&self.header, &widths, " | "));
        let rule: Vec<String> = widths
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let dashes = "-".repeat(w.max(3) - 1);
                if i == 0 {
                    format!("{dashes}-")
                } else {
                    format!("{dashes}:")
                }
            })
            .collect();
        out.push_str(&format!("| {} |\n", rule.join(" | ")));
        for row in &self.rows {
            out.push_str(&format!("| {} |\n", Self::line(row, &widths, " | ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(["op", "ours", "theirs"]);
        t.row(["read", "0.41 ms", "1.20 ms"]);
        t.row(["search_text", "12.3 ms"]);
        t
    }

    #[test]
    fn plain_is_aligned() {
        assert_eq!(
            sample().plain(),
            "op              ours   theirs\n\
             -----------  -------  -------\n\
             read         0.41 ms  1.20 ms\n\
             search_text  12.3 ms\n"
        );
    }

    #[test]
    fn markdown_has_a_rule_and_right_aligned_numbers() {
        let md = sample().markdown();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| op          |    ours |  theirs |");
        assert_eq!(lines[1], "| ----------- | ------: | ------: |");
        assert_eq!(lines[3], "| search_text | 12.3 ms |         |");
    }
}

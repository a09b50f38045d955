//! The text the phrase rules read: trivial obfuscation folded away.

use unicode_normalization::UnicodeNormalization;

/// NFKC (full-width and compatibility forms to their plain letters), the invisible format
/// characters dropped (zero-width, joiners, direction marks, tag characters, soft hyphens, so a
/// phrase split by them still reads as one), lower case, and each run of spaces made one space.
/// Line breaks are kept: a forged turn starts a line.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if invisible(c) {
            continue;
        }
        if c == '\n' || c == '\r' || c == '\u{2028}' || c == '\u{2029}' {
            while out.ends_with(' ') {
                out.pop();
            }
            out.push('\n');
            space = false;
        } else if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() && !out.ends_with('\n') {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}')
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn folds_width_case_space_and_invisible_characters() {
        assert_eq!(fold("ＩＧＮＯＲＥ  all\tprevious"), "ignore all previous");
        assert_eq!(fold("ig\u{200B}nore pre\u{00AD}vious"), "ignore previous");
        assert_eq!(fold("a  \n  b"), "a\nb");
    }
}

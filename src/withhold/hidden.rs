//! Text a person would not see as the assistant reads it. Read on the text as written, before
//! any folding.
//!
//! Not withheld: ZWNJ and ZWJ (U+200C, U+200D) and the direction marks LRM and RLM (U+200E,
//! U+200F), which Persian, emoji sequences and right-to-left text use every day.

/// A short description of the first hidden thing, or `None`.
pub fn hidden(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\u{E0000}'..='\u{E007F}' => {
                return Some(format!("U+{:04X} (tag character)", c as u32));
            }
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
                return Some(format!("U+{:04X} (direction override)", c as u32));
            }
            // Inside a word only: between words they are harmless line-breaking hints.
            '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' if i > 0 => {
                let before = chars[i - 1].is_alphanumeric();
                let after = chars.get(i + 1).is_some_and(|c| c.is_alphanumeric());
                if before && after {
                    return Some(format!("U+{:04X} inside a word", c as u32));
                }
            }
            _ => {}
        }
    }
    disguised_word(text)
}

/// A word of Latin letters with a Cyrillic or Greek letter that looks like a Latin one, or with
/// the Latin alpha or script g that stand in for `a` and `g`.
fn disguised_word(text: &str) -> Option<String> {
    for word in text.split(|c: char| !c.is_alphabetic()) {
        let mut latin = 0;
        let mut lookalike = false;
        for c in word.chars() {
            if c.is_ascii_alphabetic() {
                latin += 1;
            } else if looks_latin(c) {
                lookalike = true;
            }
        }
        // Two Latin letters at least: a lone letter beside an IPA or Greek symbol is notation.
        if latin > 1 && lookalike {
            return Some(format!("mixed scripts in \"{word}\""));
        }
    }
    None
}

/// Letters of other scripts drawn like Latin ones (the common confusables).
fn looks_latin(c: char) -> bool {
    matches!(
        c,
        // Cyrillic
        'а' | 'в' | 'е' | 'к' | 'м' | 'н' | 'о' | 'р' | 'с' | 'т' | 'у' | 'х' | 'і' | 'ј' | 'ѕ'
            | 'ԁ' | 'ԛ' | 'ԝ' | 'ү' | 'һ' | 'ӏ' | 'ɡ' | 'ɑ'
            | 'А' | 'В' | 'Е' | 'К' | 'М' | 'Н' | 'О' | 'Р' | 'С' | 'Т' | 'Х' | 'І' | 'Ј' | 'Ѕ'
            | 'Ү' | 'Һ' | 'Ԁ' | 'Ԛ' | 'Ԝ'
            // Greek
            | 'α' | 'ο' | 'ρ' | 'ν' | 'ι' | 'κ' | 'τ' | 'υ' | 'χ' | 'ε'
            | 'Α' | 'Β' | 'Ε' | 'Ζ' | 'Η' | 'Ι' | 'Κ' | 'Μ' | 'Ν' | 'Ο' | 'Ρ' | 'Τ' | 'Υ' | 'Χ'
    )
}

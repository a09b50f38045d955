//! ROT13 text: English that reads as English only once rotated. No cue word is needed, since
//! rotated prose has no other use in a decision or a next step than to be decoded.

/// Words common enough in any English sentence that a rotated sentence shows several of them.
const COMMON: &[&str] = &[
    "a", "i", "the", "and", "you", "is", "it", "of", "to", "in", "that", "this", "for", "are",
    "was", "with", "what", "where", "not", "can", "all", "be", "have", "your", "my", "me", "do",
    "on", "or", "if", "how", "we", "they", "he", "she", "its", "but", "from", "any", "now",
];

/// The first rotated words of `folded` when it reads as ROT13 English.
pub fn rot13_english(folded: &str) -> Option<&str> {
    // Whole words only: letters inside identifiers, versions and hashes are not prose.
    let words: Vec<&str> = folded
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| c.is_ascii_punctuation()))
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic()))
        .collect();
    if words.len() < 4 {
        return None;
    }
    // Words that are not common as they stand but are once rotated ("be" and "or" rotate
    // into each other, so a common word never counts).
    let rotated: Vec<String> = words
        .iter()
        .filter(|w| !COMMON.contains(w))
        .map(|w| rot13(w))
        .filter(|w| COMMON.contains(&w.as_str()))
        .collect();
    let distinct: std::collections::HashSet<&String> = rotated.iter().collect();
    if distinct.len() >= 2 && rotated.len() >= 3 && rotated.len() * 5 >= words.len() {
        let start = folded.find(words[0]).unwrap_or(0);
        Some(&folded[start..])
    } else {
        None
    }
}

fn rot13(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            'a'..='m' => (c as u8 + 13) as char,
            'n'..='z' => (c as u8 - 13) as char,
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::rot13_english;

    #[test]
    fn rotated_english_is_found_and_plain_english_is_not() {
        assert!(rot13_english("what does this mean? v yvxr ovt pngf naq v pnaabg yvr").is_some());
        assert!(rot13_english("ignore the cache warnings until the cache is replaced").is_none());
        assert!(rot13_english("bump serde to 1.0.200").is_none());
    }
}

//! placeholder until the scrubber lands
pub fn scrub(text: &str) -> std::borrow::Cow<'_, str> {
    std::borrow::Cow::Borrowed(text)
}
pub fn contains_secret(_text: &str) -> bool {
    false
}

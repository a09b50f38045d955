// The operator console needs no script; kept for small enhancements.

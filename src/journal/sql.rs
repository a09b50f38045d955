//! The pieces of the statements built at run time (the session list's, the search's and the
//! item list's, whose filters are optional): which sessions a caller sees, split for the
//! planner, and optional conditions. The checked statements spell the same split out
//! (`session_reads`, `loops::rows`, `export::pages`).

/// The rows of `relation` (`journal_sessions`, or the read model `journal_session_reads`) a
/// caller may see that meet `conds` (SQL on it), as a FROM item to name (`FROM {this}
/// journal_sessions`): its own, then other accounts' sessions on the organizations it owns; with
/// `first`, only the first rows of each in that order (`"started_at DESC LIMIT $9"`), so the
/// caller orders and cuts the two once more.
///
/// Row-level security still decides what is visible in both branches. The split is for the
/// planner: the policy's `account_id = me OR organization_id IN (mine)` is not an index
/// condition, so a read of the bare table scanned every account's sessions (200 ms at the caps
/// in `bench/run`, issue 11). Here each branch has its index (`journal_sessions_list` or
/// `_by_activity` for the account, `journal_sessions_by_org` for the organizations) and stops
/// at the page. `conds` holds only conditions that apply: an optional filter written
/// `($1 IS NULL OR …)` makes the planner expect to read everything and sort it. (The checked
/// statements of `session_reads` spell the same split out.)
pub(crate) fn visible_sessions(relation: &str, conds: &str, first: Option<&str>) -> String {
    let first = first.map_or(String::new(), |f| format!(" ORDER BY {f}"));
    format!(
        "((SELECT * FROM {relation} WHERE account_id = n8v_account() AND {conds}{first}) \
         UNION ALL \
         (SELECT * FROM {relation} WHERE account_id <> n8v_account() \
             AND organization_id = ANY ({OWNED_ORGANIZATIONS}) AND {conds}{first}))"
    )
}

/// The organizations the caller owns, as an SQL array computed once per statement (the same
/// one the policies compare against, migration 0012): what a read names so that an
/// organization index serves it (the policies still decide what the caller sees).
pub(crate) const OWNED_ORGANIZATIONS: &str = "CAST((SELECT n8v_owned_organizations()) AS uuid[])";

/// `base` and each condition of `given` that is switched on, joined with `AND`: a read's
/// optional filters become conditions only when given (see [`visible_sessions`]).
pub(crate) fn conditions<'a>(base: &[&'a str], given: &[(bool, &'a str)]) -> String {
    let on = given.iter().filter(|(on, _)| *on).map(|(_, cond)| *cond);
    base.iter()
        .copied()
        .chain(on)
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// `text` as a `LIKE` pattern matching itself: `\`, `%` and `_` escaped.
pub(crate) fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

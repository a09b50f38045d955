//! Scans of everything the service stored: every text, character, JSON, array and byte column
//! of every table of its schemas (the job rows included), for what must never be there.

use super::TestApp;

/// How many rows of every table of the service's schemas hold a match of `pattern` in a
/// text, character, JSON, array or byte column (bytes read as text), by table and column.
pub async fn stored_matches(app: &TestApp, pattern: &str) -> Vec<(String, i64)> {
    let columns: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT c.table_schema::text, c.table_name::text, c.column_name::text, c.data_type::text \
           FROM information_schema.columns c \
           JOIN information_schema.tables t \
             ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
          WHERE c.table_schema IN ('public', 'apalis') AND t.table_type = 'BASE TABLE' \
            AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', \
                                'ARRAY', 'bytea', 'USER-DEFINED') \
          ORDER BY 1, 2, 3",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert!(
        columns
            .iter()
            .any(|(s, t, _, _)| s == "apalis" && t == "jobs"),
        "the job rows are searched: {columns:?}"
    );
    let mut found = Vec::new();
    for (schema, table, column, kind) in columns {
        let text = match kind.as_str() {
            "bytea" => format!("encode(t.\"{column}\", 'escape')"),
            _ => format!("t.\"{column}\"::text"),
        };
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM \"{schema}\".\"{table}\" t WHERE {text} ~ $1"
        )))
        .bind(pattern)
        .fetch_one(&app.owner)
        .await
        .unwrap();
        if n > 0 {
            found.push((format!("{schema}.{table}.{column}"), n));
        }
    }
    found
}

/// Every eight-character window of `secret`, as one regular expression (letters, digits, `_`).
pub fn windows(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    chars
        .windows(8)
        .map(|w| w.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("|")
}

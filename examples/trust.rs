//! The withholding rules measured on the committed corpora (bench/trust/): attacks caught and
//! benign lines kept, by family and by split, and every miss. `bench/trust/run` writes its
//! output into bench/RESULTS-trust.md.

use std::collections::BTreeMap;

use n8v_journal::withhold::withheld;

#[derive(serde::Deserialize)]
struct Line {
    family: String,
    source: String,
    split: String,
    text: String,
}

/// Families measured but not counted in the goal (see bench/trust/SOURCES.md).
const OUTSIDE_THE_GOAL: &[&str] = &["other-languages"];

fn read(path: &str) -> Vec<Line> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

fn pct(n: usize, of: usize) -> String {
    format!("{n}/{of} ({:.2}%)", 100.0 * n as f64 / of.max(1) as f64)
}

fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .escape_default()
        .to_string();
    let flat = flat.replace('|', "\\|");
    match flat.char_indices().nth(160) {
        Some((end, _)) => format!("{}…", &flat[..end]),
        None => flat,
    }
}

fn main() {
    // `--lines FILE`: the lines of FILE that would be withheld, with their rule (to look for
    // false alarms in text outside the corpora).
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, path] = args.as_slice()
        && flag == "--lines"
    {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            if let Some(w) = withheld(line) {
                println!(
                    "{}\t{}\t{}",
                    w.rule.id(),
                    one_line(&w.matched),
                    one_line(line)
                );
            }
        }
        return;
    }
    let attacks = read("bench/trust/attacks.jsonl");
    let benign = read("bench/trust/benign.jsonl");

    let started = std::time::Instant::now();
    let attack_results: Vec<_> = attacks.iter().map(|l| withheld(&l.text)).collect();
    let benign_results: Vec<_> = benign.iter().map(|l| withheld(&l.text)).collect();
    let elapsed = started.elapsed();

    println!("## Attacks caught (goal ≥ 95%)\n");
    println!("| family | sources | all | tuned on | held out |");
    println!("|---|---|---|---|---|");
    let mut by_family: BTreeMap<&str, (Vec<&str>, [usize; 4])> = BTreeMap::new();
    for (line, result) in attacks.iter().zip(&attack_results) {
        let entry = by_family.entry(&line.family).or_default();
        if !entry.0.contains(&line.source.as_str()) {
            entry.0.push(&line.source);
        }
        let held = usize::from(line.split == "held-out");
        entry.1[held * 2] += 1;
        entry.1[held * 2 + 1] += usize::from(result.is_some());
    }
    let mut total = [0usize; 4];
    let mut outside = [0usize; 4];
    for (family, (sources, n)) in &by_family {
        println!(
            "| {family} | {} | {} | {} | {} |",
            sources.join(", "),
            pct(n[1] + n[3], n[0] + n[2]),
            pct(n[1], n[0]),
            pct(n[3], n[2])
        );
        let sum = if OUTSIDE_THE_GOAL.contains(family) {
            &mut outside
        } else {
            &mut total
        };
        for i in 0..4 {
            sum[i] += n[i];
        }
    }
    println!(
        "| **all in scope** | | **{}** | **{}** | **{}** |",
        pct(total[1] + total[3], total[0] + total[2]),
        pct(total[1], total[0]),
        pct(total[3], total[2])
    );
    for i in 0..4 {
        total[i] += outside[i];
    }
    println!(
        "| all, with {} | | {} | {} | {} |",
        OUTSIDE_THE_GOAL.join(", "),
        pct(total[1] + total[3], total[0] + total[2]),
        pct(total[1], total[0]),
        pct(total[3], total[2])
    );

    let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
    for w in attack_results.iter().flatten() {
        *by_rule.entry(w.rule.id()).or_default() += 1;
    }
    println!("\nThe rule that caught each (the first that matched):\n");
    for (rule, n) in &by_rule {
        println!("- {rule}: {n}");
    }

    println!("\n## Benign lines kept (goal ≥ 99%)\n");
    println!("| family | all | tuned on | held out |");
    println!("|---|---|---|---|");
    let mut by_family: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for (line, result) in benign.iter().zip(&benign_results) {
        let n = by_family.entry(&line.family).or_default();
        let held = usize::from(line.split == "held-out");
        n[held * 2] += 1;
        n[held * 2 + 1] += usize::from(result.is_none());
    }
    let mut total = [0usize; 4];
    for (family, n) in &by_family {
        println!(
            "| {family} | {} | {} | {} |",
            pct(n[1] + n[3], n[0] + n[2]),
            pct(n[1], n[0]),
            pct(n[3], n[2])
        );
        for i in 0..4 {
            total[i] += n[i];
        }
    }
    println!(
        "| **all** | **{}** | **{}** | **{}** |",
        pct(total[1] + total[3], total[0] + total[2]),
        pct(total[1], total[0]),
        pct(total[3], total[2])
    );

    println!("\n## Attacks missed\n");
    println!("| family | split | source | text (one line, cut at 160 characters) |");
    println!("|---|---|---|---|");
    for (line, result) in attacks.iter().zip(&attack_results) {
        if result.is_none() {
            println!(
                "| {} | {} | {} | {} |",
                line.family,
                line.split,
                line.source,
                one_line(&line.text)
            );
        }
    }
    println!("\n## Benign lines withheld\n");
    println!("| family | split | source | rule | matched | text |");
    println!("|---|---|---|---|---|---|");
    for (line, result) in benign.iter().zip(&benign_results) {
        if let Some(w) = result {
            println!(
                "| {} | {} | {} | {} | {} | {} |",
                line.family,
                line.split,
                line.source,
                w.rule.id(),
                one_line(&w.matched),
                one_line(&line.text)
            );
        }
    }
    let lines = attacks.len() + benign.len();
    eprintln!(
        "{lines} lines in {elapsed:?} ({:.1} µs a line, debug build)",
        elapsed.as_secs_f64() * 1e6 / lines as f64
    );
}

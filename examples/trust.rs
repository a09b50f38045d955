//! The withholding rules measured on the committed corpora (bench/trust/): attacks caught and
//! benign lines kept, by family and by split, and every miss. `bench/trust/run` writes its
//! output into bench/RESULTS-trust.md.

use std::collections::BTreeMap;

use n8v_journal::withhold::{Withheld, withheld};

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

/// Lines counted and lines right (an attack withheld, a benign line kept), for the part tuned
/// on and the held-out part.
#[derive(Default, Clone, Copy)]
struct Tally {
    tuned: (usize, usize),
    held_out: (usize, usize),
}

impl Tally {
    fn add(&mut self, held_out: bool, right: bool) {
        let part = if held_out {
            &mut self.held_out
        } else {
            &mut self.tuned
        };
        part.0 += 1;
        part.1 += usize::from(right);
    }

    fn merge(&mut self, other: &Tally) {
        self.tuned.0 += other.tuned.0;
        self.tuned.1 += other.tuned.1;
        self.held_out.0 += other.held_out.0;
        self.held_out.1 += other.held_out.1;
    }

    /// The cells all | tuned on | held out.
    fn cells(&self, bold: bool) -> String {
        let all = pct(
            self.tuned.1 + self.held_out.1,
            self.tuned.0 + self.held_out.0,
        );
        let cells = [
            all,
            pct(self.tuned.1, self.tuned.0),
            pct(self.held_out.1, self.held_out.0),
        ];
        let cells = cells.map(|c| if bold { format!("**{c}**") } else { c });
        cells.join(" | ")
    }
}

/// Prints the table by family (attacks: right when withheld, with their sources; benign lines:
/// right when kept) and returns the tallies.
fn family_table<'a>(
    lines: &'a [Line],
    results: &[Option<Withheld>],
    attacks: bool,
) -> BTreeMap<&'a str, (Vec<&'a str>, Tally)> {
    let mut by_family: BTreeMap<&str, (Vec<&str>, Tally)> = BTreeMap::new();
    for (line, result) in lines.iter().zip(results) {
        let (sources, tally) = by_family.entry(&line.family).or_default();
        if !sources.contains(&line.source.as_str()) {
            sources.push(&line.source);
        }
        tally.add(line.split == "held-out", result.is_some() == attacks);
    }
    if attacks {
        println!("| family | sources | all | tuned on | held out |");
        println!("|---|---|---|---|---|");
    } else {
        println!("| family | all | tuned on | held out |");
        println!("|---|---|---|---|");
    }
    for (family, (sources, tally)) in &by_family {
        let sources = if attacks {
            format!(" {} |", sources.join(", "))
        } else {
            String::new()
        };
        println!("| {family} |{sources} {} |", tally.cells(false));
    }
    by_family
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
    let attack_tally = family_table(&attacks, &attack_results, true);
    let (in_scope, outside) = attack_tally.iter().fold(
        (Tally::default(), Tally::default()),
        |(mut inside, mut outside), (family, (_, n))| {
            if OUTSIDE_THE_GOAL.contains(family) {
                outside.merge(n);
            } else {
                inside.merge(n);
            }
            (inside, outside)
        },
    );
    println!("| **all in scope** | | {} |", in_scope.cells(true));
    let mut all = in_scope;
    all.merge(&outside);
    println!(
        "| all, with {} | | {} |",
        OUTSIDE_THE_GOAL.join(", "),
        all.cells(false)
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
    let benign_tally = family_table(&benign, &benign_results, false);
    let mut all = Tally::default();
    for (_, n) in benign_tally.values() {
        all.merge(n);
    }
    println!("| **all** | {} |", all.cells(true));

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

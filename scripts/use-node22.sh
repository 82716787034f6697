# Sourced by scripts that need Node 22 or newer: uses the machine's node when it is new enough,
# otherwise installs Node 22 from the npm registry into .tools/ (git-ignored) and puts it first
# on PATH. Usage: source scripts/use-node22.sh
_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_node_major)" -lt 22 ]; then
  _root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if [ ! -x "$_root/.tools/node_modules/.bin/node" ]; then
    echo "Node $(node --version 2>/dev/null || echo missing) is too old; installing Node 22 into .tools/ ..."
    npm install --prefix "$_root/.tools" --no-audit --no-fund --loglevel=error node@22 >/dev/null
  fi
  export PATH="$_root/.tools/node_modules/.bin:$PATH"
fi
unset -f _node_major

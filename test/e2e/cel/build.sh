#!/usr/bin/env bash
# Builds the CEL differential's oracle (test/e2e/cel/oracle: k8s.io/apiserver v0.37.2's CEL environment, cel-go
# v0.29.2) from the Go module proxy into .cache/e2e/cel-oracle/ (git-ignored), reusing Go's module and build caches.
# Rebuilt only when main.go, go.mod, go.sum or the Go version change (the stamp in BUILT), so about once per CI run.
#
#   test/e2e/cel/build.sh [--force]     prints the binary's path last
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${KELP_CEL_ORACLE_CACHE:-$root/.cache/e2e/cel-oracle}"
force=0
[[ "${1:-}" == "--force" ]] && force=1
command -v go >/dev/null 2>&1 || { echo "cel/build.sh: go not found on PATH: the CEL oracle is built with Go (see README, End-to-end tests)" >&2; exit 1; }
src="$here/oracle"
stamp="$(cat "$src/main.go" "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-16) $(go env GOVERSION)"
mkdir -p "$out"
if [[ $force == 0 && -x "$out/cel-oracle" && "$(cat "$out/BUILT" 2>/dev/null)" == "$stamp" ]]; then
  echo "[cel-oracle] up to date: $out/cel-oracle ($stamp)" >&2
else
  echo "[cel-oracle] go build ($stamp)" >&2
  (cd "$src" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=readonly" go build -p "${KELP_GO_JOBS:-2}" -trimpath -ldflags "-s -w" -o "$out/cel-oracle.tmp" .)
  mv "$out/cel-oracle.tmp" "$out/cel-oracle"
  echo "$stamp" > "$out/BUILT"
fi
echo "$out/cel-oracle"

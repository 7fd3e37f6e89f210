#!/usr/bin/env bash
# Builds the peers bench/peers.js compares kelp check with, from the Go module proxy, into
# .cache/peers/<name>-<version>/ (git-ignored; Go's module and build caches reused):
#   kubeconform        github.com/yannh/kubeconform/cmd/kubeconform
#   kubectl-validate   sigs.k8s.io/kubectl-validate
#   test/e2e/peers/build.sh [--force]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cache="${KELP_PEERS_CACHE:-$root/.cache/peers}"
KUBECONFORM_VERSION="${KUBECONFORM_VERSION:-v0.8.0}"
KUBECTL_VALIDATE_VERSION="${KUBECTL_VALIDATE_VERSION:-v0.0.4}"
force=0
[[ "${1:-}" == "--force" ]] && force=1
command -v go >/dev/null 2>&1 || { echo "peers/build.sh: go not found on PATH: the peers are built with Go (see README, End-to-end tests)" >&2; exit 1; }
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
build() {
  local name="$1" pkg="$2" version="$3"
  local dir="$cache/${name}-${version}"
  if [[ $force == 0 && -x "$dir/$name" ]]; then echo "[peers-build] up to date: $dir/$name"; return; fi
  local t
  t="$(now)"
  echo "[peers-build] go install ${pkg}@${version} -> $dir"
  mkdir -p "$dir"
  (cd "${TMPDIR:-/tmp}" && CGO_ENABLED=0 GOBIN="$dir" GOFLAGS="${GOFLAGS:-} -trimpath" go install -p "${KELP_GO_JOBS:-2}" -ldflags "-s -w" "${pkg}@${version}")
  echo "[peers-build] ${name}: done in $(took "$t")"
}
build kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
build kubectl-validate sigs.k8s.io/kubectl-validate "$KUBECTL_VALIDATE_VERSION"

#!/usr/bin/env bash
# The whole test suite. Installs what the tests need when it is missing (Debian
# packages), then runs go vet, gofmt and go test -race, the e2e-tagged tests included.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v ctags >/dev/null 2>&1 || need+=(universal-ctags)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v git >/dev/null 2>&1 || need+=(git)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# pytest for the grit fix end-to-end tests: Debian's, since PyPI may be unreachable.
command -v pytest >/dev/null 2>&1 || command -v pytest-3 >/dev/null 2>&1 || need+=(python3-pytest)
if ((${#need[@]})); then
  echo "installing: ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

export CGO_ENABLED=1
# C without debug info: the grammars' parser.c files are megabytes, and their
# DWARF is half of a cold build (C++ alone: 131 s -> 65 s here). Still -O2.
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g0}"
echo "== go vet" >&2
go vet -tags e2e ./...
echo "== gofmt" >&2
unformatted=$(gofmt -l cmd internal)
if [ -n "$unformatted" ]; then echo "gofmt needed: $unformatted" >&2; exit 1; fi
echo "== go test -race" >&2
go test -race -tags e2e -timeout 25m "$@" ./...
# OCaml is built in only with -tags ocaml (its grammars would take the first
# build past its budget): its tests, and the scripts that list languages.
echo "== go vet, go test -race -tags ocaml" >&2
go vet -tags ocaml ./internal/index/treesitter/ ./internal/cli/
go test -race -tags ocaml -timeout 10m -run 'OCaml|LangFixtures|LangFor|HostileInput|DocLine' ./internal/index/treesitter/
go test -race -tags ocaml -timeout 10m -run 'TestAgentScripts/languages' ./internal/cli/

#!/usr/bin/env bash
source ./lib/common.sh
. "$HOME/.config/env"

# 日本語: builds the project.
build() {
  local out=$1
  mkdir -p "$out"
  compile "$out"
}

function compile {
  gcc -o "$1/app" main.c
  log "compiled"
}

clean() { rm -rf build; }

build "${1:-build}"

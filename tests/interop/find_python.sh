# Sourced by the interop stages whose third-party Python packages need Python >= 3.10:
# find_python prints such an interpreter (pyenv's newest 3.12, 3.13, 3.11, 3.10 first, then
# PATH), or fails.

py_ok() {  # $1: interpreter; true if it exists and is >= 3.10
  [ -x "$1" ] && "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null
}

find_python() {
  local cand root minor
  if command -v pyenv >/dev/null 2>&1; then
    root="$(pyenv root)"
    for minor in 12 13 11 10; do
      for cand in $(ls -d "$root"/versions/3."$minor".*/bin/python 2>/dev/null | sort -V -r); do
        if py_ok "$cand"; then echo "$cand"; return 0; fi
      done
    done
  fi
  for cand in python3.12 python3.13 python3.11 python3.10 python3; do
    cand="$(command -v "$cand" 2>/dev/null || true)"
    if [ -n "$cand" ] && py_ok "$cand"; then echo "$cand"; return 0; fi
  done
  return 1
}

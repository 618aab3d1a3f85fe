"""Compare the conformance suite's results with the baseline of expected failures.

    python3 tests/interop/conformance_results.py BASELINE RESULTS_DIR

RESULTS_DIR holds one directory per run, `<fixture>/<suite version>/<era>/<scenario>/`, each
with the suite's output (`server-<scenario>-<time>/checks.json`) or nothing if the run produced
none. A check that FAILED or was SKIPPED is the key `<fixture> <suite version> <era> <scenario>
<check id>` (a skip is not a pass: a scenario the suite skipped tested nothing). The baseline
holds one such key per line, then ` | ` and the reason (the spec text, or why the check cannot
apply); `#` starts a comment; each field may be a glob (`*` for every fixture, or for every
failed or skipped check of a scenario). Exit status 0 only when the failures and skips are
exactly the baseline: one missing from it, a baseline entry that passed or no longer runs, or
a run without results all fail the stage. A line about runs that were not made (a run of some
fixtures only) is not judged. WARNING and INFO checks count as passes and are listed.
"""

import fnmatch
import glob
import json
import os
import sys


def read_baseline(path: str) -> dict:
    """Key -> reason; a line without a reason is an error, so no entry goes unexplained."""
    entries = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, reason = line.partition(" | ")
            if not sep or not reason.strip() or len(key.split()) != 5:
                raise SystemExit("%s:%d: want '<fixture> <version> <era> <scenario> <check id> | <reason>'"
                                 % (path, number))
            entries[" ".join(key.split())] = reason.strip()
    return entries


def read_results(root: str) -> tuple:
    """(failed: key -> message, passed: set of keys, runs without results: list of run names, runs)."""
    failed, passed, missing, runs = {}, set(), [], []
    for run in sorted(p for p in glob.glob(os.path.join(root, "*", "*", "*", "*")) if os.path.isdir(p)):
        run_key = " ".join(run.split(os.sep)[-4:])          # fixture, suite version, era, scenario
        runs.append(run_key)
        files = glob.glob(os.path.join(run, "*", "checks.json"))
        if not files:
            missing.append(run_key)
            continue
        for path in files:
            with open(path, encoding="utf-8") as handle:
                for check in json.load(handle):
                    key = "%s %s" % (run_key, check.get("id"))
                    status = check.get("status")
                    if status in ("FAILURE", "SKIPPED"):
                        failed[key] = "%s: %s" % (status, (check.get("errorMessage") or check.get("description")
                                                           or "").replace("\n", " "))
                    elif status in ("SUCCESS", "WARNING", "INFO"):
                        passed.add(key)
                        if status == "WARNING":
                            print("warning %s: %s" % (key, (check.get("errorMessage") or "")[:300]))
    return failed, passed, missing, runs


def main(argv: list) -> int:
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    baseline = read_baseline(argv[1])
    failed, passed, missing, runs = read_results(argv[2])

    def matches(pattern: str, key: str) -> bool:
        return len(key.split()) == len(pattern.split()) and all(
            fnmatch.fnmatchcase(k, p) for p, k in zip(pattern.split(), key.split()))
    # A line about runs this run did not make (run_conformance.sh --fixture ...) is not judged.
    baseline = {p: why for p, why in baseline.items() if any(matches(p.rsplit(" ", 1)[0], run) for run in runs)}
    expected = {k for k in failed if any(matches(p, k) for p in baseline)}
    new = sorted(k for k in failed if k not in expected)
    # A line whose checks all pass now is stale, and so is one that matches nothing the run emitted.
    fixed = sorted(p for p in baseline if not any(matches(p, k) for k in failed) and any(matches(p, k) for k in passed))
    absent = sorted(p for p in baseline if not any(matches(p, k) for k in failed) and p not in fixed)
    for key in sorted(failed):
        if key in expected and key not in baseline:
            continue                  # covered by a glob line: one line per scenario is enough
        print("%s %s: %s" % ("expected" if key in expected else "NEW FAILURE", key, failed[key][:300]))
    for key in fixed:
        print("NOW PASSES (remove it from the baseline): %s" % key)
    for key in absent:
        # A baselined check the run no longer emits is rot as well: the baseline must describe this run.
        print("NOT SEEN (remove it from the baseline, or find out why it no longer runs): %s" % key)
    for run in missing:
        print("NO RESULTS: %s (the suite did not run this scenario)" % run)
    print("%d checks passed, %d failed or skipped (%d expected by the baseline), %d new, %d baseline entries stale, "
          "%d runs without results" % (len(passed), len(failed), len(failed) - len(new), len(new),
                                       len(fixed) + len(absent), len(missing)))
    return 1 if new or fixed or absent or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

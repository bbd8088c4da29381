// Reads the conformance suite's results (each scenario's checks.json under a
// results folder) and decides: every check of a scenario `run` chose fails the
// run when its status is FAILURE, unless it is named in NOT_APPLICABLE_CHECKS
// (`scenario:check-id`, one per line: checks that probe a capability inkboard
// does not declare, inside a scenario that otherwise applies), or it is named in
// UNTESTABLE_CHECKS and the suite itself marked it `untestable` (it needs a test
// tool inkboard does not have; a real verdict on it still counts). It prints one
// line per scenario and, for each failed check, what the suite said (its error
// message and details), and ends with the plain `N passed, N failed` line.
//
// Usage: node judge.mjs RESULTS_DIR (env NOT_APPLICABLE_CHECKS, UNTESTABLE_CHECKS).
// Exit 1 on any failed applicable check, or when a scenario left no results (a
// crashed run must not read as a pass).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const [dir] = process.argv.slice(2);
const list = (name) =>
  new Set(
    (process.env[name] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
const excused = list('NOT_APPLICABLE_CHECKS');
const untestable = list('UNTESTABLE_CHECKS');

let passed = 0;
let failed = 0;
const used = new Set();
// RESULTS_DIR/VERSION/SCENARIO/ holds the suite's log (suite.log) and the
// folder it made for the scenario (server-SCENARIO-TIMESTAMP/checks.json).
for (const version of readdirSync(dir).sort()) {
  for (const scenario of readdirSync(path.join(dir, version)).sort()) {
    const folder = path.join(dir, version, scenario);
    const made = readdirSync(folder).filter((f) => f.startsWith('server-'));
    const file = made.length === 1 ? path.join(folder, made[0], 'checks.json') : null;
    if (!file || !existsSync(file)) {
      failed += 1;
      console.log(`FAIL ${version} ${scenario}: the suite wrote no checks.json; its output:`);
      const log = path.join(folder, 'suite.log');
      const text = existsSync(log) ? readFileSync(log, 'utf8') : '(no log)';
      console.log(text.split('\n').slice(-20).map((l) => `     ${l}`).join('\n'));
      continue;
    }
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const bad = [];
    const counts = {};
    for (const c of checks) {
      const key = `${scenario}:${c.id}`;
      let status = c.status;
      if (excused.has(key)) {
        used.add(key);
        status = `${status} (not applicable)`;
      } else if (untestable.has(key) && c.details?.untestable === true) {
        used.add(key);
        status = `${status} (untestable here)`;
      } else if (c.status === 'FAILURE') {
        bad.push(c);
      }
      counts[status] = (counts[status] ?? 0) + 1;
    }
    const summary = Object.entries(counts)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    if (checks.length === 0) bad.push({ id: '(none)', errorMessage: 'the scenario reported no checks' });
    // Warnings (SHOULDs the suite could not confirm) do not fail; they are shown.
    const warnings = checks.filter((c) => c.status === 'WARNING' && !excused.has(`${scenario}:${c.id}`));
    const warn = () => {
      for (const c of warnings) console.log(`     warning ${c.id}: ${c.errorMessage ?? c.details?.message ?? c.description ?? ''}`);
    };
    if (bad.length === 0) {
      passed += 1;
      console.log(`ok   ${version} ${scenario}: ${summary}`);
      warn();
    } else {
      failed += 1;
      console.log(`FAIL ${version} ${scenario}: ${summary}`);
      for (const c of bad) {
        console.log(`     - ${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
        if (c.details) {
          const details = JSON.stringify(c.details);
          console.log(`       details: ${details.length > 1500 ? `${details.slice(0, 1500)}…` : details}`);
        }
      }
      warn();
    }
  }
}
for (const key of [...excused, ...untestable]) {
  if (!used.has(key)) console.log(`note: the not-applicable check ${key} was not reported by the suite`);
}
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

// Reads meson's testlog.json and prints the suite's one closing line,
// "N passed, N failed" (", N skipped" when some were), counting every test
// case: each top-level TAP "ok"/"not ok" line of a C program or a Node test
// file. A program that failed without reporting a failed case (a crash, a
// timeout) counts as one more failure. Exit status 0 only when nothing failed.
import { readFileSync } from 'node:fs';

const path = process.argv[2];
let passed = 0, failed = 0, skipped = 0;
const failures = [];
for (const line of readFileSync(path, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const t = JSON.parse(line);
  let p = 0, f = 0, s = 0;
  for (const l of (t.stdout || '').split('\n')) {
    const m = /^(not )?ok \d+(?: - ([^#]*))?(#\s*(SKIP|TODO).*)?$/i.exec(l);
    if (!m) continue;
    if (m[3]) s++;
    else if (m[1]) { f++; failures.push(`${t.name}: ${m[2] ? m[2].trim() : l}`); }
    else p++;
  }
  const ok = t.result === 'OK' || t.result === 'EXPECTEDFAIL';
  if (t.result === 'SKIP' && !p && !f) s++;
  else if (!ok && !f) { f++; failures.push(`${t.name}: ${t.result}`); }
  passed += p; failed += f; skipped += s;
}
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
process.exit(failed ? 1 : 0);

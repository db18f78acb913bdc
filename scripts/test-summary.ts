/** Prints one closing line for CI from the JSON the test runners wrote: 'N passed, N failed'. */
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync('test-results/vitest.json')) {
  const vitest = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
}
if (existsSync('test-results/playwright.json')) {
  const stats = JSON.parse(readFileSync('test-results/playwright.json', 'utf8')).stats;
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

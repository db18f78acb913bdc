/**
 * Prints the closing lines for CI from the JSON the test runners wrote: where the time went (each
 * runner's wall time and its slowest files and journeys) and one count, 'N passed, N failed'.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Timed {
  name: string;
  seconds: number;
}

const SLOWEST = 10;
let passed = 0;
let failed = 0;
let skipped = 0;

function printSlowest(title: string, wallSeconds: number, items: Timed[]) {
  console.log(`${title}: ${wallSeconds.toFixed(0)} s; the slowest:`);
  for (const item of [...items].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST)) {
    console.log(`  ${item.seconds.toFixed(1).padStart(7)} s  ${item.name}`);
  }
}

if (existsSync('test-results/vitest.json')) {
  const vitest = JSON.parse(readFileSync('test-results/vitest.json', 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    startTime: number;
    testResults: { name: string; startTime: number; endTime: number }[];
  };
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  const files = vitest.testResults.map((file) => ({
    name: relative(process.cwd(), file.name),
    seconds: (file.endTime - file.startTime) / 1000,
  }));
  const end = Math.max(...vitest.testResults.map((file) => file.endTime), vitest.startTime);
  printSlowest('vitest files', (end - vitest.startTime) / 1000, files);
}

interface Suite {
  file?: string;
  specs?: { title: string; tests: { results: { duration: number }[] }[] }[];
  suites?: Suite[];
}

/** Every journey of the Playwright report with the time of all its tries. */
function journeys(suite: Suite): Timed[] {
  const own = (suite.specs ?? []).map((spec) => ({
    name: `${suite.file}: ${spec.title}`,
    seconds:
      spec.tests
        .flatMap((test) => test.results)
        .reduce((total, result) => total + result.duration, 0) / 1000,
  }));
  return [...own, ...(suite.suites ?? []).flatMap(journeys)];
}

if (existsSync('test-results/playwright.json')) {
  const report = JSON.parse(readFileSync('test-results/playwright.json', 'utf8')) as {
    stats: {
      expected: number;
      flaky: number;
      unexpected: number;
      skipped: number;
      duration: number;
    };
    suites: Suite[];
  };
  const { stats } = report;
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
  printSlowest('journeys', stats.duration / 1000, report.suites.flatMap(journeys));
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

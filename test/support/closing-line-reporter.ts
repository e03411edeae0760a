/**
 * Prints one plain closing line, `vitest: N passed, N failed, N skipped`, after a run; when a file
 * failed outside its tests (a failing `beforeAll`, which marks its tests skipped), the line says so.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let failedOutsideTests = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      failed += failedHere;
      if (module.state() === 'failed' && failedHere === 0) failedOutsideTests++;
    }
    const outside =
      failedOutsideTests > 0 ? `; ${failedOutsideTests} file(s) failed outside their tests` : '';
    process.stdout.write(
      `\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped${outside}\n`,
    );
  }
}

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The two site journey matrices: the longest browser files by far (ADR 0004). */
const JOURNEY_MATRIX = /\/tests\/e2e\/site-journeys(-scale)?\.test\.ts$/;

/**
 * Vitest's order (failed first, then longest first from its cache, else largest file first) with the
 * journey matrices ahead of everything: their files are small, so a fresh clone with no cache would start
 * them last, side by side, with nothing left to run beside them (ADR 0004).
 */
export default class JourneysFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isMatrix = (file: TestSpecification) => JOURNEY_MATRIX.test(file.moduleId.replaceAll('\\', '/'));
    return [...sorted.filter(isMatrix), ...sorted.filter((file) => !isMatrix(file))];
  }
}

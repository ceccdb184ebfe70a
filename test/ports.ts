/**
 * Every fixed port the test servers use, shifted by TEST_PORT_OFFSET (default 0), so two
 * checkouts can run their suites side by side on one machine (e.g. TEST_PORT_OFFSET=1000).
 */
export const TEST_PORT_OFFSET = Number(process.env.TEST_PORT_OFFSET || 0);

export function testPort(base: number): number {
  return base + TEST_PORT_OFFSET;
}

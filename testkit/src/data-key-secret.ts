// The fixed DATA_KEY_SECRET of the test suites (issue 33.1): a test's API and the processes it starts on the same
// database seal and open personal data in the log with the same data keys, so they must share the master secret.
export const TEST_DATA_KEY_SECRET = "test-data-key-secret-long-enough-for-hkdf-0123456789";

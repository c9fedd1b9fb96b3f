/** The SDK's name and version, sent to the server in `authorize`. Kept in step with package.json by a test. */
export const SDK = { name: 'parley-im', version: '0.1.0' } as const;
